import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../logger';

/**
 * Image renders run in child processes, at most `concurrency` at once (one
 * process per slot, started on first use, ended after a minute idle). A
 * process, unlike a libvips thread, can be stopped: at the render's deadline,
 * or when the client goes away, it is killed, and its slot is free again once
 * it has exited, so no abandoned render keeps using CPU or memory. Callers
 * wait for a slot in a short queue; when that is full, or the wait would
 * outlast a render's time limit, the pool refuses at once (`RenderBusyError`).
 */

export interface RenderJob {
  input: Uint8Array;
  /** What sharp must find in the bytes: png, jpeg, webp, gif or heif (AV1, i.e. AVIF). */
  format: 'png' | 'jpeg' | 'webp' | 'gif' | 'heif';
  maxPixels: number;
  maxSide: number;
  width?: number;
  height?: number;
  fit: 'cover' | 'inside' | 'fill';
  quality: number;
  output?: 'avif' | 'webp';
}

export interface RenderResult {
  data: Uint8Array;
  format: string;
  width: number;
  height: number;
}

/** sharp refused the image: not the format it claims, too many pixels, or broken. */
export class RenderRefusedError extends Error {
  override name = 'RenderRefusedError';
  constructor(
    readonly reason: 'format' | 'pixels' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}
/** Every slot is taken and the queue is full (or the wait ran out). */
export class RenderBusyError extends Error {
  override name = 'RenderBusyError';
}
export class RenderTimeoutError extends Error {
  override name = 'RenderTimeoutError';
}
export class RenderAbortedError extends Error {
  override name = 'RenderAbortedError';
}

export interface RenderPoolOptions {
  concurrency: number;
  queue: number;
  timeoutMs: number;
  logger: Logger;
  /** How long an idle render process lives. */
  idleMs?: number;
}

/** What the pools of this process have done (the tests read it). */
export const renderPoolStats = {
  processesStarted: 0,
  /** Jobs handed to a render process. */
  rendersStarted: 0,
  killedAtDeadline: 0,
  killedOnAbort: 0,
};

const START_TIMEOUT_MS = 15_000;
const NICE = 10;

/** The worker module: beside this file in the sources, under `storage/` beside the bundled entry. */
function workerFile(): string {
  const candidates = [
    './render-worker.mjs',
    './storage/render-worker.mjs',
    '../storage/render-worker.mjs',
  ];
  for (const candidate of candidates) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(file)) return file;
  }
  throw new Error('render-worker.mjs not found next to the server code');
}

type WorkerMessage =
  | { ready: true }
  | { id: number; ok: true; data: Uint8Array; format: string; width: number; height: number }
  | {
      id: number;
      ok: false;
      reason: RenderRefusedError['reason'] | 'crashed';
      message: string;
    };

/** One render process: started, then given one job at a time. */
class RenderProcess {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;
  private pending: Map<number, (message: WorkerMessage) => void> = new Map();
  private alive = true;

