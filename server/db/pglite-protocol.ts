/** The messages between `pglite.ts` (main thread) and `pglite-worker.ts` (the database's thread). */
import type { PipelinedStatement } from './database';

/**
 * The first message to a new thread: what to open, with the compiled WebAssembly. A thread can
 * start before the configuration is read (`pglite-early.ts`), so none of it is in workerData.
 */
export interface WorkerOpen {
  op: 'open';
  dataDir: string;
  extensions: readonly string[];
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
}

export type WorkerCall =
  | { id: number; op: 'query'; txId?: number; sql: string; params: unknown[] }
  | { id: number; op: 'exec'; txId?: number; sql: string }
  | { id: number; op: 'pipeline'; statements: readonly PipelinedStatement[] }
  /** Opens a transaction; its id is this call's id. */
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; txId: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; channel: string }
  | { id: number; op: 'close' };

export interface WorkerError {
  name: string;
  message: string;
  code?: string | undefined;
  detail?: string | undefined;
  hint?: string | undefined;
  constraint?: string | undefined;
  /** The instance failed to recover from an error and must not be used again. */
  broken?: boolean;
}

export type WorkerMessage =
  | { kind: 'ready' }
  | { kind: 'failed'; error: WorkerError }
  | { kind: 'pong' }
  | { kind: 'notify'; channel: string; payload: string }
  | { kind: 'reply'; id: number; ok: true; value: unknown }
  | { kind: 'reply'; id: number; ok: false; error: WorkerError };
