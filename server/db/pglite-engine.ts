import { mkdir } from 'node:fs/promises';
import {
  PGlite,
  parse as pgliteParse,
  protocol as pgliteProtocol,
  type Extensions,
  type PGliteOptions as PGliteDriverOptions,
  type QueryOptions,
  type Results,
  type Transaction as PGliteTransaction,
} from '@electric-sql/pglite';
import {
  INT8_TYPE_ID,
  TEXT_TYPE_IDS,
  parseInt8,
  textParameter,
  toDatabaseError,
  type Database,
  type PipelinedStatement,
  type QueryResult,
  type Queryable,
} from './database';
import { StatementCache, type StatementPlan } from './statement-cache';

const keepText = (text: string): string => text;

const parsers = {
  ...Object.fromEntries(Object.values(TEXT_TYPE_IDS).map((typeId) => [typeId, keepText])),
  [INT8_TYPE_ID]: parseInt8,
};

/**
 * The embedded database, in the calling thread. The server runs it inside a
 * worker thread (`pglite.ts`, `pglite-worker.ts`), never on its main thread.
 */

interface PGliteQueryable {
  query<Row>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<Row>>;
  exec(sql: string, options?: QueryOptions): Promise<unknown>;
}

/**
 * PGlite 0.5 can fail to recover from an error: after a regular expression
 * too complex to compile, a query answers with no result and two warnings
 * (a resource and a snapshot left behind by the aborted statement), and the
 * next error spins forever (decision 014). Such an instance is not reused.
 */
export class BrokenInstanceError extends Error {
  override name = 'BrokenInstanceError';
}

/**
 * The clean-up warnings of an aborted transaction that PostgreSQL itself
 * raises (resource owners, snapshots), told apart from a `RAISE WARNING` in
 * user code, which comes from pl_exec.c whatever its text says.
 */
const LEAK_SOURCES = new Set(['resowner.c', 'snapmgr.c']);

interface Notice {
  severity?: string;
  message?: string;
  file?: string;
}

/** Watches a call's notices for the leak warnings that betray a broken instance. */
function leakWatch(): { onNotice(notice: Notice): void; check(): void } {
  let leak: string | undefined;
  return {
    onNotice(notice) {
      if (notice.severity === 'WARNING' && LEAK_SOURCES.has(notice.file ?? '')) {
        leak ??= notice.message;
      }
    },
    check() {
      if (leak !== undefined) {
        throw new BrokenInstanceError(
          `the embedded database failed to recover from an error (${leak})`,
        );
      }
    },
  };
}

function toResult<Row>(result: Results<Row>): QueryResult<Row> {
  return {
    rows: result.rows,
    rowCount: result.affectedRows ?? result.rowCount ?? result.rows.length,
    fields: result.fields.map((field) => ({ name: field.name, dataTypeId: field.dataTypeID })),
  };
}

/**
 * Errors become DatabaseErrors, and each call's notices are watched for the
 * signs of a broken instance. No call yields to the event loop: in the
 * database's own thread, calls and the watchdog's pings arrive as messages and
 * are taken in order, so nothing waits behind a chain of promises.
 */
