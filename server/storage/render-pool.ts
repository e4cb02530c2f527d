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
/** The render process could not be started, or ended during the render. */
export class RenderFailedError extends Error {
  override name = 'RenderFailedError';
}

export interface RenderPoolOptions {
  concurrency: number;
  queue: number;
  timeoutMs: number;
  logger: Logger;
  /** How long an idle render process lives. */
  idleMs?: number;
  /** The Node.js binary of the render processes (`process.execPath`); the tests point it elsewhere. */
  execPath?: string;
  /** The worker module (`render-worker.mjs`, found beside the server code); the tests give their own. */
  workerFile?: string;
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
/** The longest a caller waits in `release()` for a killed process to be gone (it takes milliseconds). */
const RELEASE_WAIT_MS = 2000;
const NICE = 10;

/**
 * What a render process may see of the server's environment: nothing secret
 * (no DATABASE_URL, JWT secrets or S3 keys next to native decoders of
 * untrusted bytes), only what Node.js, sharp and libvips read: the search
 * path, temporary directory and locale, glibc's arena count (sharp sets it
 * when unset), sharp's choice of libvips and libvips' own settings (`VIPS_*`).
 */
const WORKER_ENV = new Set([
  'PATH',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'MALLOC_ARENA_MAX',
  'LD_LIBRARY_PATH',
  'SHARP_IGNORE_GLOBAL_LIBVIPS',
  'SHARP_FORCE_GLOBAL_LIBVIPS',
  'SYSTEMROOT',
]);

export function workerEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    const upper = name.toUpperCase();
    if (value !== undefined && (WORKER_ENV.has(upper) || upper.startsWith('VIPS_'))) {
      kept[name] = value;
    }
  }
  return kept;
}

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

const CRASHED: WorkerMessage = {
  id: -1,
  ok: false,
  reason: 'crashed',
  message: 'the render process ended',
};

/**
 * One render process: started, then given one job at a time. It is gone
 * (`exited` settles, once) at its 'exit', at its 'close', or at once when it
 * never started: a process that fails to spawn (ENOENT, EAGAIN, EMFILE,
 * EACCES) has no pid and emits 'error' and 'close' but never 'exit'.
 */
class RenderProcess {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;
  private pending: Map<number, (message: WorkerMessage) => void> = new Map();
  private alive = true;
  private startError: Error | undefined;

