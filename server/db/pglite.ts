import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  DatabaseError,
  toDatabaseError,
  type Database,
  type ListenOptions,
  type PipelinedStatement,
  type QueryResult,
  type Transaction,
} from './database';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from './request-context';
import { compilePGlite, takeEarlyThread, type CompiledPGlite } from './pglite-early';
import { PGLITE_EXTENSIONS } from './pglite-engine';
import type { WorkerCall, WorkerError, WorkerMessage, WorkerOpen } from './pglite-protocol';

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
  /**
   * Told once the database's thread has what it needs to open the database (which it then
   * does on its own core): the moment to start other work without slowing the opening down.
   */
  onThreadStart?: () => void;
}

/** How much longer than the statement time-out the watchdog waits. */
export const WATCHDOG_GRACE_MS = 2000;
const PING_INTERVAL_MS = 250;
/** How long closing waits for the thread to close its database (it may be stuck). */
const CLOSE_TIMEOUT_MS = 1000;
/** How long opening (or reopening) the database may take before the thread is replaced. */
const OPEN_TIMEOUT_MS = 60_000;
/** The watchdog's limit while a script (a migration, the seed: many statements in one call) runs. */
const SCRIPT_TIMEOUT_MS = 10 * 60_000;

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
  op: WorkerCall['op'];
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
  private worker: Worker | undefined;
  /** Bumped whenever the thread is replaced or closed: what an older thread says is ignored. */
  private generation = 0;
  private state: 'starting' | 'ready' | 'restarting' | 'closed' = 'starting';
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<
    string,
    {
      callbacks: Set<(payload: string) => void>;
      reconnects: Set<() => void>;
      listening: Promise<unknown>;
    }
  >();
  /** When the thread last said anything: a pong, a reply or a notification. */
  private lastHeard = Date.now();
  private lastTick = Date.now();
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly dataDir: string,
    private readonly options: PGliteOptions,
    private readonly modules: Promise<CompiledPGlite>,
  ) {
    this.statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    this.ticker = setInterval(() => this.tick(), PING_INTERVAL_MS);
    this.ticker.unref();
  }

  /** Starts a database thread for the current generation; resolves once its database is open. */
  async start(): Promise<void> {
    const file = await workerEntry();
    const generation = this.generation;
    if (this.state === 'closed') throw new Error('the database is closed');
    // The thread started as the process started, the first time (pglite-early.ts).
    const worker = takeEarlyThread(file) ?? new Worker(file);
    this.worker = worker;
    const isCurrent = () => generation === this.generation && this.state !== 'closed';
    let openTimer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        let isReady = false;
        openTimer = setTimeout(
          () => reject(new Error(`the database did not open within ${OPEN_TIMEOUT_MS} ms`)),
          OPEN_TIMEOUT_MS,
        );
        this.modules.then(
          (modules) => {
            const open: WorkerOpen = {
              op: 'open',
              dataDir: this.dataDir,
              extensions: this.options.extensions ?? [],
              pgliteWasmModule: modules.pglite,
              initdbWasmModule: modules.initdb,
            };
            worker.postMessage(open);
            // Only now: the modules reach the thread without waiting for this one.
            this.options.onThreadStart?.();
          },
          (error: unknown) => reject(error as Error),
        );
        worker.on('message', (message: WorkerMessage) => {
          if (!isCurrent()) return;
          this.lastHeard = Date.now();
          switch (message.kind) {
            case 'ready':
              isReady = true;
              this.state = 'ready';
              resolve();
              break;
            case 'failed':
              reject(fromWorkerError(message.error));
              break;
            case 'pong':
              break;
            case 'notify':
              for (const onNotify of this.listeners.get(message.channel)?.callbacks ?? []) {
                onNotify(message.payload);
              }
              break;
            case 'reply':
              this.settle(message);
              break;
          }
        });
        worker.on('error', (error) => {
          if (!isReady) reject(error);
          else if (isCurrent()) this.restart(`the database thread failed: ${error.message}`);
        });
        worker.on('exit', (code) => {
          if (!isReady) reject(new Error(`the database thread exited (${code}) before opening`));
          else if (isCurrent() && this.state === 'ready') {
            this.restart(`the database thread exited (${code})`);
          }
        });
      });
    } catch (error) {
      await worker.terminate();
      throw error;
    } finally {
      clearTimeout(openTimer);
    }
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

  /**
   * The watchdog. PGlite holds its thread only while a statement executes, so
   * a thread that has said nothing (no reply, no pong) for the time-out plus
   * the grace is stuck on one statement. Scripts (migrations, the seed) are
   * many statements in one call and get SCRIPT_TIMEOUT_MS.
   */
  private tick(): void {
    const now = Date.now();
    const late = now - this.lastTick > PING_INTERVAL_MS * 4;
    this.lastTick = now;
    if (this.state !== 'ready' || !this.worker) return;
    // After this thread itself was busy, the pongs may still be queued: judge next time.
    if (late) this.lastHeard = now;
    const isScript = [...this.pending.values()].some((pending) => pending.op === 'exec');
    const limit = isScript
      ? Math.max(SCRIPT_TIMEOUT_MS, this.statementTimeoutMs)
      : this.statementTimeoutMs + WATCHDOG_GRACE_MS;
    if (this.statementTimeoutMs > 0 && now - this.lastHeard > limit) {
      this.restart(
        `${isScript ? 'a script' : 'a statement'} ran for more than ${limit} ms (statement time-out ${this.statementTimeoutMs} ms)`,
      );
      return;
    }
    this.worker.postMessage({ op: 'ping' });
  }

  /** Ends the thread, fails what waited on it, and reopens the database from its folder. */
  private restart(reason: string): void {
    if (this.state !== 'ready') return;
    this.state = 'restarting';
    this.generation += 1;
    this.options.onRestart?.(reason);
    const failed = unavailable(reason);
    for (const pending of this.pending.values()) pending.reject(failed);
    this.pending.clear();
    void this.worker?.terminate();
    this.worker = undefined;
    const reopen = (attempt: number): void => {
      if (this.state !== 'restarting') return;
      const generation = this.generation;
      this.start()
        .then(() => this.relisten())
        .catch((error: unknown) => {
          // Only the newest attempt decides what happens next.
          if (generation !== this.generation || this.state === 'closed') return;
          this.options.onRestart?.(`reopening failed: ${(error as Error).message}`);
          if (this.state === 'ready') {
            // Open, but listening failed: a thread that cannot LISTEN is replaced too.
            this.restart('listening again after a restart failed');
            return;
          }
          this.generation += 1;
          setTimeout(() => reopen(attempt + 1), Math.min(5000, 250 * 2 ** attempt)).unref();
        });
    };
    reopen(0);
  }

  private async relisten(): Promise<void> {
    await Promise.all(
      [...this.listeners.keys()].map((channel) => this.call({ op: 'listen', channel })),
    );
    // A notice of a transaction that committed as the old thread failed may be lost.
    for (const entry of this.listeners.values()) {
      for (const onReconnect of entry.reconnects) onReconnect();
    }
  }

  /** Posts one call to the current thread; it fails at once while the thread is being replaced. */
  call<T>(body: CallBody, generation = this.generation, id = this.nextId++): Promise<T> {
    if (this.state === 'closed') return Promise.reject(new Error('the database is closed'));
    if (this.state !== 'ready' || generation !== this.generation || !this.worker) {
      return Promise.reject(unavailable('the database thread was restarted'));
    }
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { op: body.op, resolve: resolve as (value: unknown) => void, reject });
      try {
        this.worker!.postMessage({ ...body, id });
      } catch (error) {
        // A parameter that cannot be copied to the thread (a function, say).
        this.pending.delete(id);
        reject(error as Error);
      }
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
    const txId = this.nextId++;
    // Not awaited: the first statement follows at once and waits in the thread
    // for the transaction to open (one round trip fewer). A failure to open
    // reaches the caller through that statement, or through the commit.
    const opening = this.call({ op: 'begin' }, generation, txId);
    opening.catch(() => undefined);
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

  async listen(
    channel: string,
    onNotify: (payload: string) => void,
    options?: ListenOptions,
  ): Promise<() => Promise<void>> {
    let entry = this.listeners.get(channel);
    if (!entry) {
      const listening = this.call({ op: 'listen', channel });
      entry = { callbacks: new Set(), reconnects: new Set(), listening };
      this.listeners.set(channel, entry);
    }
    const current = entry;
    try {
      await current.listening;
    } catch (error) {
      // A LISTEN that failed is tried again by the next caller, not assumed active.
      if (this.listeners.get(channel) === current) this.listeners.delete(channel);
      throw error;
    }
    current.callbacks.add(onNotify);
    const onReconnect = options?.onReconnect;
    if (onReconnect) current.reconnects.add(onReconnect);
    return async () => {
      current.callbacks.delete(onNotify);
      if (onReconnect) current.reconnects.delete(onReconnect);
      if (current.callbacks.size === 0 && this.listeners.get(channel) === current) {
        this.listeners.delete(channel);
        await this.call({ op: 'unlisten', channel }).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    clearInterval(this.ticker);
    const worker = this.worker;
    if (this.state === 'ready') {
      const closing = this.call({ op: 'close' }).catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
      });
      await Promise.race([closing, timeout]);
      clearTimeout(timer);
    }
    this.state = 'closed';
    this.generation += 1;
    for (const pending of this.pending.values()) {
      pending.reject(new Error('the database is closed'));
    }
    this.pending.clear();
    this.worker = undefined;
    await worker?.terminate();
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
  // Compiled while the thread starts: it gets the modules first thing (`WorkerOpen`).
  const modules = compilePGlite();
  modules.catch(() => undefined); // a failure to compile fails the opening, below
  const database = new WorkerDatabase(dataDir, options, modules);
  try {
    await database.start();
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  return database;
}
