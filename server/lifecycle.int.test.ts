import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cloneTestDatabase, testDatabaseKind, type TestDatabase } from './testing/harness';
import { openPGlite } from './db/pglite';
import { ROOT_DIR } from './testing/root-dir';
import { startServerProcess, type ServerProcess } from './testing/server-process';

/**
 * The server as an operator runs it: its own process, started, signalled,
 * restarted on the same data folder.
 */

const BIG_FILE_BYTES = 32 * 1024 * 1024;

let folder: string;
let siteDir: string;
let dataDir: string;
let postgres: TestDatabase | undefined;

const started: ServerProcess[] = [];

async function startProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServerProcess({
    dataDir,
    siteDir,
    env,
    ...(postgres ? { databaseUrl: postgresUrl } : {}),
  });
  started.push(server);
  return server;
}

// A test that failed midway leaves no server on the shared data folder for the next one.
afterEach(async () => {
  for (const server of started.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }
});

let postgresUrl = '';

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cervana-lifecycle-'));
  siteDir = path.join(folder, 'site');
  dataDir = path.join(folder, 'data');
  await (await import('node:fs/promises')).mkdir(siteDir);
  await writeFile(path.join(siteDir, 'index.html'), '<!doctype html><title>shell</title>');
  await writeFile(path.join(siteDir, 'big.bin'), Buffer.alloc(BIG_FILE_BYTES, 1));
  if (testDatabaseKind() === 'postgres') {
    postgres = await cloneTestDatabase({ empty: true });
    // The server connects by URL: find the empty database's.
    const { rows } = await postgres.db.query<{ url: string }>(
      `select 'postgres://postgres@127.0.0.1:' || current_setting('port') || '/' || current_database() as url`,
    );
    postgresUrl = rows[0]!.url;
  }
});

afterAll(async () => {
  await postgres?.drop();
  await rm(folder, { recursive: true, force: true });
});

describe('the server process', () => {
  let firstAnonKey = '';

  it('starts on an empty data folder, creating the database and 0600 keys', async () => {
    const server = await startProcess();
    try {
      const config = (await (await fetch(`${server.url}/config.json`)).json()) as {
        anonKey: string;
      };
      firstAnonKey = config.anonKey;
      expect(firstAnonKey.split('.')).toHaveLength(3);
      expect((await stat(path.join(dataDir, 'keys.json'))).mode & 0o777).toBe(0o600);
      expect(server.output()).toContain('applied migration platform/0001_roles');
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });

  it('on SIGTERM stops accepting, finishes the request in flight, and exits 0 within 5 s', async () => {
    const server = await startProcess();
    let received = 0;
    const download = new Promise<number>((resolve, reject) => {
      request(`${server.url}/big.bin`, (response) => {
        response.once('data', (chunk: Buffer) => {
          received += chunk.length;
          response.pause(); // hold the response open, mid-body
          signalled.then(() => {
            response.on('data', (more: Buffer) => (received += more.length));
            response.on('end', () => resolve(received));
            setTimeout(() => response.resume(), 300);
          }, reject);
        });
        response.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
    let markSignalled: () => void = () => undefined;
    const signalled = new Promise<void>((resolve) => (markSignalled = resolve));
    await new Promise((resolve) => setTimeout(resolve, 200));

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    // The listener closes as soon as the signal is handled (within milliseconds on a quiet
    // machine; a loaded one may take longer to schedule the process): new connections refused.
    const refusedBy = Date.now() + 2000;
    for (;;) {
      const refused = await fetch(`${server.url}/health`).then(
        () => false,
        () => true,
      );
      if (refused) break;
      expect(Date.now(), 'the listener is still open').toBeLessThan(refusedBy);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    markSignalled();

    expect(await download).toBe(BIG_FILE_BYTES);
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(5000);
    expect(server.output()).toContain('SIGTERM: finishing in-flight requests');
  });

  it('restarts on the same data folder with the same keys and nothing re-applied', async () => {
    const server = await startProcess();
    try {
      const config = (await (await fetch(`${server.url}/config.json`)).json()) as {
        anonKey: string;
      };
      expect(config.anonKey).toBe(firstAnonKey);
      expect(server.output()).not.toContain('applied migration');
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
    if (!postgres) {
      // The embedded database was closed cleanly and still holds its history.
      const db = await openPGlite(path.join(dataDir, 'pgdata'));
      try {
        const { rows } = await db.query<{ n: number }>(
          `select count(*)::int as n from cervana.schema_migrations where scope = 'platform'`,
        );
        expect(rows[0]?.n).toBeGreaterThanOrEqual(3);
      } finally {
        await db.close();
      }
    }
  });

  it('on SIGTERM while a statement runs on, exits within SHUTDOWN_TIMEOUT_MS + 2 s', async () => {
    // A function that runs for minutes, created while the server is stopped.
    const db = postgres?.db ?? (await openPGlite(path.join(dataDir, 'pgdata')));
    try {
      await db.exec(`
        create function public.spin() returns bigint language sql as
          $$ select count(*) from generate_series(1, 4000000000) $$;
        grant execute on function public.spin() to anon;
      `);
    } finally {
      if (!postgres) await db.close();
    }
    // A time-out far away: only the stop signal can end this statement.
    const server = await startProcess({
      STATEMENT_TIMEOUT_MS: '600000',
      SHUTDOWN_TIMEOUT_MS: '1000',
    });
    const { anonKey } = (await (await fetch(`${server.url}/config.json`)).json()) as {
      anonKey: string;
    };
    const spinning = fetch(`${server.url}/rest/v1/rpc/spin`, {
      method: 'POST',
      headers: { apikey: anonKey },
    }).catch((error: unknown) => error);
    // Once the statement runs (the server may still be finishing its start-up work, which
    // comes first): PostgreSQL answers on another connection; the embedded database is busy,
    // and /health says so in time.
    if (postgres) {
      await expect
        .poll(
          async () =>
            (
              await postgres!.db.query<{ n: number }>(
                `select count(*)::int as n from pg_stat_activity
                 where state = 'active' and query like '%spin%' and pid <> pg_backend_pid()`,
              )
            ).rows[0]!.n,
          { timeout: 15_000, interval: 100 },
        )
        .toBeGreaterThan(0);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } else {
      await expect
        .poll(async () => (await fetch(`${server.url}/health`)).status, {
          timeout: 15_000,
          interval: 100,
        })
        .toBe(503);
    }

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await server.exited;
    expect(Date.now() - signalledAt).toBeLessThan(1000 + 2000 + 1000);
    await spinning;
    if (postgres)
      // The call of spin() is what pg_stat_activity shows, not the statement inside it.
      await postgres.db.query(
        `select pg_cancel_backend(pid) from pg_stat_activity
         where query like '%spin%' and pid <> pg_backend_pid()`,
      );
  });

  it('refuses to start on a bad configuration, naming the variable', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT_DIR, 'server', 'main.ts')],
      {
        cwd: ROOT_DIR,
        env: { PATH: process.env.PATH, PORT: 'not-a-port', DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain('PORT');
  });
});
