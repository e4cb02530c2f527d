import type { DenoApi, DenoEnv, DenoHttpServer } from './deno-api';

/**
 * The `Deno` a function sees. esbuild's `inject` (bundle-function.mjs) turns
 * every free `Deno` in a function's source into an import of this binding, so
 * no global `Deno` exists in the server's process (libraries that sniff for
 * Deno, hono and supabase-js among them, keep seeing Node). Each call is
 * forwarded to the runtime the server installed (runtime.ts), found under a
 * process-wide symbol: a function bundle carries its own copy of this file.
 */

/** Must equal RUNTIME_KEY in runtime.ts. */
const RUNTIME_KEY = Symbol.for('cervana.edge-functions.runtime');

interface RuntimeBridge {
  serve(args: unknown[]): DenoHttpServer;
  env(): Readonly<Record<string, string>>;
}

function bridge(): RuntimeBridge {
  const runtime = (globalThis as Record<symbol, RuntimeBridge | undefined>)[RUNTIME_KEY];
  if (!runtime)
    throw new Error('Deno is only available inside a function run by the Cervana server');
  return runtime;
}

const env: DenoEnv = {
  get: (key) => bridge().env()[String(key)],
  has: (key) => Object.hasOwn(bridge().env(), String(key)),
  toObject: () => ({ ...bridge().env() }),
};

export const Deno: DenoApi = {
  serve: ((...args: unknown[]) => bridge().serve(args)) as DenoApi['serve'],
  env,
};
