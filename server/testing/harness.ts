import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../config';
import type { Database } from '../db/database';
import { openPGlite } from '../db/pglite';
import { openPostgres } from '../db/postgres';
import { loadKeys, type Keys } from '../keys/load-keys';
import { createLogger, type Logger } from '../logger';
import { startServer } from '../server';
import { ROOT_DIR } from './root-dir';
import { copyPGliteTemplate, type TestDatabaseTemplate } from './templates';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseTemplate;
  }
}

/**
 * Integration tests run against a real server over real HTTP, on a fresh copy
 * of the migrated database: PGlite in one project, PostgreSQL in the other.
 */

export interface TestDatabase {
  db: Database;
  kind: Database['kind'];
  /** The PostgreSQL database's URL (PostgreSQL only), for a second server on the same data. */
  url?: string;
  /** Removes the copy. */
  drop(): Promise<void>;
}

export function testDatabaseKind(): Database['kind'] {
  return inject('testDatabase').kind;
}

/**
 * A fresh copy of the migrated test database. With `empty`, a PostgreSQL
 * database with no migrations at all (for first-start tests; PGlite callers
 * start from an empty folder instead).
 */
export async function cloneTestDatabase(
  options: { empty?: boolean; statementTimeoutMs?: number } = {},
): Promise<TestDatabase> {
  const template = inject('testDatabase');
  if (template.kind === 'pglite') {
    const folder = await mkdtemp(path.join(tmpdir(), 'cervana-pglite-'));
    const dataDir = path.join(folder, 'pgdata');
    await copyPGliteTemplate(template.templateDir, dataDir);
    const db = await openPGlite(dataDir, { statementTimeoutMs: options.statementTimeoutMs });
    return {
      db,
      kind: 'pglite',
      async drop() {
        await db.close();
        await rm(folder, { recursive: true, force: true });
      },
    };
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: template.adminUrl });
  await admin.connect();
  try {
    await admin.query(
      `create database ${name} template ${options.empty ? 'template0' : template.templateName}`,
    );
  } finally {
    await admin.end();
  }
  const url = template.urlFor.replace('{database}', name);
  const db = await openPostgres(url, {
    maxConnections: 5,
    statementTimeoutMs: options.statementTimeoutMs,
  });
  return {
    db,
    kind: 'postgres',
    url,
    async drop() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: template.adminUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface TestServer {
  url: string;
  config: Config;
  keys: Keys;
  db: Database;
  anonKey: string;
  serviceRoleKey: string;
  dataDir: string;
  /** Makes the server's mail sender look for due messages now. */
  wakeMailSender(): void;
  /** Reloads the data API's schema cache (after a test's DDL). */
  reloadSchema(): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Extra environment, as the server would read it. */
  env?: Record<string, string>;
  /** An existing database to serve instead of a fresh clone (not dropped on close). */
  database?: Database;
  /** A logger to use instead of the silent one (to read what the server logs). */
  logger?: Logger;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-data-'));
  const configFor = (port: number) =>
    loadConfig(
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        SITE_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        SHUTDOWN_TIMEOUT_MS: '2000',
        ...options.env,
      },
      { rootDir: ROOT_DIR },
    );
  const clone = options.database
    ? undefined
    : await cloneTestDatabase({ statementTimeoutMs: configFor(0).statementTimeoutMs });
  const db = options.database ?? clone!.db;
  try {
    // The port is chosen just before listening, and chosen again if another process took it
    // in between (a test file running beside this one did, once, in CI).
    for (let attempt = 1; ; attempt += 1) {
      const config = configFor(await findFreePort());
      const keys = await loadKeys(config);
      const logger = options.logger ?? (await createLogger(config.log));
      let server: Awaited<ReturnType<typeof startServer>>;
      try {
        server = await startServer({ config, db, keys, logger });
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        if (attempt < 3 && cause?.code === 'EADDRINUSE') continue;
        throw error;
      }
      return {
        url: server.url,
        config,
        keys,
        db,
        anonKey: keys.anonKey,
        serviceRoleKey: keys.serviceRoleKey,
        dataDir,
        wakeMailSender: server.wakeMailSender,
        reloadSchema: server.reloadSchema,
        async close() {
          await server.close();
          await clone?.drop();
          await rm(dataDir, { recursive: true, force: true });
        },
      };
    }
  } catch (error) {
    await clone?.drop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
