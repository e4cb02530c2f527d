/**
 * The embedded database's thread: it opens PGlite and answers the calls that
 * `pglite.ts` posts from the main thread. PGlite runs synchronously while a
 * statement executes, so here it can only ever stall this thread: the main
 * thread keeps serving HTTP and ends this one when it stops answering pings.
 */
import { parentPort } from 'node:worker_threads';
import type { Database, Transaction } from './database';
import { BrokenInstanceError, openPGliteEngine } from './pglite-engine';
import type { WorkerCall, WorkerError, WorkerMessage, WorkerOpen } from './pglite-protocol';

const port = parentPort!;
const post = (message: WorkerMessage) => port.postMessage(message);

function describeError(error: unknown): WorkerError {
  if (error instanceof BrokenInstanceError) {
    return { name: error.name, message: error.message, broken: true };
  }
  const fields = (error ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    name: text(fields.name) ?? 'Error',
    message: text(fields.message) ?? String(error),
    code: text(fields.code),
    detail: text(fields.detail),
    hint: text(fields.hint),
    constraint: text(fields.constraint),
  };
}

interface OpenTransaction {
  tx: Transaction;
  end(commit: boolean): void;
  settled: Promise<void>;
}

/**
 * Transactions by id, from the moment `begin` arrives: the caller sends its
 * first statement right behind `begin` without waiting for the answer, and
 * that statement waits here until the transaction is open.
 */
const transactions = new Map<number, Promise<OpenTransaction>>();
const listeners = new Map<string, () => Promise<void>>();

/** Opens a transaction whose statements arrive as later calls, and which a later call ends. */
function begin(db: Database, id: number): Promise<void> {
  const opening = new Promise<OpenTransaction>((opened, failedToOpen) => {
    let isOpen = false;
    const settled: Promise<void> = db
      .transaction(
        (tx) =>
          new Promise<void>((commit, rollback) => {
            isOpen = true;
            opened({
              tx,
              end: (shouldCommit) =>
                shouldCommit ? commit() : rollback(new Error('rolled back by the caller')),
              settled,
            });
          }),
      )
      .finally(() => transactions.delete(id));
    settled.catch((error: unknown) => {
      if (!isOpen) failedToOpen(error);
    });
  });
  transactions.set(id, opening);
  return opening.then(() => undefined);
}

async function openTransaction(txId: number): Promise<OpenTransaction> {
  const opening = transactions.get(txId);
  if (!opening) throw new Error(`no open transaction ${txId}`);
  return opening;
}

async function endTransaction(txId: number, commit: boolean): Promise<void> {
  const open = await openTransaction(txId);
  open.end(commit);
  try {
    await open.settled;
  } catch (error) {
    // A rollback the caller asked for is no error; anything else (a failed COMMIT) is.
    if (commit || error instanceof BrokenInstanceError) throw error;
  }
}

async function target(db: Database, txId: number | undefined): Promise<Transaction> {
  return txId === undefined ? db : (await openTransaction(txId)).tx;
}

async function answer(db: Database, call: WorkerCall): Promise<unknown> {
  switch (call.op) {
    case 'query':
      return (await target(db, call.txId)).query(call.sql, call.params);
    case 'exec':
      return (await target(db, call.txId)).exec(call.sql);
    case 'pipeline':
      return db.pipeline(call.statements);
    case 'begin':
      return begin(db, call.id);
    case 'end':
      return endTransaction(call.txId, call.commit);
    case 'listen':
      if (!listeners.has(call.channel)) {
        const unlisten = await db.listen(call.channel, (payload) =>
          post({ kind: 'notify', channel: call.channel, payload }),
        );
        listeners.set(call.channel, unlisten);
      }
      return undefined;
    case 'unlisten': {
      const unlisten = listeners.get(call.channel);
      listeners.delete(call.channel);
      await unlisten?.();
      return undefined;
    }
    case 'close':
      await db.close();
      return undefined;
  }
}

async function main(): Promise<void> {
  // The thread may start before the configuration is read (pglite-early.ts): it loads PGlite's
  // JavaScript, then waits to be told what to open, with the compiled WebAssembly.
  const open = await new Promise<WorkerOpen>((resolve) => port.once('message', resolve));
  let db: Database;
  try {
    db = await openPGliteEngine(open.dataDir, {
      extensions: open.extensions,
      pgliteWasmModule: open.pgliteWasmModule,
      initdbWasmModule: open.initdbWasmModule,
    });
  } catch (error) {
    post({ kind: 'failed', error: describeError(error) });
    return;
  }
  port.on('message', (call: WorkerCall | { op: 'ping' }) => {
    if (call.op === 'ping') {
      post({ kind: 'pong' });
      return;
    }
    answer(db, call).then(
      (value) => post({ kind: 'reply', id: call.id, ok: true, value }),
      (error: unknown) =>
        post({ kind: 'reply', id: call.id, ok: false, error: describeError(error) }),
    );
  });
  post({ kind: 'ready' });
}

void main();
