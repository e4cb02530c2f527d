import { AsyncLocalStorage } from 'node:async_hooks';
import { WebSocket as NodeWebSocket } from 'ws';
import type { Logger } from '../logger';
import type {
  DenoHttpServer,
  DenoServeHandler,
  DenoServeHandlerInfo,
  DenoServeOptions,
} from './deno-api';

/**
 * The process-wide half of the edge-functions runtime: what `Deno.serve` and
 * `Deno.env` (deno-shim.ts) reach, shared by every server in the process.
 *
 * - A function module is imported once per process. Imports run one at a
 *   time, so the `Deno.serve` call made while a module loads is that module's
 *   handler.
 * - `Deno.env` reads the values of the server that runs the function, through
 *   an AsyncLocalStorage context set around the import and around every
 *   invocation: two servers in one process each give their own URL and keys.
 * - An error that escapes a function's own promise chain (a throw in a timer,
 *   a rejected promise nobody awaits) is caught here by its context, logged
 *   and turned into that invocation's failure, instead of ending the process.
 */

/** Must equal RUNTIME_KEY in deno-shim.ts. */
const RUNTIME_KEY = Symbol.for('cervana.edge-functions.runtime');

/** What a function module registered: its handler and, optionally, Deno's onError. */
export interface ServedFunction {
  handler: DenoServeHandler;
  onError?: (error: unknown) => Response | Promise<Response>;
}

/** The context a function's code runs in: whose server, and (during a call) which invocation. */
export interface FunctionContext {
  functionName: string;
  /** The server's values for `Deno.env` (read when asked: the URL is known only once it listens). */
  env(): Readonly<Record<string, string>>;
  logger: Logger;
  /** During an invocation: fails it (an error escaped the handler's promise). */
  fail?(error: unknown): void;
}

interface Runtime {
  readonly storage: AsyncLocalStorage<FunctionContext>;
  /** Set while a module loads: receives its `Deno.serve`. */
  capturing: ((served: ServedFunction) => void) | undefined;
  /** Module loads, one after another. */
  queue: Promise<unknown>;
  /** Loaded (or loading) modules by URL: a module runs once per process. */
  readonly modules: Map<string, Promise<ServedFunction>>;
  crashGuard: boolean;
  serve(args: unknown[]): DenoHttpServer;
  env(): Readonly<Record<string, string>>;
}

/** A function could not be loaded: its module threw, or it never called `Deno.serve`. */
export class BootError extends Error {
  override name = 'BootError';
}

const NO_ENV: Readonly<Record<string, string>> = Object.freeze({});

function placeholderServer(): DenoHttpServer {
  return {
    // The server's own lifetime; a function's top level must not wait for it.
    finished: new Promise<void>(() => undefined),
    addr: { transport: 'tcp', hostname: '0.0.0.0', port: 0 },
    shutdown: async () => undefined,
    ref: () => undefined,
    unref: () => undefined,
  };
}

function servedFrom(args: unknown[]): ServedFunction {
  const [first, second] = args;
  if (typeof first === 'function') return { handler: first as DenoServeHandler };
  if (first !== null && typeof first === 'object') {
    const options = first as DenoServeOptions;
    const handler = typeof second === 'function' ? (second as DenoServeHandler) : options.handler;
    if (typeof handler === 'function') {
      return {
        handler,
        onError: typeof options.onError === 'function' ? options.onError : undefined,
      };
    }
  }
  throw new TypeError('Deno.serve needs a handler: Deno.serve((request) => new Response(...))');
}

function createRuntime(): Runtime {
  const runtime: Runtime = {
    storage: new AsyncLocalStorage<FunctionContext>(),
    capturing: undefined,
    queue: Promise.resolve(),
    modules: new Map(),
    crashGuard: false,
    serve(args) {
      const served = servedFrom(args);
      if (runtime.capturing) {
        runtime.capturing(served);
      } else {
        runtime.storage
          .getStore()
          ?.logger.warn(
            'Deno.serve was called after the function loaded: call it at the top level of index.ts',
          );
      }
      return placeholderServer();
    },
    env() {
      return runtime.storage.getStore()?.env() ?? NO_ENV;
    },
  };
  return runtime;
}

/** The process's runtime, made on first use and shared by every server (and every copy of this module). */
export function functionRuntime(): Runtime {
  const holder = globalThis as Record<symbol, Runtime | undefined>;
  holder[RUNTIME_KEY] ??= createRuntime();
  return holder[RUNTIME_KEY];
}

