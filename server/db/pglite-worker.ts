/**
 * The embedded database's thread: it opens PGlite and answers the calls that
 * `pglite.ts` posts from the main thread. PGlite runs synchronously while a
 * statement executes, so here it can only ever stall this thread: the main
 * thread keeps serving HTTP and ends this one when it stops answering pings.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Database, Transaction } from './database';
import { BrokenInstanceError, openPGliteEngine } from './pglite-engine';
import type { WorkerCall, WorkerData, WorkerError, WorkerMessage } from './pglite-protocol';

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

const transactions = new Map<number, OpenTransaction>();
const listeners = new Map<string, () => Promise<void>>();

/** Opens a transaction whose statements arrive as later calls, and which a later call ends. */
function begin(db: Database, id: number): Promise<void> {
  return new Promise<void>((opened, failedToOpen) => {
    let isOpen = false;
    const settled = db
      .transaction(
        (tx) =>
          new Promise<void>((commit, rollback) => {
            isOpen = true;
            transactions.set(id, {
              tx,
              end: (shouldCommit) =>
                shouldCommit ? commit() : rollback(new Error('rolled back by the caller')),
              settled,
            });
            opened();
          }),
      )
      .finally(() => transactions.delete(id));
    settled.catch((error: unknown) => {
      if (!isOpen) failedToOpen(error);
    });
  });
}

async function endTransaction(txId: number, commit: boolean): Promise<void> {
  const open = transactions.get(txId);
  if (!open) throw new Error(`no open transaction ${txId}`);
  open.end(commit);
  try {
    await open.settled;
  } catch (error) {
    // A rollback the caller asked for is no error; anything else (a failed COMMIT) is.
    if (commit || error instanceof BrokenInstanceError) throw error;
  }
}

function target(db: Database, txId: number | undefined): Transaction {
  if (txId === undefined) return db;
  const open = transactions.get(txId);
  if (!open) throw new Error(`no open transaction ${txId}`);
  return open.tx;
}

async function answer(db: Database, call: WorkerCall): Promise<unknown> {
  switch (call.op) {
    case 'query':
      return target(db, call.txId).query(call.sql, call.params);
    case 'exec':
      return target(db, call.txId).exec(call.sql);
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
  const data = workerData as WorkerData;
  let db: Database;
  try {
    db = await openPGliteEngine(data.dataDir, data.options);
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
