import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import { isAppRoute } from '../src/config/paths';
import { createApp } from './app';
import { pruneRateLimits } from './auth/rate-limits';
import { ensureSampleRecordings } from './calls/sample-recordings';
import type { Config } from './config';
import type { Database } from './db/database';
import { createFunctions } from './functions/service';
import { trackConnections } from './http/drain';
import { createStaticSite, type StaticSite } from './http/static-site';
import type { Keys } from './keys/load-keys';
import type { Logger } from './logger';
import { startEmbeddedVacuum } from './db/embedded-vacuum';
import { startMailSender } from './mail/sender';
import { startRealtime } from './realtime/service';
import { createRestService } from './rest/routes';
import { createStorageRoutes } from './storage/routes';

/** The only place that opens a port. */

export interface ServerDependencies {
  config: Config;
  db: Database;
  keys: Keys;
  logger: Logger;
  /** The built site's index, when the caller started it already (`loadStaticSite`). */
  site?: Promise<StaticSite>;
  /** Work that must be done before the port opens, done meanwhile (the start fails with it). */
  beforeListening?: Promise<unknown>;
}

export interface RunningServer {
  /** Base URL the server answers on, e.g. http://127.0.0.1:3000. */
  url: string;
  port: number;
  /** Makes the mail sender look for due messages now (it also polls and listens). */
  wakeMailSender(): void;
  /** Reloads /rest/v1's schema cache (after DDL, as NOTIFY pgrst does). */
  reloadSchema(): Promise<void>;
  /**
   * Drains (decision 029): stops accepting, answers every request already sent, closes
   * websockets (1001) and idle connections, all within the shutdown timeout. `complete` is
   * false when the timeout cut connections short.
   */
  close(): Promise<{ complete: boolean }>;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/**
 * Indexes the built site (files, hashes of its inline scripts). It needs no database: the
 * process entry starts it while the database opens and hands it to `startServer`.
 */
export async function loadStaticSite(
  config: Pick<Config, 'siteDir' | 'siteUrl'>,
  logger: Logger,
): Promise<StaticSite> {
  const site = await createStaticSite({
    siteDir: config.siteDir,
    isRoute: isAppRoute,
    siteUrl: config.siteUrl,
  });
  if (!site.isBuilt) logger.warn(`no built site in ${config.siteDir}: run \`npm run build\``);
  return site;
}

export async function startServer(dependencies: ServerDependencies): Promise<RunningServer> {
  const { config, logger } = dependencies;
  // What needs no database (the site's index, storage's folders, the edge functions' list)
  // loads together.
  const siteLoading = dependencies.site ?? loadStaticSite(config, logger);
  const storageOpening = createStorageRoutes({
    db: dependencies.db,
    ring: dependencies.keys.ring,
    config: config.storage,
    logger,
    trustProxy: config.trustProxy,
  });
  const functionsLoading = createFunctions({
    config: config.functions,
    apiUrl: config.apiUrl,
    ring: dependencies.keys.ring,
    anonKey: dependencies.keys.anonKey,
    serviceRoleKey: dependencies.keys.serviceRoleKey,
    logger,
    trustProxy: config.trustProxy,
  });
  const rest = createRestService({
    db: dependencies.db,
    ring: dependencies.keys.ring,
    logger,
    schemas: config.restSchemas,
    trustProxy: config.trustProxy,
  });
  // LISTENs to `pgrst` now, loads the schema cache in the background (a data request waits).
  await rest.start();
  // Starts in the background (decision 030): sockets and broadcasts arriving before it has
  // started wait for it.
  const realtime = startRealtime({
    db: dependencies.db,
    ring: dependencies.keys.ring,
    config: config.realtime,
    logger,
  });
  const [site, storage, functions] = await Promise.all([
    siteLoading,
    storageOpening,
    functionsLoading,
  ]);
  let isListening = false;
  const app = createApp({
    ...dependencies,
    lifecycle: {
      isListening: () => isListening,
      // `drain` is made with the server below, before any request can arrive.
      isDraining: () => drain.isDraining(),
    },
    site,
    rest,
    storage: storage.routes,
    realtime: realtime.routes,
    functions: functions.routes,
  });
  const { headersTimeoutMs, idleTimeoutMs, maxConnections, drainIdleGraceMs } = config.http;
  const server = createAdaptorServer({
    fetch: app.fetch,
    serverOptions: {
      // A client that trickles its headers (slowloris) is cut off once this passes…
      headersTimeout: headersTimeoutMs,
      // …checked this often (Node's default is every 30 s).
      connectionsCheckingInterval: Math.min(1000, headersTimeoutMs),
      // No deadline for a whole request: a 500 MB upload on a slow link may take long,
      // so long as bytes keep moving (the idle timeout below).
      requestTimeout: 0,
    },
  }) as Server;
  const drain = trackConnections(server, { idleGraceMs: drainIdleGraceMs });
  // No bytes either way for this long, mid-request or between keep-alive requests: closed.
  server.timeout = idleTimeoutMs;
  server.keepAliveTimeout = idleTimeoutMs;
  server.maxConnections = maxConnections;
  let lastDropWarning = 0;
  server.on('drop', () => {
    if (Date.now() - lastDropWarning < 60_000) return;
    lastDropWarning = Date.now();
    logger.warn(`MAX_CONNECTIONS (${maxConnections}) reached: refusing new connections`);
  });

  await dependencies.beforeListening;
  try {
    await listen(server, config.port, config.host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (config.host === '::' && (code === 'EAFNOSUPPORT' || code === 'EADDRNOTAVAIL')) {
      await listen(server, config.port, '0.0.0.0'); // no IPv6 on this machine
    } else if (code === 'EADDRINUSE') {
      throw new Error(`Port ${config.port} is already in use: stop the other server or set PORT.`, {
        cause: error,
      });
    } else {
      throw error;
    }
  }
  realtime.attach(server);
  isListening = true;
  const address = server.address() as AddressInfo;
  const host =
    address.family === 'IPv6'
      ? address.address === '::'
        ? 'localhost'
        : `[${address.address}]`
      : address.address === '0.0.0.0'
        ? 'localhost'
        : address.address;

  const url = `http://${host}:${address.port}`;
  functions.listening(url);

  // Sample calls point at recordings in storage: put them there through our own storage API,
  // unless new workspaces get no sample calls (the test templates switch them off). A stop does
  // not wait for it: an upload cut short stores nothing, and the next start tries again.
  let isStopping = false;
  const sampleRecordings = (async () => {
    const settings = await dependencies.db.query<{ enabled: boolean }>(
      'select enabled from private.sample_data_settings',
    );
    if (settings.rows[0]?.enabled === false) return;
    await ensureSampleRecordings({
      url,
      serviceRoleKey: dependencies.keys.serviceRoleKey,
      directory: path.join(config.supabaseDir, 'sample-recordings'),
      logger,
    });
  })().catch((error: unknown) => {
    logger[isStopping ? 'debug' : 'warn'](
      { err: error },
      'the sample recordings were not uploaded: sample calls will not play',
    );
  });

  const { db } = dependencies;
  const mailSender = startMailSender({
    db,
    smtpUrl: config.auth.smtpUrl,
    smsProvider: config.auth.sms.provider,
    from: config.auth.smtpFrom,
    logger,
    maintenance: () => pruneRateLimits(db),
  });

  // PGlite has no autovacuum: the server does its work (decision 031).
  const vacuum = startEmbeddedVacuum(db, {
    intervalMs: config.embeddedVacuumIntervalMs,
    logger,
  });

  let closing: Promise<{ complete: boolean }> | undefined;
  return {
    url,
    port: address.port,
    wakeMailSender: () => mailSender.wake(),
    reloadSchema: () => rest.reloadSchema(),
    close() {
      if (closing) return closing;
      const stopping = Date.now();
      // From here /health and /health/ready answer 503 and every response says Connection: close.
      const connectionsClosed = drain.drain();
      isStopping = true;
      // Websockets first: a clean close (1001) sends their clients to reconnect, elsewhere if they can.
      const realtimeClosed = realtime.close().catch((error: unknown) => {
        logger.warn({ err: error }, 'realtime did not stop cleanly');
      });
      // The listener closes at once, so a load balancer moves on; only functions in flight keep
      // it open until they finish (new calls get 503), since they may call our API through it.
      let deadline: NodeJS.Timeout | undefined;
      const httpClosed = functions
        .drain(config.shutdownTimeoutMs)
        .then(() => drain.stopListening())
        .then(() =>
          Promise.race([
            connectionsClosed.then(() => true),
            new Promise<boolean>((resolve) => {
              deadline = setTimeout(
                () => {
                  logger.warn(
                    { connections: drain.count() },
                    'shutdown timeout: closing the connections still open',
                  );
                  drain.closeAll();
                  resolve(false);
                },
                Math.max(0, config.shutdownTimeoutMs - (Date.now() - stopping)),
              );
            }),
          ]),
        )
        .finally(() => clearTimeout(deadline));
      // Messages queued by requests still in flight wait in the outbox for the next start.
      // A send that outlasts the shutdown timeout is abandoned: its lease runs out and it is sent again.
      let senderDeadline: NodeJS.Timeout | undefined;
      const senderStopped = Promise.race([
        mailSender.stop(),
        new Promise<void>((resolve) => {
          senderDeadline = setTimeout(() => {
            logger.warn('shutdown timeout: a message was still being sent; it will be retried');
            resolve();
          }, config.shutdownTimeoutMs);
        }),
      ]).finally(() => clearTimeout(senderDeadline));
      closing = Promise.all([
        httpClosed,
        sampleRecordings,
        realtimeClosed,
        senderStopped,
        vacuum.stop(),
        httpClosed.then(() => storage.close()),
        rest.stop(),
      ]).then(([complete]) => ({ complete }));
      return closing;
    },
  };
}
