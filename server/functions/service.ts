import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { decodeProtectedHeader } from 'jose';
import type { FunctionsConfig } from '../config';
import { clientIp, type TrustProxy } from '../http/client-ip';
import { isHttpsRequest } from '../http/security-headers';
import type { KeyRing } from '../keys/key-ring';
import type { Logger } from '../logger';
import { FUNCTION_NAME_PATTERN } from './bundle-function.mjs';
import type { DenoServeHandlerInfo } from './deno-api';
import { readFunctionSettings, DEFAULT_FUNCTION_SETTINGS } from './function-config';
import { createFunctionLoader, discoverFunctions, type FunctionLoader } from './loader';
import { relayErrors } from './relay-errors';
import { functionRequestBody, type FunctionRequestBody } from './request-body';
import {
  installCrashGuard,
  provideWebSocketGlobal,
  runInContext,
  type FunctionContext,
  type ServedFunction,
} from './runtime';

/**
 * `/functions/v1/<name>[/<path>]`: Supabase's edge-functions gateway, with the
 * functions running in this process (decision 017).
 *
 * Before a function runs, the gateway: refuses a name that is not a known
 * function (404), a method Supabase does not route (405), a call without a
 * valid JWT of this project when the function's `verify_jwt` is on (401; never
 * for OPTIONS, which the function answers itself, CORS included), and a body
 * larger than FUNCTIONS_MAX_BODY_BYTES (413). The function then gets a web
 * `Request` for `<origin>/<name>[/<path>][?query]` (the path it sees on
 * Supabase) with the caller's headers, `x-forwarded-for` set to the caller's
 * address as TRUST_PROXY decides it, the body as a stream, and a signal that
 * aborts when the caller leaves, the call times out or the server stops.
 * Its `Response` goes back as it is (status, headers, streamed body), except
 * `Set-Cookie` (dropped, as Supabase's relay does: functions share the site's
 * origin) and `x-relay-error`, which only the gateway's own failures carry.
 */

const ROUTED_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
];
/** Request headers the gateway sets itself: whatever the caller wrote there is dropped. */
const FORWARDING = ['x-forwarded-for', 'x-forwarded-proto', 'x-real-ip', 'forwarded'];
const JWT_ALGORITHMS = new Set(['HS256', 'ES256', 'RS256']);

export interface FunctionsDependencies {
  config: FunctionsConfig;
  /** The public API URL (API_URL): what SUPABASE_URL is inside a function, as on Supabase. */
  apiUrl: string;
  ring: KeyRing;
  anonKey: string;
  serviceRoleKey: string;
  logger: Logger;
  trustProxy: TrustProxy;
}

export interface FunctionsService {
  routes: Hono;
  /** The functions served, by name. */
  names: string[];
  /** Tells the runtime the URL the server listens on (SUPABASE_URL when API_URL names port 0). */
  listening(url: string): void;
  /**
   * Refuses new calls (503) and waits for those in flight, at most `timeoutMs`;
   * then aborts the signals of any still running. The server keeps serving
   * meanwhile, so a function finishing its work can still reach the API.
   */
  drain(timeoutMs: number): Promise<void>;
}

type Outcome =
  | { kind: 'response'; response: Response }
  | { kind: 'threw'; error: unknown }
  | { kind: 'invalid'; value: unknown }
  | { kind: 'timeout' };

interface Invocation {
  abort: AbortController;
}

