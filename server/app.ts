import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { createAuthRoutes } from './auth/routes';
import type { Config } from './config';
import type { Database } from './db/database';
import { supabaseCors } from './http/cors';
import { HttpError, errorResponse } from './http/errors';
import { securityHeaders } from './http/security-headers';
import type { StaticSite } from './http/static-site';
import type { Keys } from './keys/load-keys';
import type { Logger } from './logger';
import type { RestService } from './rest/routes';

export interface AppDependencies {
  config: Config;
  db: Database;
  keys: Keys;
  logger: Logger;
  site: StaticSite;
  rest: RestService;
  /** `/storage/v1` (server/storage/routes.ts). */
  storage: Hono;
  /** `/realtime/v1`'s REST API (server/realtime/routes.ts); the websocket is on the HTTP server's upgrade. */
  realtime: Hono;
  /**
   * `/functions/v1` (server/functions/service.ts). Outside API_MOUNTS: a function answers its own
   * CORS preflight and headers, as on Supabase; the gateway's own errors carry `*`.
   */
  functions?: Hono;
  /** Server start time, for /health. */
  startedAt?: number;
  /**
   * Where the process is in its life, for /health and /health/ready: ready once it listens
   * (migrations and keys are loaded before), draining from the stop signal on.
   */
  lifecycle?: { isListening(): boolean; isDraining(): boolean };
}

/** How long /health waits for the database before answering 503. */
const HEALTH_TIMEOUT_MS = 2000;

export const API_MOUNTS = ['/auth/v1', '/rest/v1', '/storage/v1', '/realtime/v1'] as const;

export function createApp(dependencies: AppDependencies): Hono {
  const { config, db, keys, logger, site } = dependencies;
  const startedAt = dependencies.startedAt ?? Date.now();
  const app = new Hono();

  const requestLog: MiddlewareHandler = async (c, next) => {
    const started = performance.now();
    await next();
    const path = c.req.path;
    const isQuiet = path === '/health' || path === '/health/ready' || path.startsWith('/assets/');
    logger[isQuiet ? 'debug' : 'info'](
      {
        method: c.req.method,
        path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  };
  const security = securityHeaders({
    apiUrl: config.apiUrl,
    schedulerUrl: config.scheduler.url,
    schedulerScriptUrl: config.scheduler.scriptUrl,
    trustProxy: config.trustProxy,
    scriptHashes: site.scriptHashes,
  });
  app.use('*', requestLog);
  app.use('*', security);

  const lifecycle = dependencies.lifecycle ?? { isListening: () => true, isDraining: () => false };
  const noStore = { 'Cache-Control': 'no-store' };

  // Readiness, for a load balancer or an orchestrator: send traffic here or not. 503 until the
  // server listens and from the stop signal on; no database ping (that is /health's).
  app.get('/health/ready', (c) => {
    if (lifecycle.isDraining()) return c.json({ status: 'draining' }, 503, noStore);
    if (!lifecycle.isListening()) return c.json({ status: 'starting' }, 503, noStore);
    return c.json({ status: 'ready' }, 200, noStore);
  });

  // Liveness: the process answers and its database too. Draining, it says so at once, so a
  // health-checking load balancer moves on before the process goes.
  app.get('/health', async (c) => {
    if (lifecycle.isDraining()) {
      return c.json({ status: 'draining', database: { kind: db.kind } }, 503, noStore);
    }
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      // A database busy with a long statement answers late: /health answers in time regardless.
      await Promise.race([
        db.query('select 1'),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${HEALTH_TIMEOUT_MS} ms`)),
            HEALTH_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      logger.error({ err: error }, 'health check: database unreachable');
      return c.json({ status: 'unavailable', database: { kind: db.kind, ok: false } }, 503, {
        'Cache-Control': 'no-store',
      });
    } finally {
      clearTimeout(timer);
    }
    return c.json(
      {
        status: 'ok',
        database: {
          kind: db.kind,
          ok: true,
          latencyMs: Math.round((performance.now() - started) * 100) / 100,
        },
        site: { built: site.isBuilt },
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      },
      200,
      { 'Cache-Control': 'no-store' },
    );
  });

  app.get('/config.json', (c) =>
    c.json(
      {
        url: config.apiUrl,
        anonKey: keys.anonKey,
        scheduler: { url: config.scheduler.url, scriptUrl: config.scheduler.scriptUrl },
      },
      200,
      { 'Cache-Control': 'no-cache' },
    ),
  );

  for (const mount of API_MOUNTS) app.use(`${mount}/*`, supabaseCors());
  app.route(
    '/auth/v1',
    createAuthRoutes({
      db,
      ring: keys.ring,
      config: config.auth,
      logger,
      trustProxy: config.trustProxy,
    }),
  );
  app.route('/rest/v1', dependencies.rest.routes);
  app.route('/storage/v1', dependencies.storage);
  app.route('/realtime/v1', dependencies.realtime);
  if (dependencies.functions) app.route('/functions/v1', dependencies.functions);

  app.get('*', (c) => site.handle(c));

  app.notFound((c) =>
    errorResponse(c, new HttpError(404, 'not_found', `No route for ${c.req.method} ${c.req.path}`)),
  );

  const onError = (error: Error, c: Context) => {
    if (error instanceof HttpError) return errorResponse(c, error);
    logger.error({ err: error, method: c.req.method, path: c.req.path }, 'unhandled error');
    return errorResponse(c, new HttpError(500, 'internal_error', 'Internal server error'));
  };
  app.onError(onError);

  // The data API's lighter path (decision 032): a request under /rest/v1/ goes to an app that
  // holds only the data API's routes, behind the same request log, security headers and CORS,
  // instead of being matched against every route of the server. What it answers is the same.
  const restOnly = new Hono();
  restOnly.use('*', requestLog);
  restOnly.use('*', security);
  restOnly.use('/rest/v1/*', supabaseCors());
  restOnly.route('/rest/v1', dependencies.rest.routes);
  restOnly.notFound((c) =>
    errorResponse(c, new HttpError(404, 'not_found', `No route for ${c.req.method} ${c.req.path}`)),
  );
  restOnly.onError(onError);
  const general = app.fetch;
  app.fetch = (request, env, executionCtx) =>
    isRestRequest(request.url)
      ? restOnly.fetch(request, env, executionCtx)
      : general(request, env, executionCtx);

  return app;
}

/** Whether the URL's path starts with `/rest/v1/` as sent (no percent-decoding needed). */
function isRestRequest(url: string): boolean {
  const scheme = url.indexOf('://');
  if (scheme === -1) return false;
  const path = url.indexOf('/', scheme + 3);
  return path !== -1 && url.startsWith('/rest/v1/', path);
}