function wrap(target: PGliteQueryable): Queryable {
  return {
    async query<Row>(sql: string, params: unknown[] = []) {
      const watch = leakWatch();
      try {
        const result = await target.query<Row>(sql, params, { onNotice: watch.onNotice });
        watch.check();
        return toResult(result);
      } catch (error) {
        watch.check();
        throw toDatabaseError(error);
      }
    },
    async exec(sql: string) {
      const watch = leakWatch();
      try {
        await target.exec(sql, { onNotice: watch.onNotice });
        watch.check();
      } catch (error) {
        watch.check();
        throw toDatabaseError(error);
      }
    },
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const message = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
}

/**
 * The protocol messages of a pipeline: Close for evicted statements, then per
 * statement Parse (first time only), Bind, Describe and Execute, and one Sync.
 */
function pipelineMessages(
  statements: readonly PipelinedStatement[],
  plan: StatementPlan,
): Uint8Array {
  const { serialize } = pgliteProtocol;
  const parts: Uint8Array[] = plan.close.map((name) => serialize.close({ type: 'S', name }));
  statements.forEach(({ sql, params }, index) => {
    const { name, parse } = plan.steps[index]!;
    if (parse) parts.push(serialize.parse({ name, text: sql }));
    parts.push(
      serialize.bind({ statement: name, values: params.map(textParameter) }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
    );
  });
  parts.push(serialize.sync());
  return concat(parts);
}

function closeMessages(names: readonly string[]): Uint8Array {
  const { serialize } = pgliteProtocol;
  return concat([...names.map((name) => serialize.close({ type: 'S', name })), serialize.sync()]);
}

/** Contrib extensions PGlite can load; each adds start-up time, so none load unless asked for. */
const EXTENSION_LOADERS: Record<string, () => Promise<Extensions[string]>> = {
  pgcrypto: async () => (await import('@electric-sql/pglite/contrib/pgcrypto')).pgcrypto,
  uuid_ossp: async () => (await import('@electric-sql/pglite/contrib/uuid_ossp')).uuid_ossp,
  citext: async () => (await import('@electric-sql/pglite/contrib/citext')).citext,
  pg_trgm: async () => (await import('@electric-sql/pglite/contrib/pg_trgm')).pg_trgm,
};

export const PGLITE_EXTENSIONS = Object.keys(EXTENSION_LOADERS);

export interface PGliteEngineOptions {
  /** Contrib extensions to make available (`PGLITE_EXTENSIONS`), e.g. pgcrypto. */
  extensions?: readonly string[];
  /** Compiled once by the opener and shared, so that each worker skips compiling it again. */
  pgliteWasmModule?: WebAssembly.Module;
  initdbWasmModule?: WebAssembly.Module;
}

/**
 * Checks a pipeline's answer: one BindComplete and one CommandComplete per
 * statement. A broken instance answers with neither (decision 014).
 */
function checkPipelineAnswer(messages: readonly { name: string }[], statements: number): void {
  let bound = 0;
  let completed = 0;
  for (const message of messages) {
    if (message.name === 'bindComplete') bound += 1;
    else if (message.name === 'commandComplete') completed += 1;
  }
  if (bound !== statements || completed !== statements) {
    throw new BrokenInstanceError(
      `the embedded database answered ${completed} of ${statements} statements`,
    );
  }
}

/** Opens (creating when empty) an embedded database in `dataDir`, or in memory for `memory://`. */
export async function openPGliteEngine(
  dataDir: string,
  options: PGliteEngineOptions = {},
): Promise<Database> {
  if (!dataDir.startsWith('memory://')) await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const extensions: Extensions = {};
  for (const name of options.extensions ?? []) {
    const load = EXTENSION_LOADERS[name];
    if (!load) {
      throw new Error(
        `PGlite cannot load the extension "${name}" (known: ${PGLITE_EXTENSIONS.join(', ')})`,
      );
    }
    extensions[name] = await load();
  }
  const driverOptions: PGliteDriverOptions = { extensions, parsers };
  if (options.pgliteWasmModule) driverOptions.pgliteWasmModule = options.pgliteWasmModule;
  if (options.initdbWasmModule) driverOptions.initdbWasmModule = options.initdbWasmModule;
  const pglite = await PGlite.create(dataDir, driverOptions);
  const queryable = wrap(pglite);
  // Named prepared statements of pipelines (PGlite is one connection: one cache).
  const preparedStatements = new StatementCache();
  return {
    kind: 'pglite',
    ...queryable,
    async transaction(work) {
      try {
        return await pglite.transaction((tx: PGliteTransaction) => work(wrap(tx)));
      } catch (error) {
        throw toDatabaseError(error);
      }
    },
    async pipeline(statements) {
      try {
        // Both locks, as PGlite's own query() takes them: never inside another caller's transaction.
        const { messages } = await pglite._runExclusiveTransaction(() =>
          pglite.runExclusive(async () => {
            const plan = preparedStatements.plan(statements.map((statement) => statement.sql));
            const watch = leakWatch();
            try {
              const result = await pglite.execProtocol(pipelineMessages(statements, plan), {
                onNotice: watch.onNotice,
              });
              watch.check();
              checkPipelineAnswer(result.messages, statements.length);
              plan.succeeded();
              return result;
            } catch (error) {
              watch.check();
              if (error instanceof BrokenInstanceError) throw error;
              const names = plan.failed();
              await pglite
                .execProtocol(closeMessages(names))
                .catch(() => preparedStatements.closeLater(names));
              throw error;
            }
          }),
        );
        return pgliteParse.parseResults(messages, pglite.parsers).map((result) => ({
          rows: result.rows as Record<string, unknown>[],
          rowCount: result.rowCount ?? result.rows.length,
          fields: result.fields.map((field) => ({
            name: field.name,
            dataTypeId: field.dataTypeID,
          })),
        }));
      } catch (error) {
        throw toDatabaseError(error);
      }
    },
    async listen(channel, onNotify) {
      const unlisten = await pglite.listen(channel, onNotify);
      return () => unlisten();
    },
    async close() {
      if (!pglite.closed) await pglite.close();
    },
  };
}
