import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  DatabaseError,
  toDatabaseError,
  type Database,
  type PipelinedStatement,
  type QueryResult,
  type Transaction,
} from './database';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from './request-context';
import { PGLITE_EXTENSIONS } from './pglite-engine';
import type { WorkerCall, WorkerData, WorkerError, WorkerMessage } from './pglite-protocol';

export { PGLITE_EXTENSIONS };

/**
 * The embedded database (PGlite), run in a worker thread (`pglite-worker.ts`)
 * so that a statement that runs long, or an instance that hangs, can never
 * stop the HTTP server (decision 014). The main thread pings the worker; when
 * one statement has kept it from answering for longer than the statement
 * time-out and a grace period, the thread is ended and the database reopened
 * from its folder. Committed work is on disk and survives; the calls that were
 * waiting fail with 57P01 (HTTP 503), as they would if a PostgreSQL server
 * ended their connection, and so does every call until the database is back.
 */

export interface PGliteOptions {
  /** Contrib extensions to make available (`PGLITE_EXTENSIONS`), e.g. pgcrypto. */
  extensions?: readonly string[];
  /**
   * The statement time-out of API requests, in milliseconds (0: none). PGlite
   * cannot interrupt a statement itself, so the watchdog ends the thread
   * instead once a statement has run this long plus `WATCHDOG_GRACE_MS`.
   */
  statementTimeoutMs?: number;
  /** Told when the database thread is ended and reopened, with the reason. */
  onRestart?: (reason: string) => void;
}

/** How much longer than the statement time-out the watchdog waits. */
export const WATCHDOG_GRACE_MS = 2000;
const PING_INTERVAL_MS = 250;
/** How long closing waits for the thread to close its database (it may be stuck). */
const CLOSE_TIMEOUT_MS = 1000;

const requireFromHere = createRequire(import.meta.url);

let compiledModules:
  Promise<{ pglite: WebAssembly.Module; initdb: WebAssembly.Module }> | undefined;

/** PGlite's WebAssembly, compiled once per process and shared by every database thread. */
function wasmModules() {
  compiledModules ??= (async () => {
    const dist = path.dirname(requireFromHere.resolve('@electric-sql/pglite'));
    const [pglite, initdb] = await Promise.all(
      ['pglite.wasm', 'initdb.wasm'].map(async (file) =>
        WebAssembly.compile(new Uint8Array(await readFile(path.join(dist, file)))),
      ),
    );
    return { pglite: pglite!, initdb: initdb! };
  })();
  return compiledModules;
}

/**
 * The worker module: bundled beside the server (`db/pglite-worker.mjs`). Run
 * from the sources (tests, `npm run dev`), it is bundled on first use with
 * esbuild into `node_modules/.cache`, since worker threads on Node 20 cannot
 * load TypeScript.
 */
async function workerEntry(): Promise<string> {
  for (const candidate of [
    './pglite-worker.mjs',
    './db/pglite-worker.mjs',
    '../db/pglite-worker.mjs',
  ]) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(file)) return file;
  }
  const source = fileURLToPath(new URL('./pglite-worker.ts', import.meta.url));
  if (!existsSync(source)) throw new Error('pglite-worker not found next to the server code');
  bundledWorker ??= (async () => {
    const { build } = await import('esbuild');
    const output = await build({
      entryPoints: [source],
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      logLevel: 'warning',
    });
    const code = output.outputFiles[0]!.text;
    const root = path.resolve(path.dirname(source), '..', '..');
    const cacheDir = path.join(root, 'node_modules', '.cache', 'cervana-workers');
    const file = path.join(
      cacheDir,
      `pglite-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`,
    );
    if (!existsSync(file)) {
      await mkdir(cacheDir, { recursive: true });
      const staged = `${file}.${process.pid}.tmp`;
      await writeFile(staged, code);
      await rename(staged, file);
    }
    return file;
  })();
  return bundledWorker;
}

let bundledWorker: Promise<string> | undefined;

function unavailable(reason: string): DatabaseError {
  return new DatabaseError(
    'The embedded database is restarting; try again in a moment.',
    '57P01',
    reason,
    undefined,
  );
}

