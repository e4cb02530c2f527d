import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { ROOT_DIR } from '../testing/root-dir';
import {
  FUNCTION_NAME_PATTERN,
  isFunctionFolderName,
  npmSpecifierToBare,
} from './bundle-function.mjs';
import { parseFunctionSettings, readFunctionSettings } from './function-config';

describe('config.toml [functions.<name>]', () => {
  it('reads verify_jwt and enabled, defaulting both to true as Supabase does', () => {
    const settings = parseFunctionSettings(`
project_id = "example"

[functions.webhook]
verify_jwt = false

[functions.off]
enabled = false

[functions.plain]
import_map = "./deno.json"
`);
    expect(settings.get('webhook')).toEqual({ verifyJwt: false, enabled: true });
    expect(settings.get('off')).toEqual({ verifyJwt: true, enabled: false });
    expect(settings.get('plain')).toEqual({ verifyJwt: true, enabled: true });
    expect(settings.get('unlisted')).toBeUndefined();
    expect(parseFunctionSettings('project_id = "x"').size).toBe(0);
  });

  it('refuses a file it cannot trust, naming the problem', () => {
    expect(() => parseFunctionSettings('[functions.a]\nverify_jwt = "no"', 'c.toml')).toThrow(
      new ConfigError('c.toml: [functions.a] verify_jwt must be true or false'),
    );
    expect(() => parseFunctionSettings('functions = 3')).toThrow(/\[functions\] must be a table/);
    expect(() => parseFunctionSettings('[functions.a\nverify_jwt = false')).toThrow(ConfigError);
    expect(() =>
      parseFunctionSettings('[functions.a]\nverify_jwt = false\nverify_jwt = true'),
    ).toThrow(/not valid TOML/);
  });

  it('treats a missing file as all defaults', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cervana-functions-config-'));
    try {
      expect((await readFunctionSettings(path.join(dir, 'config.toml'))).size).toBe(0);
      await writeFile(path.join(dir, 'config.toml'), '[functions.x]\nverify_jwt = false\n');
      expect((await readFunctionSettings(path.join(dir, 'config.toml'))).get('x')).toEqual({
        verifyJwt: false,
        enabled: true,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reads the project's own supabase/config.toml: call-events takes no JWT", async () => {
    const settings = await readFunctionSettings(path.join(ROOT_DIR, 'supabase', 'config.toml'));
    expect(settings.get('call-events')?.verifyJwt).toBe(false);
  });
});

describe('function names and specifiers', () => {
  it('accepts only path-safe names, and skips _shared and dot folders', () => {
    for (const name of ['call-events', 'a', 'A_b-9', 'x'.repeat(64)]) {
      expect(isFunctionFolderName(name)).toBe(true);
    }
    for (const name of ['_shared', '.git', '..', 'a.b', 'a/b', '', 'x'.repeat(65), 'é', 'a b']) {
      expect(isFunctionFolderName(name)).toBe(false);
    }
    expect(FUNCTION_NAME_PATTERN.test('_private')).toBe(true);
  });

  it("maps Deno's npm: specifiers to the package in node_modules", () => {
    expect(npmSpecifierToBare('npm:@supabase/supabase-js@2.119.0')).toBe('@supabase/supabase-js');
    expect(npmSpecifierToBare('npm:@supabase/supabase-js')).toBe('@supabase/supabase-js');
    expect(npmSpecifierToBare('npm:zod@4/mini')).toBe('zod/mini');
    expect(npmSpecifierToBare('npm:/jose@6.2.17')).toBe('jose');
    expect(() => npmSpecifierToBare('npm:')).toThrow();
  });
});

describe('FUNCTIONS_* settings', () => {
  it('default to the sources, a 60 s timeout and 20 MB bodies', () => {
    const { functions } = loadConfig({}, { rootDir: '/srv/cervana' });
    expect(functions).toEqual({
      dir: '/srv/cervana/supabase/functions',
      configFile: '/srv/cervana/supabase/config.toml',
      timeoutMs: 60_000,
      maxBodyBytes: 20_000_000,
    });
  });

  it('read FUNCTIONS_DIR (config.toml beside it), the timeout and the body limit', () => {
    const { functions } = loadConfig(
      {
        FUNCTIONS_DIR: '/tmp/fixtures/functions',
        FUNCTIONS_TIMEOUT_MS: '5000',
        FUNCTIONS_MAX_BODY_BYTES: '1mb',
      },
      { rootDir: '/srv/cervana' },
    );
    expect(functions).toEqual({
      dir: '/tmp/fixtures/functions',
      configFile: '/tmp/fixtures/config.toml',
      timeoutMs: 5000,
      maxBodyBytes: 1_000_000,
    });
    expect(
      loadConfig({ FUNCTIONS_MAX_BODY_BYTES: '4096' }, { rootDir: '/' }).functions.maxBodyBytes,
    ).toBe(4096);
  });

  it('refuse a timeout the idle connection timeout would cut short, and bad sizes', () => {
    expect(() => loadConfig({ FUNCTIONS_TIMEOUT_MS: '65000' }, { rootDir: '/' })).toThrow(
      /FUNCTIONS_TIMEOUT_MS: must be less than IDLE_TIMEOUT_MS \(65000\)/,
    );
    expect(
      loadConfig({ FUNCTIONS_TIMEOUT_MS: '90000', IDLE_TIMEOUT_MS: '120000' }, { rootDir: '/' })
        .functions.timeoutMs,
    ).toBe(90_000);
    // Left unset, it follows a lowered idle timeout instead of refusing to start.
    expect(loadConfig({}, { rootDir: '/' }).functions.timeoutMs).toBe(60_000);
    expect(loadConfig({ IDLE_TIMEOUT_MS: '1500' }, { rootDir: '/' }).functions.timeoutMs).toBe(
      1350,
    );
    expect(loadConfig({ IDLE_TIMEOUT_MS: '100' }, { rootDir: '/' }).functions.timeoutMs).toBe(90);
    expect(() => loadConfig({ FUNCTIONS_MAX_BODY_BYTES: 'lots' }, { rootDir: '/' })).toThrow(
      /FUNCTIONS_MAX_BODY_BYTES/,
    );
    expect(() => loadConfig({ FUNCTIONS_MAX_BODY_BYTES: '0' }, { rootDir: '/' })).toThrow(
      /FUNCTIONS_MAX_BODY_BYTES/,
    );
  });
});