  constructor(file: string, options: Pick<RenderPoolOptions, 'execPath' | 'logger'>) {
    const { logger } = options;
    renderPoolStats.processesStarted += 1;
    this.child = fork(file, [], {
      serialization: 'advanced',
      execArgv: ['--max-old-space-size=128'],
      ...(options.execPath ? { execPath: options.execPath } : {}),
      env: workerEnv(),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    this.child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    let settle!: () => void;
    this.exited = new Promise((resolve) => (settle = resolve));
    const gone = () => {
      if (!this.alive) return;
      this.alive = false;
      for (const reply of this.pending.values()) reply(CRASHED);
      this.pending.clear();
      settle();
    };
    this.child.once('exit', (code, signal) => {
      if (code !== 0 && signal !== 'SIGKILL') {
        logger.warn({ code, signal, stderr }, 'storage: an image render process failed');
      }
      gone();
    });
    this.child.once('close', gone);
    this.child.on('error', (error) => {
      if (this.child.pid === undefined) {
        this.startError = error;
        logger.error({ err: error }, 'storage: an image render process could not be started');
        gone();
      } else {
        // A signal or message that could not be delivered; 'exit' tells when it is gone.
        logger.warn({ err: error }, 'storage: an image render process misbehaved');
      }
    });
    // Not started at all: its 'error' comes on the next tick, and no 'exit' ever.
    if (this.child.pid === undefined) gone();

    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error('the image render process did not start'));
        this.kill();
      }, START_TIMEOUT_MS);
      timer.unref();
      this.child.once('message', (message: WorkerMessage) => {
        clearTimeout(timer);
        if ('ready' in message) resolve();
        else reject(new Error('the image render process said something else first'));
      });
      void this.exited.then(() => {
        clearTimeout(timer);
        // The spawn error comes a tick after the pid is found missing.
        setImmediate(() => {
          const cause = this.startError?.message ?? stderr.slice(0, 500);
          reject(new Error(`the image render process ended at start: ${cause}`));
        });
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

  get pid(): number | undefined {
    return this.alive ? this.child.pid : undefined;
  }

  private nextId = 0;
  run(job: RenderJob, timeoutSeconds: number): Promise<WorkerMessage> {
    if (!this.alive) return Promise.resolve(CRASHED);
    const id = (this.nextId += 1);
    renderPoolStats.rendersStarted += 1;
    return new Promise((resolve) => {
      const reply = (message: WorkerMessage) => {
        this.pending.delete(id);
        resolve(message);
      };
      this.pending.set(id, reply);
      this.child.send({ id, job: { ...job, timeoutSeconds } }, (error) => {
        if (error) reply(CRASHED);
      });
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
    if (this.alive && this.child.pid !== undefined) this.child.kill('SIGKILL');
  }
}

interface Waiter {
  resolve(slot: RenderSlot): void;
  reject(error: Error): void;
}

export interface RenderSlot {
  /**
   * Renders in this slot's process, by `deadline` (a time in ms; by default
   * the pool's time limit from now), which covers starting the process too.
   */
  render(job: RenderJob, signal?: AbortSignal, deadline?: number): Promise<RenderResult>;
  /**
   * Frees the slot once its process (if killed) has exited. Idempotent, and
   * resolves within a couple of seconds whatever happens: should a killed
   * process take longer to go, the slot stays taken until it has.
   */
  release(): Promise<void>;
}

export class RenderPool {
  private readonly processes: (RenderProcess | undefined)[];
  private readonly busy: boolean[];
  private readonly idleTimers: (NodeJS.Timeout | undefined)[];
  private readonly waiting: Waiter[] = [];
  /** Every process not yet gone, in a slot or not (being killed when idle, say). */
  private readonly live = new Set<RenderProcess>();
  private closed = false;
  private file: string | undefined;

  constructor(private readonly options: RenderPoolOptions) {
    this.processes = Array.from({ length: options.concurrency }, () => undefined);
    this.busy = Array.from({ length: options.concurrency }, () => false);
    this.idleTimers = Array.from({ length: options.concurrency }, () => undefined);
  }

  /** The process ids of the render processes still running (the tests read them). */
  get processIds(): number[] {
    return [...this.live].flatMap((worker) => (worker.pid === undefined ? [] : [worker.pid]));
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

  /** Stops every render process (renders in flight end with RenderBusyError) and refuses whoever waits. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) {
      waiter.reject(new RenderBusyError('the server is stopping'));
    }
    this.idleTimers.forEach((timer) => clearTimeout(timer));
    const exits: Promise<void>[] = [];
    for (const worker of this.live) {
      worker.kill();
      exits.push(worker.exited);
    }
    await Promise.all(exits);
  }

  private take(index: number): RenderSlot {
    this.busy[index] = true;
    clearTimeout(this.idleTimers[index]);
    let releasing: Promise<void> | undefined;
    let dying: Promise<void> | undefined;
    const stopping = () => new RenderBusyError('the server is stopping');
    return {
      render: async (job, signal, deadline = Date.now() + this.options.timeoutMs) => {
        if (this.closed) throw stopping();
        if (releasing) throw new Error('this render slot was released');
        if (signal?.aborted) throw new RenderAbortedError('the client left');
        if (deadline <= Date.now()) throw new RenderTimeoutError('the render took too long');
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
        // One deadline for starting the process and rendering.
        let timer: NodeJS.Timeout | undefined;
        const expired = new Promise<'deadline'>((resolve) => {
          timer = setTimeout(() => resolve('deadline'), Math.max(0, deadline - Date.now()));
        });
        try {
          const ready = worker.ready.then(
            () => 'ready' as const,
            (error: unknown) => {
              // A process that failed to start frees the slot once it is gone.
              dying = worker.exited;
              worker.kill();
              if (this.closed) throw stopping();
              throw new RenderFailedError(error instanceof Error ? error.message : String(error));
            },
          );
          ready.catch(() => {});
          const started = await Promise.race([ready, aborted, expired]);
          if (started === 'abort') {
            stop('abort');
            throw new RenderAbortedError('the client left');
          }
          if (started === 'deadline') {
            // The process goes on starting (within its own limit) for the
            // slot's next render; this one gives up its slot in time.
            throw new RenderBusyError('the render process did not start in time');
          }
          const timeoutSeconds = Math.max(1, Math.ceil((deadline - Date.now()) / 1000));
          const outcome = await Promise.race([worker.run(job, timeoutSeconds), expired, aborted]);
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
              worker.kill();
              if (this.closed) throw stopping();
              throw new RenderFailedError('the image render process ended during a render');
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
      release: () => {
        if (!releasing) {
          if (dying) {
            // A killed process frees its slot once it is gone (milliseconds).
            releasing = dying.then(() => this.free(index));
          } else {
            this.free(index);
            releasing = Promise.resolve();
          }
        }
        let timer: NodeJS.Timeout | undefined;
        const enough = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, RELEASE_WAIT_MS);
          timer.unref();
        });
        return Promise.race([releasing, enough]).finally(() => clearTimeout(timer));
      },
    };
  }

  private processFor(index: number): RenderProcess {
    if (this.closed) throw new RenderBusyError('the server is stopping');
    const current = this.processes[index];
    if (current?.usable) return current;
    this.file ??= this.options.workerFile ?? workerFile();
    const worker = new RenderProcess(this.file, this.options);
    this.processes[index] = worker;
    if (worker.usable) {
      this.live.add(worker);
      void worker.exited.then(() => this.live.delete(worker));
    }
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
    if (worker?.usable && !this.closed) {
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