const ERROR_CLASSES: Record<string, new (message: string) => Error> = {
  TypeError,
  RangeError,
  SyntaxError,
};

/** The worker's error as the engine threw it: a DatabaseError, a TypeError, or an Error. */
function fromWorkerError(error: WorkerError): Error {
  const converted = toDatabaseError(Object.assign(new Error(error.message), error));
  if (converted instanceof DatabaseError) return converted;
  const ErrorClass = ERROR_CLASSES[error.name];
  return ErrorClass ? new ErrorClass(error.message) : new Error(error.message);
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

type CallBody = WorkerCall extends infer Call
  ? Call extends WorkerCall
    ? Omit<Call, 'id'>
    : never
  : never;

class WorkerDatabase {
  readonly kind = 'pglite' as const;
  readonly statementTimeoutMs: number;
  private worker!: Worker;
  private generation = 0;
  private state: 'starting' | 'ready' | 'restarting' | 'closed' = 'starting';
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private lastPong = Date.now();
  private lastTick = Date.now();
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly dataDir: string,
    private readonly options: PGliteOptions,
    private readonly modules: { pglite: WebAssembly.Module; initdb: WebAssembly.Module },
  ) {
    this.statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    this.ticker = setInterval(() => this.tick(), PING_INTERVAL_MS);
    this.ticker.unref();
  }

  /** Starts a database thread; resolves once its database is open. */
  async start(): Promise<void> {
    const file = await workerEntry();
    const data: WorkerData = {
      dataDir: this.dataDir,
      options: {
        extensions: this.options.extensions ?? [],
        pgliteWasmModule: this.modules.pglite,
        initdbWasmModule: this.modules.initdb,
      },
    };
    const worker = new Worker(file, { workerData: data });
    this.worker = worker;
    const generation = this.generation;
    return new Promise<void>((resolve, reject) => {
      let isReady = false;
      worker.on('message', (message: WorkerMessage) => {
        if (generation !== this.generation) return;
        switch (message.kind) {
          case 'ready':
            isReady = true;
            this.lastPong = Date.now();
            this.state = 'ready';
            resolve();
            break;
          case 'failed':
            reject(fromWorkerError(message.error));
            break;
          case 'pong':
            this.lastPong = Date.now();
            break;
          case 'notify':
            for (const onNotify of this.listeners.get(message.channel) ?? [])
              onNotify(message.payload);
            break;
          case 'reply':
            this.settle(message);
            break;
        }
      });
      worker.on('error', (error) => {
        if (!isReady) reject(error);
        else if (generation === this.generation)
          this.restart(`the database thread failed: ${error.message}`);
      });
      worker.on('exit', (code) => {
        if (!isReady) reject(new Error(`the database thread exited (${code}) before opening`));
        else if (generation === this.generation && this.state === 'ready') {
          this.restart(`the database thread exited (${code})`);
        }
      });
    });
  }

  private settle(message: Extract<WorkerMessage, { kind: 'reply' }>): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (message.ok) {
      pending.resolve(message.value);
    } else if (message.error.broken) {
      pending.reject(unavailable(message.error.message));
      this.restart(message.error.message);
    } else {
      pending.reject(fromWorkerError(message.error));
    }
  }

  /** The watchdog: pings the thread and ends it when a statement keeps it from answering. */
  private tick(): void {
    const now = Date.now();
    const late = now - this.lastTick > PING_INTERVAL_MS * 4;
    this.lastTick = now;
    if (this.state !== 'ready') return;
    // After this thread itself was busy, the pongs may still be queued: judge next time.
    if (late) this.lastPong = now;
    if (
      this.statementTimeoutMs > 0 &&
      now - this.lastPong > this.statementTimeoutMs + WATCHDOG_GRACE_MS
    ) {
      this.restart(
        `a statement ran for more than ${this.statementTimeoutMs + WATCHDOG_GRACE_MS} ms (statement time-out ${this.statementTimeoutMs} ms)`,
      );
      return;
    }
    this.worker.postMessage({ op: 'ping' });
  }

  /** Ends the thread, fails what waited on it, and reopens the database from its folder. */
  private restart(reason: string): void {
    if (this.state === 'closed' || this.state === 'restarting') return;
    this.state = 'restarting';
    this.generation += 1;
    this.options.onRestart?.(reason);
    const failed = unavailable(reason);
    for (const pending of this.pending.values()) pending.reject(failed);
    this.pending.clear();
    void this.worker.terminate();
    const reopen = (attempt: number): void => {
      if (this.state === 'closed') return;
      this.start()
        .then(() => this.relisten())
        .catch((error: unknown) => {
          this.options.onRestart?.(`reopening failed: ${(error as Error).message}`);
          void this.worker.terminate();
          if (this.state === 'closed') return;
          this.generation += 1;
          this.state = 'restarting';
          setTimeout(() => reopen(attempt + 1), Math.min(5000, 250 * 2 ** attempt)).unref();
        });
    };
    reopen(0);
  }

  private async relisten(): Promise<void> {
    await Promise.all(
      [...this.listeners.keys()].map((channel) => this.call({ op: 'listen', channel })),
    );
  }

  call<T>(body: CallBody, generation = this.generation): Promise<T> {
    if (this.state === 'closed') return Promise.reject(new Error('the database is closed'));
    if (this.state !== 'ready' || generation !== this.generation) {
      return Promise.reject(unavailable('the database thread was restarted'));
    }
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...body, id });
    });
  }

  query<Row>(sql: string, params: unknown[] = []): Promise<QueryResult<Row>> {
    return this.call({ op: 'query', sql, params });
  }

  async exec(sql: string): Promise<void> {
    await this.call({ op: 'exec', sql });
  }

  pipeline(
    statements: readonly PipelinedStatement[],
  ): Promise<QueryResult<Record<string, unknown>>[]> {
    return this.call({ op: 'pipeline', statements });
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const generation = this.generation;
    const txId = this.nextId;
    // Not awaited: the first statement follows at once and waits in the thread
    // for the transaction to open (one round trip fewer). A failure to open
    // reaches the caller through that statement, or through the commit.
    this.call({ op: 'begin' }, generation).catch(() => undefined);
    const tx: Transaction = {
      query: <Row>(sql: string, params: unknown[] = []) =>
        this.call<QueryResult<Row>>({ op: 'query', txId, sql, params }, generation),
      exec: async (sql: string) => {
        await this.call({ op: 'exec', txId, sql }, generation);
      },
    };
    let result: T;
    try {
      result = await work(tx);
    } catch (error) {
      await this.call({ op: 'end', txId, commit: false }, generation).catch(() => undefined);
      throw error;
    }
    await this.call({ op: 'end', txId, commit: true }, generation);
    return result;
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    let callbacks = this.listeners.get(channel);
    if (!callbacks) {
      callbacks = new Set();
      this.listeners.set(channel, callbacks);
      await this.call({ op: 'listen', channel });
    }
    callbacks.add(onNotify);
    return async () => {
      callbacks.delete(onNotify);
      if (callbacks.size === 0 && this.listeners.get(channel) === callbacks) {
        this.listeners.delete(channel);
        await this.call({ op: 'unlisten', channel }).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    clearInterval(this.ticker);
    const wasReady = this.state === 'ready';
    if (wasReady) {
      const closing = this.call({ op: 'close' }).catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
      });
      await Promise.race([closing, timeout]);
      clearTimeout(timer);
    }
    this.state = 'closed';
    for (const pending of this.pending.values())
      pending.reject(new Error('the database is closed'));
    this.pending.clear();
    await this.worker.terminate();
  }
}

/** Opens (creating when empty) an embedded database in `dataDir`, or in memory for `memory://`. */
export async function openPGlite(dataDir: string, options: PGliteOptions = {}): Promise<Database> {
  for (const name of options.extensions ?? []) {
    if (!PGLITE_EXTENSIONS.includes(name)) {
      throw new Error(
        `PGlite cannot load the extension "${name}" (known: ${PGLITE_EXTENSIONS.join(', ')})`,
      );
    }
  }
  const database = new WorkerDatabase(dataDir, options, await wasmModules());
  try {
    await database.start();
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  return database;
}
