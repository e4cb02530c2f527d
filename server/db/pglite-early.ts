import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The embedded database's thread, started as the process starts (decision 030): Node's own
 * modules only, so that the thread boots and the WebAssembly compiles while the rest of the
 * server loads. `pglite.ts` takes both when it opens the database.
 */

export interface CompiledPGlite {
  pglite: WebAssembly.Module;
  initdb: WebAssembly.Module;
}

const requireFromHere = createRequire(import.meta.url);
let compiled: Promise<CompiledPGlite> | undefined;

/** PGlite's WebAssembly, compiled once per process and shared by every database thread. */
export function compilePGlite(): Promise<CompiledPGlite> {
  compiled ??= (async () => {
    const dist = path.dirname(requireFromHere.resolve('@electric-sql/pglite'));
    const [pglite, initdb] = await Promise.all(
      ['pglite.wasm', 'initdb.wasm'].map(async (file) =>
        WebAssembly.compile(new Uint8Array(await readFile(path.join(dist, file)))),
      ),
    );
    return { pglite: pglite!, initdb: initdb! };
  })();
  compiled.catch(() => (compiled = undefined)); // the next opening tries again
  return compiled;
}

let early: { file: string; worker: Worker; failed: boolean } | undefined;

/**
 * Starts the database thread from the bundled worker `entry` and compiles the WebAssembly, unless
 * DATABASE_URL is set or there is no bundled worker (running from the sources). The thread does
 * nothing until it is told which folder to open.
 */
export function startDatabaseThreadEarly(entry: URL): void {
  if (process.env.DATABASE_URL?.trim()) return;
  const file = fileURLToPath(entry);
  if (!existsSync(file)) return;
  const worker = new Worker(file);
  const started = { file, worker, failed: false };
  const fail = () => (started.failed = true);
  worker.once('error', fail);
  worker.once('exit', fail);
  // Until it is taken, it must not keep the process alive (a configuration error exits).
  worker.unref();
  early = started;
  compilePGlite().catch(() => undefined); // reported by the opening, which tries again
}

/** The thread started early for `file`, once, if it is still alive; undefined otherwise. */
export function takeEarlyThread(file: string): Worker | undefined {
  const taken = early;
  early = undefined;
  if (!taken) return undefined;
  if (taken.failed || taken.file !== file) {
    void taken.worker.terminate();
    return undefined;
  }
  taken.worker.ref();
  return taken.worker;
}

/** Ends the early thread when the database turned out not to be PGlite. */
export function discardEarlyThread(): void {
  const taken = early;
  early = undefined;
  void taken?.worker.terminate();
}