  constructor(file: string, logger: Logger) {
    renderPoolStats.processesStarted += 1;
    this.child = fork(file, [], {
      serialization: 'advanced',
      execArgv: ['--max-old-space-size=128'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    this.child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.alive = false;
        if (code !== 0 && signal !== 'SIGKILL') {
          logger.warn({ code, signal, stderr }, 'storage: an image render process failed');
        }
        for (const settle of this.pending.values()) {
          settle({ id: -1, ok: false, reason: 'crashed', message: 'the render process ended' });
        }
        this.pending.clear();
        resolve();
      });
    });
    this.child.on('error', () => {
      // 'exit' follows (or the process never started: kill() below ends it).
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error('the image render process did not start'));
        this.kill();
      }, START_TIMEOUT_MS);
      this.child.once('message', (message: WorkerMessage) => {
        clearTimeout(timer);
        if ('ready' in message) resolve();
        else reject(new Error('the image render process said something else first'));
      });
      void this.exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the image render process ended at start: ${stderr.slice(0, 500)}`));
      });
    });
    this.ready.catch(() => {});
    this.child.on('message', (message: WorkerMessage) => {
      if ('id' in message) this.pending.get(message.id)?.(message);
    });
    if (this.child.pid !== undefined) {
      try {
        // Renders yield the CPU to requests (as the password threads do).
        setPriority(this.child.pid, NICE);
      } catch {
        // Not permitted here: the process runs at normal priority.
      }
    }
  }

  get usable(): boolean {
    return this.alive;
  }

  private nextId = 0;
  run(job: RenderJob, timeoutSeconds: number): Promise<WorkerMessage> {
    const id = (this.nextId += 1);
    renderPoolStats.rendersStarted += 1;
    return new Promise((resolve) => {
      this.pending.set(id, (message) => {
        this.pending.delete(id);
        resolve(message);
      });
      this.child.send({ id, job: { ...job, timeoutSeconds } });
    });
  }

  /** Keeps (or stops keeping) the server's event loop alive while idle. */
  hold(busy: boolean): void {
    const channel = this.child.channel as { ref?(): void; unref?(): void } | undefined;
    if (busy) {
      this.child.ref();
      channel?.ref?.();
    } else {
      this.child.unref();
      channel?.unref?.();
    }
  }

  kill(): void {
    if (this.alive) this.child.kill('SIGKILL');
  }
}

interface Waiter {
  resolve(slot: RenderSlot): void;
  reject(error: Error): void;
}

export interface RenderSlot {
  /** Renders in this slot's process; the deadline counts from the moment the process has the job. */
  render(job: RenderJob, signal?: AbortSignal): Promise<RenderResult>;
  /** Frees the slot, once its process (if killed) has exited. Idempotent. */
  release(): Promise<void>;
}

export class RenderPool {
  private readonly processes: (RenderProcess | undefined)[];
  private readonly busy: boolean[];
  private readonly idleTimers: (NodeJS.Timeout | undefined)[];
  private readonly waiting: Waiter[] = [];
  private closed = false;
  private file: string | undefined;

  constructor(private readonly options: RenderPoolOptions) {
    this.processes = Array.from({ length: options.concurrency }, () => undefined);
    this.busy = Array.from({ length: options.concurrency }, () => false);
    this.idleTimers = Array.from({ length: options.concurrency }, () => undefined);
  }

  /**
   * A free slot: at once, or after waiting in the queue (at most the render
   * time limit). Refused with RenderBusyError when the queue is full or the
   * wait runs out, with RenderAbortedError when the client leaves meanwhile.
   */
  acquire(signal?: AbortSignal): Promise<RenderSlot> {
    if (this.closed) return Promise.reject(new RenderBusyError('the server is stopping'));
    if (signal?.aborted) return Promise.reject(new RenderAbortedError('the client left'));
    const free = this.busy.indexOf(false);
    if (free !== -1) return Promise.resolve(this.take(free));
    if (this.waiting.length >= this.options.queue) {
      return Promise.reject(new RenderBusyError('every render slot is taken'));
    }
    return new Promise<RenderSlot>((resolve, reject) => {
      const leave = (error: Error) => {
        const index = this.waiting.indexOf(waiter);
        if (index !== -1) this.waiting.splice(index, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      const onAbort = () => leave(new RenderAbortedError('the client left'));
      const timer = setTimeout(
        () => leave(new RenderBusyError('no render slot came free in time')),
        this.options.timeoutMs,
      );
      timer.unref();
      const waiter: Waiter = {
        resolve: (slot) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(slot);
        },
        reject: leave,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Stops every render process and refuses whoever waits. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) {
      waiter.reject(new RenderBusyError('the server is stopping'));
    }
    const exits: Promise<void>[] = [];
    this.processes.forEach((worker, index) => {
      clearTimeout(this.idleTimers[index]);
      if (worker) {
        worker.kill();
        exits.push(worker.exited);
      }
    });
    await Promise.all(exits);
  }

  private take(index: number): RenderSlot {
    this.busy[index] = true;
    clearTimeout(this.idleTimers[index]);
    let released = false;
    let dying: Promise<void> | undefined;
    return {
      render: async (job, signal) => {
        if (signal?.aborted) throw new RenderAbortedError('the client left');
        const worker = this.processFor(index);
        worker.hold(true);
        const stop = (reason: 'deadline' | 'abort') => {
          if (reason === 'deadline') renderPoolStats.killedAtDeadline += 1;
          else renderPoolStats.killedOnAbort += 1;
          dying = worker.exited;
          worker.kill();
        };
        let onAbort: (() => void) | undefined;
        const aborted = new Promise<'abort'>((resolve) => {
          onAbort = () => resolve('abort');
          signal?.addEventListener('abort', onAbort, { once: true });
        });
        let timer: NodeJS.Timeout | undefined;
        try {
          const ready = worker.ready.then(
            () => 'ready' as const,
            (error: unknown) => {
              // A process that failed to start frees the slot once it is gone.
              dying = worker.exited;
              worker.kill();
              throw error;
            },
          );
          const started = await Promise.race([ready, aborted]);
          if (started === 'abort') {
            stop('abort');
            throw new RenderAbortedError('the client left');
          }
          const deadline = new Promise<'deadline'>((resolve) => {
            timer = setTimeout(() => resolve('deadline'), this.options.timeoutMs);
          });
          const timeoutSeconds = Math.max(1, Math.ceil(this.options.timeoutMs / 1000));
          const outcome = await Promise.race([worker.run(job, timeoutSeconds), deadline, aborted]);
          if (outcome === 'deadline' || outcome === 'abort') {
            stop(outcome);
            throw outcome === 'deadline'
              ? new RenderTimeoutError('the render took too long')
              : new RenderAbortedError('the client left');
          }
          if ('ready' in outcome) throw new Error('unexpected message from the render process');
          if (!outcome.ok) {
            if (outcome.reason === 'crashed') {
              dying = worker.exited;
              throw new Error('the image render process ended during a render');
            }
            throw new RenderRefusedError(outcome.reason, outcome.message);
          }
          return {
            data: outcome.data,
            format: outcome.format,
            width: outcome.width,
            height: outcome.height,
          };
        } finally {
          clearTimeout(timer);
          if (onAbort) signal?.removeEventListener('abort', onAbort);
        }
      },
      release: async () => {
        if (released) return;
        released = true;
        // A killed process frees its slot once it is gone (milliseconds).
        if (dying) await dying;
        this.free(index);
      },
    };
  }

  private processFor(index: number): RenderProcess {
    const current = this.processes[index];
    if (current?.usable) return current;
    this.file ??= workerFile();
    const worker = new RenderProcess(this.file, this.options.logger);
    this.processes[index] = worker;
    return worker;
  }

  private free(index: number): void {
    const worker = this.processes[index];
    if (worker && !worker.usable) this.processes[index] = undefined;
    const next = this.waiting.shift();
    if (next && !this.closed) {
      next.resolve(this.take(index));
      return;
    }
    this.busy[index] = false;
    if (worker?.usable) {
      worker.hold(false);
      const timer = setTimeout(() => {
        if (!this.busy[index] && this.processes[index] === worker) {
          this.processes[index] = undefined;
          worker.kill();
        }
      }, this.options.idleMs ?? 60_000);
      timer.unref();
      this.idleTimers[index] = timer;
    }
  }
}