export async function createFunctions(deps: FunctionsDependencies): Promise<FunctionsService> {
  const { config, logger } = deps;
  const [entries, settings] = await Promise.all([
    discoverFunctions(config.dir),
    readFunctionSettings(config.configFile),
  ]);
  const loaders = new Map<string, FunctionLoader>();
  for (const [name, entry] of entries) {
    if ((settings.get(name) ?? DEFAULT_FUNCTION_SETTINGS).enabled) {
      loaders.set(name, createFunctionLoader(entry));
    }
  }
  if (loaders.size > 0) {
    installCrashGuard();
    provideWebSocketGlobal();
  }

  let listeningUrl: string | undefined;
  let env: Readonly<Record<string, string>> | undefined;
  const environment = (): Readonly<Record<string, string>> => {
    if (env) return env;
    // API_URL is the public URL; only when it names port 0 (a test's PORT=0) is the real one needed.
    const needsListeningUrl = new URL(deps.apiUrl).port === '0';
    const values = Object.freeze({
      SUPABASE_URL: needsListeningUrl ? (listeningUrl ?? deps.apiUrl) : deps.apiUrl,
      SUPABASE_ANON_KEY: deps.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: deps.serviceRoleKey,
    });
    if (!needsListeningUrl || listeningUrl) env = values;
    return values;
  };
  if (loaders.size > 0) logger.debug({ functions: [...loaders.keys()] }, 'edge functions found');

  const inFlight = new Set<Invocation>();
  let draining = false;
  let onIdle: (() => void) | undefined;

  const handle = async (c: Context): Promise<Response> => {
    const url = new URL(c.req.url);
    const rest = url.pathname.slice('/functions/v1'.length);
    const match = /^\/([^/]*)(\/.*)?$/.exec(rest);
    const name = match?.[1] ?? '';
    const loader = FUNCTION_NAME_PATTERN.test(name) ? loaders.get(name) : undefined;
    if (!loader) return relayErrors.notFound();
    const method = c.req.method.toUpperCase();
    if (!ROUTED_METHODS.has(method)) return relayErrors.methodNotAllowed();
    if (method !== 'OPTIONS' && (settings.get(name) ?? DEFAULT_FUNCTION_SETTINGS).verifyJwt) {
      const refused = await refuseJwt(c.req.header('authorization'), deps.ring);
      if (refused) return refused;
    }
    const declared = c.req.header('content-length');
    if (declared !== undefined && /^\d+$/.test(declared.trim())) {
      if (Number(declared) > config.maxBodyBytes)
        return relayErrors.payloadTooLarge(config.maxBodyBytes);
    }
    if (draining) return relayErrors.shuttingDown();

    const context: FunctionContext = { functionName: name, env: environment, logger };
    let served: ServedFunction;
    try {
      served = await loader.served(context);
    } catch (error) {
      logger.error({ err: error, function: name }, 'the function could not be loaded');
      return relayErrors.bootError();
    }

    const invocation: Invocation = { abort: new AbortController() };
    inFlight.add(invocation);
    let bodyTooLarge = false;
    const body = functionRequestBody(c, config.maxBodyBytes, () => {
      bodyTooLarge = true;
    });
    let outcome: Outcome | undefined;
    let request: Request | undefined;
    try {
      request = functionRequest(c, url, name, match?.[2] ?? '', body, {
        signal: AbortSignal.any([c.req.raw.signal, invocation.abort.signal]),
        trustProxy: deps.trustProxy,
      });
      const info: DenoServeHandlerInfo = {
        remoteAddr: {
          transport: 'tcp',
          hostname: clientIp(c, deps.trustProxy),
          port: remotePort(c),
        },
      };
      outcome = await invoke(served, context, request, info, config.timeoutMs, invocation);
      if (bodyTooLarge) {
        if (outcome.kind === 'response')
          void outcome.response.body?.cancel().catch(() => undefined);
        return relayErrors.payloadTooLarge(config.maxBodyBytes);
      }
      switch (outcome.kind) {
        case 'response':
          return passThrough(outcome.response);
        case 'timeout':
          logger.warn(
            { function: name, timeoutMs: config.timeoutMs },
            'the function did not respond in time',
          );
          return relayErrors.timeout(config.timeoutMs);
        case 'invalid':
          logger.error(
            { function: name, returned: describeValue(outcome.value) },
            'the function returned something other than a Response',
          );
          return relayErrors.workerError();
        case 'threw':
          logger.error({ err: outcome.error, function: name }, 'the function threw');
          return relayErrors.workerError();
      }
    } finally {
      // A body the function left unread (or was cut short on) is left to the server to discard.
      if (outcome?.kind !== 'response' || bodyTooLarge || !request?.bodyUsed) body.release();
      inFlight.delete(invocation);
      if (inFlight.size === 0) onIdle?.();
    }
  };

  const routes = new Hono();
  routes.all('/', handle);
  routes.all('/*', handle);

  return {
    routes,
    names: [...loaders.keys()],
    listening(url) {
      listeningUrl = url;
    },
    async drain(timeoutMs) {
      draining = true;
      if (inFlight.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => {
          onIdle = resolve;
        }),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      if (inFlight.size > 0) {
        logger.warn(
          { running: inFlight.size },
          'shutdown timeout: aborting the functions still running',
        );
        for (const invocation of inFlight)
          invocation.abort.abort(new Error('the server is stopping'));
      }
    },
  };
}

