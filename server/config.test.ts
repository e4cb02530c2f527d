import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const context = { rootDir: '/srv/cervana' };

describe('loadConfig', () => {
  it('gives working defaults on an empty environment', () => {
    const config = loadConfig({}, context);
    expect(config.port).toBe(3000);
    expect(config.siteUrl).toBe('http://localhost:3000');
    expect(config.apiUrl).toBe('http://localhost:3000');
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.jwt.expirySeconds).toBe(3600);
    expect(config.jwt.issuer).toBe('http://localhost:3000/auth/v1');
    expect(config.seedSampleData).toBe(true);
    expect(config.siteDir).toBe('/srv/cervana/dist/client');
    expect(config.supabaseDir).toBe('/srv/cervana/supabase');
  });

  it('derives the site URL from the port and strips trailing slashes from URLs', () => {
    expect(loadConfig({ PORT: '8080' }, context).siteUrl).toBe('http://localhost:8080');
    const config = loadConfig({ SITE_URL: 'https://cervana.ai/' }, context);
    expect(config.siteUrl).toBe('https://cervana.ai');
    expect(config.apiUrl).toBe('https://cervana.ai');
  });

  it('reads the site and SQL folders from SITE_DIR and SUPABASE_DIR, relative to the working folder', () => {
    const config = loadConfig({ SITE_DIR: '/var/www/site', SUPABASE_DIR: 'sql' }, context);
    expect(config.siteDir).toBe('/var/www/site');
    expect(config.supabaseDir).toBe(path.resolve('sql'));
  });

  it('treats empty variables as unset', () => {
    const config = loadConfig({ DATABASE_URL: '', JWT_SECRET: '', ANON_KEY: '' }, context);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.jwt.secret).toBeUndefined();
    expect(config.jwt.anonKey).toBeUndefined();
  });

  it('names every invalid variable and why', () => {
    const attempt = () =>
      loadConfig(
        {
          PORT: 'eighty',
          SITE_URL: 'ftp://example.com',
          DATABASE_URL: 'mysql://localhost/db',
          JWT_SECRET: 'short',
          SEED_SAMPLE_DATA: 'maybe',
          TRUST_PROXY: '10.0.0.0/8, proxy.internal',
        },
        context,
      );
    expect(attempt).toThrow(ConfigError);
    let message = '';
    try {
      attempt();
    } catch (error) {
      message = (error as Error).message;
    }
    for (const variable of [
      'PORT',
      'SITE_URL',
      'DATABASE_URL',
      'JWT_SECRET',
      'SEED_SAMPLE_DATA',
      'TRUST_PROXY',
    ]) {
      expect(message).toContain(variable);
    }
    expect(message).toContain('at least 32 characters');
    expect(message).toContain("'proxy.internal' is not an IP address");
  });

  it("reads the stop's timings and refuses ones out of range", () => {
    const defaults = loadConfig({}, context);
    expect(defaults.shutdownTimeoutMs).toBe(4000);
    expect(defaults.http.drainIdleGraceMs).toBe(250);
    const set = loadConfig(
      { SHUTDOWN_TIMEOUT_MS: '9000', SHUTDOWN_IDLE_GRACE_MS: '1500' },
      context,
    );
    expect(set.shutdownTimeoutMs).toBe(9000);
    expect(set.http.drainIdleGraceMs).toBe(1500);
    for (const value of ['0', '5', '10001', '2.5', 'soon']) {
      expect(() => loadConfig({ SHUTDOWN_IDLE_GRACE_MS: value }, context), value).toThrow(
        /SHUTDOWN_IDLE_GRACE_MS/,
      );
    }
  });

  it('reads booleans in the usual spellings', () => {
    expect(loadConfig({ SEED_SAMPLE_DATA: 'false' }, context).seedSampleData).toBe(false);
    expect(loadConfig({ SEED_SAMPLE_DATA: 'off' }, context).seedSampleData).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'yes' }, context).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }, context).trustProxy).toBe(2);
    expect(loadConfig({}, context).trustProxy).toBe(false);
  });

  it('picks pretty logs on a terminal and JSON otherwise, unless told', () => {
    expect(loadConfig({}, { ...context, isTty: true }).log.format).toBe('pretty');
    expect(loadConfig({}, context).log.format).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }, { ...context, isTty: true }).log.format).toBe('json');
  });
});
