import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type Config } from './config';
import type { Database } from './db/database';
import { MigrationError, readAllMigrations } from './db/migrate';
import { migrationSources } from './db/migration-sources';
import { discardEarlyThread } from './db/pglite-early';
import { createLogger, type Logger } from './logger';
import type { RunningServer } from './server';

/**
 * What the process entry (`main.ts`) runs: reads the environment once, opens the database chosen by
 * it, applies migrations, loads keys, listens, and on SIGTERM/SIGINT drains
 * (decision 029): exit 0 once the last request is answered, 1 when the
 * shutdown timeout or a second, deliberate signal cut it short.
 *
 * A restart is mostly the database opening (decision 030): this module loads only what
 * starts it, and the rest of the server (`./start-up`) loads on this thread while the
 * database's thread opens it.
 */

function findRootDir(): string {
  let directory = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(directory, 'package.json'))) {
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error('cannot find the project folder (package.json)');
    directory = parent;
  }
  return directory;
}

export async function openDatabase(
  config: Config,
  logger: Logger,
  onThreadStart?: () => void,
): Promise<Database> {
  // Each driver loads only when chosen: start-up time matters (decision 030).
  if (config.databaseUrl) {
    discardEarlyThread();
    const { openPostgres } = await import('./db/postgres');
    return openPostgres(config.databaseUrl, {
      onError: (error) => logger.error({ err: error }, 'database connection error'),
      statementTimeoutMs: config.statementTimeoutMs,
    });
  }
  const { openPGlite } = await import('./db/pglite');
  return openPGlite(path.join(config.dataDir, 'pgdata'), {
    extensions: config.pgliteExtensions,
    statementTimeoutMs: config.statementTimeoutMs,
    onRestart: (reason) => logger.error({ reason }, 'the embedded database was restarted'),
    onThreadStart,
  });
}

async function run(): Promise<void> {
  const started = performance.now();
  const rootDir = findRootDir();
  const config = loadConfig(process.env, { rootDir, isTty: process.stdout.isTTY });
  const logger = await createLogger(config.log);
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });

  // The database first: PGlite opens on its own thread, and this one loads the rest of the
  // server meanwhile (once that thread exists, so as not to delay it), reads the migration
  // files, loads the keys and indexes the built site.
  let threadStarted = () => {};
  const databaseThreadStarted = new Promise<void>((resolve) => (threadStarted = resolve));
  const opening = openDatabase(config, logger, threadStarted);
  if (config.databaseUrl) threadStarted();
  opening.catch(() => threadStarted());
  const migrations = readAllMigrations(migrationSources(rootDir, config.supabaseDir));
  migrations.catch(() => undefined); // reported by migrate(), below
  const preparing = databaseThreadStarted
    .then(() => import('./start-up'))
    .then(async (startUp) => {
      const site = startUp.loadStaticSite(config, logger);
      site.catch(() => undefined); // reported by startServer(), which awaits it
      return { startUp, site, keys: await startUp.loadKeys(config) };
    });
  const [opened, prepared] = await Promise.allSettled([opening, preparing]);
  if (opened.status === 'rejected') throw opened.reason;
  const db = opened.value;
  if (prepared.status === 'rejected') {
    await db.close().catch(() => undefined);
    throw prepared.reason;
  }
  const { startUp, site, keys } = prepared.value;
  const { migrate, syncSiteSettings, seedSampleData, seedDemoAccounts, formatDemoAccounts } =
    startUp;
  try {
    const migrationLog = {
      info: (m: string) => logger.info(m),
      warn: (m: string) => logger.warn(m),
    };
    const { isFreshDatabase } = await migrate(
      db,
      migrationSources(rootDir, config.supabaseDir),
      migrationLog,
      { migrations },
    );
    // What requests rely on (the site's settings, the sample data, the demo accounts), written
    // while startServer puts the server together: it listens only once this is done.
    const seeding = (async () => {
      await syncSiteSettings(db, config);
      if (config.seedSampleData) {
        await seedSampleData(db, path.join(config.supabaseDir, 'seed.sql'), migrationLog);
      }
      return isFreshDatabase ? seedDemoAccounts(db, config.auth, migrationLog) : [];
    })();
    seeding.catch(() => undefined); // startServer awaits it and fails with it

    // Signals are handled from before the port opens: one right after it (a service manager
    // that saw /health/ready) drains like any other, once the server is up.
    const up: { server?: RunningServer } = {};
    let stopRequested: NodeJS.Signals | undefined;
    const shutdown = async (signal: NodeJS.Signals, running: RunningServer) => {
      const stopping = performance.now();
      logger.info(`${signal}: finishing in-flight requests and shutting down`);
      // Whatever happens below, the process ends in time (the database has its own thread).
      setTimeout(() => {
        logger.error('shutdown took too long: exiting now');
        process.exit(1);
      }, config.shutdownTimeoutMs + 2000).unref();
      const { complete } = await running.close();
      await db.close();
      await startUp.removeInstanceFile(config.dataDir);
      const ms = Math.round(performance.now() - stopping);
      if (!complete) {
        logger.error(
          { ms },
          `stopped: requests still open after SHUTDOWN_TIMEOUT_MS (${config.shutdownTimeoutMs} ms) were cut short`,
        );
        process.exit(1);
      }
      logger.info({ ms }, 'stopped');
      process.exit(0);
    };
    startUp.onStopSignals({
      stop: (signal) => {
        if (up.server) void shutdown(signal, up.server);
        else stopRequested = signal;
      },
      repeated: (signal) =>
        logger.info(
          `${signal} again within ${startUp.REPEAT_WINDOW_MS} ms: the same stop, counted once`,
        ),
      force: (signal) => {
        logger.warn(`${signal} again: exiting now`);
        process.exit(1);
      },
    });

    const server = await startUp.startServer({
      config,
      db,
      keys,
      logger,
      site,
      beforeListening: seeding,
    });
    const demoAccounts = await seeding;
    up.server = server;
    const elapsed = Math.round(performance.now() - started);
    // What `npm run keys` prints, whatever environment it is run from (before "ready").
    await startUp
      .writeInstanceFile(config.dataDir, startUp.describeInstance(config, keys, server.url))
      .catch((error: unknown) =>
        logger.warn(
          { err: error },
          '`npm run keys` will not know this server: cannot write its record',
        ),
      );
    logger.info(
      {
        url: config.siteUrl,
        listening: server.url,
        database: config.databaseUrl
          ? 'postgres'
          : `pglite (${path.join(config.dataDir, 'pgdata')})`,
        ms: elapsed,
      },
      `Cervana is ready on ${config.siteUrl} in ${elapsed} ms`,
    );
    if (isFreshDatabase && keys.file) {
      logger.info(`new keys in ${keys.file}; \`npm run keys\` prints the URL and API keys`);
    }
    if (demoAccounts.length > 0) {
      // Straight to stdout, not only the JSON log, so the operator sees it; never printed again.
      process.stdout.write(`\n${formatDemoAccounts(demoAccounts, config.siteUrl)}\n\n`);
    }

    if (stopRequested) void shutdown(stopRequested, server);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}

run().catch((error: unknown) => {
  const isExpected = error instanceof ConfigError || error instanceof MigrationError;
  console.error(isExpected ? (error as Error).message : error);
  process.exit(1);
});
