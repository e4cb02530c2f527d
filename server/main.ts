import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { syncSiteSettings } from './db/site-settings';
import { formatDemoAccounts, seedDemoAccounts, type DemoAccount } from './auth/demo-accounts';
import { ConfigError, loadConfig, type Config } from './config';
import type { Database } from './db/database';
import { MigrationError, migrate } from './db/migrate';
import { migrationSources } from './db/migration-sources';
import { seedSampleData } from './db/seed';
import { loadKeys } from './keys/load-keys';
import { createLogger, type Logger } from './logger';
import { describeInstance, removeInstanceFile, writeInstanceFile } from './running-instance';
import { startServer } from './server';
import { REPEAT_WINDOW_MS, onStopSignals } from './stop-signals';

/**
 * The process entry: reads the environment once, opens the database chosen by
 * it, applies migrations, loads keys, listens, and on SIGTERM/SIGINT drains
 * (decision 029): exit 0 once the last request is answered, 1 when the
 * shutdown timeout or a second, deliberate signal cut it short.
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

export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  // Each driver loads only when chosen: start-up time matters (≤ 1.5 s to listening).
  if (config.databaseUrl) {
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
  });
}

async function run(): Promise<void> {
  const started = performance.now();
  const rootDir = findRootDir();
  const config = loadConfig(process.env, { rootDir, isTty: process.stdout.isTTY });
  const logger = await createLogger(config.log);
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });

  // Opening PGlite spends much of its time waiting: load the keys meanwhile.
  const [opened, loaded] = await Promise.allSettled([
    openDatabase(config, logger),
    loadKeys(config),
  ]);
  if (opened.status === 'rejected') throw opened.reason;
  const db = opened.value;
  if (loaded.status === 'rejected') {
    await db.close().catch(() => undefined);
    throw loaded.reason;
  }
  const keys = loaded.value;
  try {
    const migrationLog = {
      info: (m: string) => logger.info(m),
      warn: (m: string) => logger.warn(m),
    };
    const { isFreshDatabase } = await migrate(
      db,
      migrationSources(rootDir, config.supabaseDir),
      migrationLog,
    );
    await syncSiteSettings(db, config);
    if (config.seedSampleData) {
      await seedSampleData(db, path.join(config.supabaseDir, 'seed.sql'), migrationLog);
    }
    const demoAccounts: DemoAccount[] = isFreshDatabase
      ? await seedDemoAccounts(db, config.auth, migrationLog)
      : [];
    const server = await startServer({ config, db, keys, logger });
    const elapsed = Math.round(performance.now() - started);
    // What `npm run keys` prints, whatever environment it is run from (before "ready").
    await writeInstanceFile(config.dataDir, describeInstance(config, keys, server.url)).catch(
      (error: unknown) =>
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

    const shutdown = async (signal: NodeJS.Signals) => {
      const stopping = performance.now();
      logger.info(`${signal}: finishing in-flight requests and shutting down`);
      // Whatever happens below, the process ends in time (the database has its own thread).
      setTimeout(() => {
        logger.error('shutdown took too long: exiting now');
        process.exit(1);
      }, config.shutdownTimeoutMs + 2000).unref();
      const { complete } = await server.close();
      await db.close();
      await removeInstanceFile(config.dataDir);
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
    onStopSignals({
      stop: (signal) => void shutdown(signal),
      repeated: (signal) =>
        logger.info(`${signal} again within ${REPEAT_WINDOW_MS} ms: the same stop, counted once`),
      force: (signal) => {
        logger.warn(`${signal} again: exiting now`);
        process.exit(1);
      },
    });
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