/**
 * Imports a function module once per process and returns what it serves:
 * the handler given to `Deno.serve`, or a default export with a `fetch`
 * method (`export default { fetch }`, which Supabase's runtime also accepts).
 * The import runs in `context`, so top-level `Deno.env` reads see the first
 * server that loads it (read them inside the handler, as Supabase advises).
 */
export function loadFunctionModule(
  url: string,
  context: FunctionContext,
  bootTimeoutMs: number,
): Promise<ServedFunction> {
  const runtime = functionRuntime();
  const known = runtime.modules.get(url);
  if (known) return known;
  const loading = runtime.queue.then(() => importCapturing(runtime, url, context, bootTimeoutMs));
  runtime.queue = loading.catch(() => undefined);
  runtime.modules.set(url, loading);
  return loading;
}

async function importCapturing(
  runtime: Runtime,
  url: string,
  context: FunctionContext,
  bootTimeoutMs: number,
): Promise<ServedFunction> {
  let timer: NodeJS.Timeout | undefined;
  const captured = new Promise<ServedFunction>((resolve) => {
    runtime.capturing = resolve;
  });
  try {
    const imported = runtime.storage.run(
      { ...context, fail: undefined },
      () => import(/* @vite-ignore */ url),
    ) as Promise<{ default?: unknown }>;
    const first = await Promise.race([
      captured.then((served) => ({ served })),
      // A module may keep running after Deno.serve (a top-level await): the handler counts from then on.
      imported.then(
        (module) => ({ module }),
        (error: unknown) => ({ error }),
      ),
      new Promise<{ timedOut: true }>((resolve) => {
        timer = setTimeout(() => resolve({ timedOut: true }), bootTimeoutMs);
      }),
    ]);
    if ('served' in first) return first.served;
    if ('error' in first) {
      throw new BootError(`${context.functionName} failed to load: ${describe(first.error)}`, {
        cause: first.error,
      });
    }
    if ('module' in first) {
      const fallback = first.module.default as { fetch?: unknown } | undefined;
      if (fallback && typeof fallback.fetch === 'function') {
        const fetchHandler = fallback.fetch.bind(fallback) as DenoServeHandler;
        return { handler: (request, info) => fetchHandler(request, info) };
      }
      throw new BootError(`${context.functionName} did not call Deno.serve(handler)`);
    }
    throw new BootError(
      `${context.functionName} did not call Deno.serve within ${bootTimeoutMs} ms of loading`,
    );
  } finally {
    clearTimeout(timer);
    runtime.capturing = undefined;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Calls a function's handler in its context; a synchronous throw becomes a rejection. */
export function runInContext(
  served: ServedFunction,
  context: FunctionContext,
  request: Request,
  info: DenoServeHandlerInfo,
): Promise<unknown> {
  return functionRuntime().storage.run(context, async () => {
    try {
      return await served.handler(request, info);
    } catch (error) {
      // Deno's onError: the function turns its own error into its response.
      if (served.onError) return served.onError(error);
      throw error;
    }
  });
}

/**
 * Keeps a function's stray errors from ending the process (installed once,
 * when a server has functions). Outside a function's context nothing
 * changes: with no other listener, an uncaught error still ends the process
 * as Node's default does; with others (a test runner), they decide.
 */
export function installCrashGuard(): void {
  const runtime = functionRuntime();
  if (runtime.crashGuard) return;
  runtime.crashGuard = true;
  const escaped = (error: unknown): boolean => {
    const context = runtime.storage.getStore();
    if (!context) return false;
    context.logger.error(
      { err: error, function: context.functionName },
      'an error escaped the function (a throw in a callback, or a rejected promise nobody awaited)',
    );
    context.fail?.(error);
    return true;
  };
  process.on('unhandledRejection', (reason) => {
    if (escaped(reason)) return;
    // Node's default (--unhandled-rejections=throw): the rejection becomes an uncaught exception.
    if (process.listenerCount('unhandledRejection') === 1) throw reason;
  });
  process.on('uncaughtException', (error) => {
    if (escaped(error)) return;
    if (process.listenerCount('uncaughtException') === 1) {
      console.error(error);
      process.exit(1);
    }
  });
}

/**
 * Node 20 has no global WebSocket (Node 22 and Deno do), and supabase-js's
 * realtime client refuses to be created without one, so `createClient()` in a
 * function would throw. Gives the process the `ws` implementation as
 * `WebSocket` when it has none (what the tests' clients pass as transport).
 */
export function provideWebSocketGlobal(): void {
  const holder = globalThis as { WebSocket?: unknown };
  if (holder.WebSocket !== undefined) return;
  Object.defineProperty(globalThis, 'WebSocket', {
    value: NodeWebSocket,
    writable: true,
    configurable: true,
  });
}