/** The gateway's verdict on a bearer token when verify_jwt is on: undefined lets the call through. */
async function refuseJwt(header: string | undefined, ring: KeyRing): Promise<Response | undefined> {
  if (header === undefined || header.trim() === '') return relayErrors.missingAuthorization();
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (!token || token.split('.').length !== 3) {
    return relayErrors.invalidJwt('UNAUTHORIZED_INVALID_JWT_FORMAT');
  }
  let algorithm: unknown;
  try {
    algorithm = decodeProtectedHeader(token).alg;
  } catch {
    return relayErrors.invalidJwt('UNAUTHORIZED_INVALID_JWT_FORMAT');
  }
  if (typeof algorithm !== 'string' || !JWT_ALGORITHMS.has(algorithm)) {
    return relayErrors.invalidJwt('UNAUTHORIZED_UNSUPPORTED_TOKEN_ALGORITHM');
  }
  try {
    await ring.verify(token);
    return undefined;
  } catch {
    return relayErrors.invalidJwt(
      algorithm === 'HS256' ? 'UNAUTHORIZED_LEGACY_JWT' : 'UNAUTHORIZED_ASYMMETRIC_JWT',
    );
  }
}

function remotePort(c: Context): number {
  try {
    return getConnInfo(c).remote.port ?? 0;
  } catch {
    return 0;
  }
}

/** The request the function sees: its own path, the caller's headers, the gateway's forwarding headers. */
function functionRequest(
  c: Context,
  url: URL,
  name: string,
  subPath: string,
  body: FunctionRequestBody,
  options: { signal: AbortSignal; trustProxy: TrustProxy },
): Request {
  const headers = new Headers(c.req.raw.headers);
  for (const header of [...HOP_BY_HOP, ...FORWARDING]) headers.delete(header);
  // The caller's address, never what it claims (unless a trusted proxy said so).
  headers.set('x-forwarded-for', clientIp(c, options.trustProxy));
  headers.set('x-forwarded-proto', isHttpsRequest(c, options.trustProxy) ? 'https' : 'http');
  return new Request(`${url.origin}/${name}${subPath}${url.search}`, {
    method: c.req.method.toUpperCase(),
    headers,
    body: body.stream,
    signal: options.signal,
    // A streamed request body (Node's fetch requires saying so).
    ...(body.stream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * Runs the handler against the timeout and against errors escaping it. A
 * promise that never settles ends as a timeout; a response that arrives
 * after one is cancelled.
 */
function invoke(
  served: ServedFunction,
  base: FunctionContext,
  request: Request,
  info: DenoServeHandlerInfo,
  timeoutMs: number,
  invocation: Invocation,
): Promise<Outcome> {
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) {
        if (outcome.kind === 'response')
          void outcome.response.body?.cancel().catch(() => undefined);
        return;
      }
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      invocation.abort.abort(new DOMException('The function timed out', 'TimeoutError'));
      settle({ kind: 'timeout' });
    }, timeoutMs);
    const context: FunctionContext = {
      ...base,
      fail: (error) => settle({ kind: 'threw', error }),
    };
    runInContext(served, context, request, info).then(
      (value) =>
        settle(
          isResponse(value) ? { kind: 'response', response: value } : { kind: 'invalid', value },
        ),
      (error: unknown) => settle({ kind: 'threw', error }),
    );
  });
}

/**
 * A web Response, whichever implementation made it: @hono/node-server swaps
 * the global Response for its own subclass, and `fetch()` returns Node's.
 */
function isResponse(value: unknown): value is Response {
  return (
    value instanceof Response ||
    (typeof value === 'object' &&
      value !== null &&
      Object.prototype.toString.call(value) === '[object Response]')
  );
}

/** The function's response as it is, in a Response the server's middleware may add headers to. */
function passThrough(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const header of [...HOP_BY_HOP, 'set-cookie', 'x-relay-error']) headers.delete(header);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return value.constructor?.name ?? 'object';
  return typeof value;
}
