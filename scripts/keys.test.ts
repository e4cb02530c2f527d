import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../server/config';
import { loadKeys } from '../server/keys/load-keys';
import {
  INSTANCE_FILE,
  describeInstance,
  readInstance,
  removeInstanceFile,
  writeInstanceFile,
} from '../server/running-instance';
import { ROOT_DIR } from '../server/testing/root-dir';
import { keysReport } from './keys';

const SECRET_A = 'an HS256 secret that is at least 32 characters long (A)';
const SECRET_B = 'an HS256 secret that is at least 32 characters long (B)';

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-keys-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** What server/main.ts records once it listens, for a server started with `env`. */
async function recordServer(env: Record<string, string>, pid = process.pid): Promise<void> {
  const config = loadConfig({ DATA_DIR: dataDir, ...env }, { rootDir: ROOT_DIR });
  const keys = await loadKeys(config);
  const listening = `http://localhost:${config.port}`;
  await writeInstanceFile(dataDir, describeInstance(config, keys, listening, pid));
}

const row = (label: string, value: string) =>
  new RegExp(`^ *${label}: ${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm');

describe('npm run keys', () => {
  it('prints the URL of the server running on this data folder, from a shell without its PORT', async () => {
    await recordServer({ PORT: '4321' });

    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT_DIR, 'scripts', 'keys.ts')],
      { cwd: ROOT_DIR, env: { PATH: process.env.PATH, DATA_DIR: dataDir } },
    );

    expect(stdout).toMatch(row('API URL', 'http://localhost:4321'));
    expect(stdout).toMatch(row('Site URL', 'http://localhost:4321'));
    expect(stdout).toMatch(row('JWKS URL', 'http://localhost:4321/auth/v1/.well-known/jwks.json'));
    expect(stdout).toMatch(
      /^ *Server: running \(pid \d+, listening on http:\/\/localhost:4321\)$/m,
    );
    expect(stdout).toContain(
      "This shell's environment (PORT, SITE_URL, API_URL) gives http://localhost:3000",
    );
  }, 30_000);

  it('with no server running, prints what the server would use in this environment', async () => {
    const report = await keysReport({ PORT: '4321', DATA_DIR: dataDir });
    expect(report).toMatch(row('API URL', 'http://localhost:4321'));
    expect(report).toMatch(row('Site URL', 'http://localhost:4321'));
    expect(report).toMatch(/^ *Server: not running on /m);
    expect(report).toMatch(/^ *Signing: ES256 \(key in .*keys\.json\)$/m);
  });

  it('SITE_URL and API_URL are read as the server reads them', async () => {
    const report = await keysReport({
      PORT: '4321',
      SITE_URL: 'https://cervana.example.com/',
      API_URL: 'https://api.cervana.example.com',
      DATA_DIR: dataDir,
    });
    expect(report).toMatch(row('API URL', 'https://api.cervana.example.com'));
    expect(report).toMatch(row('Site URL', 'https://cervana.example.com'));
  });

  it('prints the same keys as the running server uses', async () => {
    await recordServer({ PORT: '4321' });
    const config = loadConfig({ DATA_DIR: dataDir }, { rootDir: ROOT_DIR });
    const keys = await loadKeys(config);
    const report = await keysReport({ DATA_DIR: dataDir });
    expect(report).toMatch(row('anon key', keys.anonKey));
    expect(report).toMatch(row('service_role key', keys.serviceRoleKey));
  });

  it('ignores the record of a server that no longer runs, and names its URL', async () => {
    await recordServer({ PORT: '4321' });
    const report = await keysReport({ DATA_DIR: dataDir }, { isAlive: () => false });
    expect(report).toMatch(row('API URL', 'http://localhost:3000'));
    expect(report).toMatch(/^ *Server: not running on /m);
    expect(report).toContain('The last server on this data folder used http://localhost:4321.');
  });

  it('refuses to print keys when the server signs with keys from its environment and this shell has none', async () => {
    await recordServer({ PORT: '4321', JWT_SECRET: SECRET_A });
    await expect(keysReport({ DATA_DIR: dataDir })).rejects.toThrow(ConfigError);
    await expect(keysReport({ DATA_DIR: dataDir })).rejects.toThrow(
      /signs with keys from its environment, which this shell does not have/,
    );
    // Nor does it leave a keys file the server does not use.
    expect(existsSync(path.join(dataDir, 'keys.json'))).toBe(false);
  });

  it('refuses to print keys other than the running server uses', async () => {
    await recordServer({ PORT: '4321', JWT_SECRET: SECRET_A });
    await expect(keysReport({ DATA_DIR: dataDir, JWT_SECRET: SECRET_B })).rejects.toThrow(
      /uses other API keys than this shell's environment gives/,
    );
    const report = await keysReport({ DATA_DIR: dataDir, JWT_SECRET: SECRET_A });
    expect(report).toMatch(row('API URL', 'http://localhost:4321'));
    expect(report).toMatch(/^ *Signing: HS256 \(from the environment\)$/m);
  });
});

describe('the running server record (DATA_DIR/server.json)', () => {
  it('is removed only by the process that wrote it', async () => {
    await recordServer({ PORT: '4321' }, 4242);
    await removeInstanceFile(dataDir, 4343);
    expect(existsSync(path.join(dataDir, INSTANCE_FILE))).toBe(true);
    await removeInstanceFile(dataDir, 4242);
    expect(existsSync(path.join(dataDir, INSTANCE_FILE))).toBe(false);
  });

  it('holds no secret: the API keys only as fingerprints', async () => {
    await recordServer({ PORT: '4321', JWT_SECRET: SECRET_A });
    const instance = await readInstance(dataDir);
    expect(instance?.running).toBe(true);
    expect(JSON.stringify(instance?.record)).not.toMatch(/eyJ|secret/i);
    expect(instance?.record.anonKeySha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a damaged record counts as none', async () => {
    await writeFile(path.join(dataDir, INSTANCE_FILE), '{"version": 1, "pid": ');
    expect(await readInstance(dataDir)).toBeUndefined();
    const report = await keysReport({ PORT: '4321', DATA_DIR: dataDir });
    expect(report).toMatch(row('API URL', 'http://localhost:4321'));
  });
});
