/**
 * The part of Deno's API an edge function may use on Cervana's server: exactly
 * what `deno-shim.ts` implements, and what `deno-global.d.ts` declares to the
 * function sources, so a function that typechecks here runs here. Anything
 * else Deno offers (files, subprocesses, KV…) is absent on purpose: functions
 * are web-standard code (`Request`, `Response`, `fetch`, Web Crypto) plus
 * `Deno.serve` and `Deno.env`.
 */

/** Where a request came from (Deno's `Deno.NetAddr`). */
export interface DenoNetAddr {
  transport: 'tcp';
  /** The caller's address, as the server's TRUST_PROXY setting decides it. */
  hostname: string;
  port: number;
}

/** The second argument of a handler (Deno's `Deno.ServeHandlerInfo`). */
export interface DenoServeHandlerInfo {
  remoteAddr: DenoNetAddr;
}

export type DenoServeHandler = (
  request: Request,
  info: DenoServeHandlerInfo,
) => Response | Promise<Response>;

/**
 * `Deno.serve`'s options. Only `handler` and `onError` mean anything here: the
 * server's own port serves every function, so `port`, `hostname`, `signal`
 * and `onListen` are accepted and ignored (as on Supabase's hosted runtime).
 */
export interface DenoServeOptions {
  handler?: DenoServeHandler;
  /** Turns an error the handler threw into the function's own response. */
  onError?: (error: unknown) => Response | Promise<Response>;
  port?: number;
  hostname?: string;
  signal?: AbortSignal;
  onListen?: (localAddr: DenoNetAddr) => void;
}

/** What `Deno.serve` returns (Deno's `Deno.HttpServer`, reduced). */
export interface DenoHttpServer {
  /** Settles when the server stops; never awaited by a function's top level on Supabase either. */
  readonly finished: Promise<void>;
  readonly addr: DenoNetAddr;
  shutdown(): Promise<void>;
  ref(): void;
  unref(): void;
}

export interface DenoEnv {
  /** The value, or undefined: `SUPABASE_URL`, `SUPABASE_ANON_KEY`, `SUPABASE_SERVICE_ROLE_KEY`. */
  get(key: string): string | undefined;
  has(key: string): boolean;
  toObject(): Record<string, string>;
}

export interface DenoApi {
  serve(handler: DenoServeHandler): DenoHttpServer;
  serve(options: DenoServeOptions & { handler: DenoServeHandler }): DenoHttpServer;
  serve(options: DenoServeOptions, handler: DenoServeHandler): DenoHttpServer;
  readonly env: DenoEnv;
}
