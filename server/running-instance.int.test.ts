import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { INSTANCE_FILE } from './running-instance';
import { cloneTestDatabase, testDatabaseKind, type TestDatabase } from './testing/harness';
import { ROOT_DIR } from './testing/root-dir';
import { startServerProcess } from './testing/server-process';

/**
 * `npm run keys` from another shell than the server's: it prints the URL and
 * keys of the server running on the data folder, not the defaults of its own
 * environment.
 */

let folder: string;
let postgres: TestDatabase | undefined;
let databaseUrl: string | undefined;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cervana-keys-'));
  await mkdir(path.join(folder, 'site'));
  await writeFile(path.join(folder, 'site', 'index.html'), '<!doctype html><title>shell</title>');
  if (testDatabaseKind() === 'postgres') {
    postgres = await cloneTestDatabase({ empty: true });
    const { rows } = await postgres.db.query<{ url: string }>(
      `select 'postgres://postgres@127.0.0.1:' || current_setting('port') || '/' || current_database() as url`,
    );
    databaseUrl = rows[0]!.url;
  }
});

afterAll(async () => {
  await postgres?.drop();
  await rm(folder, { recursive: true, force: true });
});

it('npm run keys prints the URL and keys of the server running on the data folder, whatever its PORT', async () => {
  const dataDir = path.join(folder, 'data');
  const server = await startServerProcess({
    dataDir,
    siteDir: path.join(folder, 'site'),
    // A fresh embedded database migrates at start: about 8 s alone, several times that
    // when the suite's other files share the two cores. Starting fast is not what this checks.
    readyTimeoutMs: 75_000,
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  const port = new URL(server.url).port;
  try {
    const { anonKey } = (await (await fetch(`${server.url}/config.json`)).json()) as {
      anonKey: string;
    };
    // Another shell: no PORT, only the data folder.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT_DIR, 'scripts', 'keys.ts')],
      { cwd: ROOT_DIR, env: { PATH: process.env.PATH, DATA_DIR: dataDir } },
    );
    expect(port).not.toBe('3000');
    expect(stdout).toMatch(new RegExp(`^ *API URL: http://localhost:${port}$`, 'm'));
    expect(stdout).toMatch(new RegExp(`^ *Site URL: http://localhost:${port}$`, 'm'));
    expect(stdout).toMatch(
      new RegExp(
        `^ *Server: running \\(pid \\d+, listening on http://127\\.0\\.0\\.1:${port}\\)$`,
        'm',
      ),
    );
    expect(stdout).toContain(`anon key: ${anonKey}\n`);
  } finally {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }
  // A server that stopped cleanly leaves no record behind.
  expect(existsSync(path.join(dataDir, INSTANCE_FILE))).toBe(false);
}, 120_000);
