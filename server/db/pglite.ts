import { mkdir } from 'node:fs/promises';
import {
  PGlite,
  parse as pgliteParse,
  protocol as pgliteProtocol,
  type Extensions,
  type Results,
  type Transaction as PGliteTransaction,
} from '@electric-sql/pglite';
import {
  INT8_TYPE_ID,
  TEXT_TYPE_IDS,
  parseInt8,
  textParameter,
  toDatabaseError,
  yieldToEventLoop,
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

interface PGliteQueryable {
  query<Row>(sql: string, params?: unknown[]): Promise<Results<Row>>;
  exec(sql: string): Promise<unknown>;
}

function toResult<Row>(result: Results<Row>): QueryResult<Row> {
  return {
    rows: result.rows,
    rowCount: result.affectedRows ?? result.rowCount ?? result.rows.length,
    fields: result.fields.map((field) => ({ name: field.name, dataTypeId: field.dataTypeID })),
  };
}

/**
 * Every call yields to the event loop once it settles: PGlite runs in-process,
 * and a chain of resolved promises would otherwise starve sockets and timers.
 */
function wrap(target: PGliteQueryable): Queryable {
  return {
    async query<Row>(sql: string, params: unknown[] = []) {
      try {
        return toResult(await target.query<Row>(sql, params));
      } catch (error) {
        throw toDatabaseError(error);
      } finally {
        await yieldToEventLoop();
      }
    },
    async exec(sql: string) {
      try {
        await target.exec(sql);
      } catch (error) {
        throw toDatabaseError(error);
      } finally {
        await yieldToEventLoop();
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

export interface PGliteOptions {
  /** Contrib extensions to make available (`PGLITE_EXTENSIONS`), e.g. pgcrypto. */
  extensions?: readonly string[];
}

/** Opens (creating when empty) an embedded database in `dataDir`, or in memory for `memory://`. */
export async function openPGlite(dataDir: string, options: PGliteOptions = {}): Promise<Database> {
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
  const pglite = await PGlite.create(dataDir, { extensions, parsers });
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
            try {
              const result = await pglite.execProtocol(pipelineMessages(statements, plan));
              plan.succeeded();
              return result;
            } catch (error) {
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
      } finally {
        await yieldToEventLoop();
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
