import { Hono, type Context } from 'hono';
import type { Database } from '../db/database';
import { DatabaseError } from '../db/database';
import type { KeyRing } from '../keys/key-ring';
import type { Logger } from '../logger';
import { isAuthenticatedRequest, prepareRequest, type RestDependencies } from './context';
import { RestError, fromDatabaseError, restErrors } from './errors';
import { ExplainResult } from './explain';
import { callRoutine } from './handlers/call';
import { readRelation } from './handlers/read';
import { deleteRows, insertRows, updateRows } from './handlers/write';
import { errorResponse } from './response';
import { loadSchemaCache, type SchemaCache } from './schema-cache';
import type { TrustProxy } from '../http/client-ip';

/**
 * The PostgREST-compatible data API (`/rest/v1`, contract §6): tables and
 * views, and functions under /rpc. Row-level security in SQL decides what
 * each caller may read or change; this layer only turns HTTP into SQL.
 */

export interface RestService {
  routes: Hono;
  /** Reloads the schema cache now (after migrations; also on NOTIFY pgrst). */
  /** Listens for `NOTIFY pgrst`, then loads the schema cache in the background. */
  start(): Promise<void>;
  reloadSchema(): Promise<void>;
  stop(): Promise<void>;
}

export interface RestOptions {
  db: Database;
  ring: KeyRing;
  logger: Logger;
  schemas: string[];
  /** Whether `X-Forwarded-For` names the caller (see `clientIp`). */
  trustProxy: TrustProxy;
}

export function createRestService(options: RestOptions): RestService {
  const logger = options.logger.child({ component: 'rest' });
  let cache: Promise<SchemaCache> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let listening: Promise<void> | undefined;

  const load = () => {
    const loading = loadSchemaCache(options.db, options.schemas, logger);
    loading.catch((error: unknown) => {
      logger.error({ err: error }, 'could not load the schema cache');
      if (cache === loading) cache = undefined;
    });
    return loading;
  };

  // LISTEN before the first load, so a `NOTIFY pgrst` sent once the server is up
  // (or while the cache loads) is never lost: it reloads whatever was loaded.
  const listen = (): Promise<void> => {
    listening ??= options.db
      .listen(
        'pgrst',
        (payload) => {
          // The in-database settings load with the schema cache: either notice reloads both.
          if (payload === '' || payload === 'reload schema' || payload === 'reload config') {
            logger.info({ payload }, 'schema cache and settings reload requested');
            cache = load();
          }
        },
        {
          onReconnect: () => {
            logger.info('listening for schema reloads again: reloading the schema cache');
            cache = load();
          },
        },
      )
      .then(
        (stop) => {
          unlisten = stop;
        },
        (error: unknown) => {
          // Tried again by the next data request.
          listening = undefined;
          logger.warn({ err: error }, 'cannot listen for schema reloads');
        },
      );
    return listening;
  };

  const deps: RestDependencies = {
    db: options.db,
    ring: options.ring,
    logger,
    schemas: options.schemas,
    trustProxy: options.trustProxy,
    schemaCache: () => {
      void listen();
      cache ??= load();
      return cache;
    },
  };

  const handle =
    (work: (c: Context) => Promise<Response>) =>
    async (c: Context): Promise<Response> => {
      try {
        return await work(c);
      } catch (error) {
        if (error instanceof ExplainResult) {
          return new Response(c.req.method === 'HEAD' ? null : error.body, {
            status: 200,
            headers: { 'Content-Type': error.contentType },
          });
        }
        if (error instanceof RestError) return errorResponse(c, error);
        if (error instanceof DatabaseError) {
          return errorResponse(c, fromDatabaseError(error, isAuthenticatedRequest(c.req.raw)));
        }
        logger.error(
          { err: error, method: c.req.method, path: c.req.path },
          'rest: unexpected failure',
        );
        return errorResponse(c, new RestError(500, 'PGRSTX00', 'Internal server error'));
      }
    };

  const routes = new Hono();
  // Hono has decoded the path parameters once already (decoding again would turn
  // `%2541` into `A` and throw on a lone `%`).
  const table = (c: Context) => c.req.param('table') ?? '';
  const fn = (c: Context) => c.req.param('fn') ?? '';

  routes.on(
    ['GET', 'HEAD', 'POST'],
    '/rpc/:fn',
    handle(async (c) => callRoutine(await prepareRequest(c, deps), fn(c))),
  );
  routes.all(
    '/rpc/:fn',
    handle(async (c) => {
      throw restErrors.invalidRpcMethod(c.req.method);
    }),
  );
  routes.on(
    ['GET', 'HEAD'],
    '/:table',
    handle(async (c) => readRelation(await prepareRequest(c, deps), table(c))),
  );
  routes.post(
    '/:table',
    handle(async (c) => insertRows(await prepareRequest(c, deps), table(c))),
  );
  routes.patch(
    '/:table',
    handle(async (c) => updateRows(await prepareRequest(c, deps), table(c))),
  );
  routes.delete(
    '/:table',
    handle(async (c) => deleteRows(await prepareRequest(c, deps), table(c))),
  );
  routes.all(
    '/:table',
    handle(async (c) => {
      throw restErrors.unsupportedMethod(c.req.method);
    }),
  );
  routes.all(
    '*',
    handle(async () => {
      throw restErrors.invalidPath();
    }),
  );

  return {
    routes,
    async start() {
      await listen();
      cache = load();
      // Loads in the background; the first data request waits for it if needed.
      cache.catch(() => undefined);
    },
    async reloadSchema() {
      cache = load();
      await cache;
    },
    async stop() {
      await unlisten?.().catch(() => undefined);
    },
  };
}
