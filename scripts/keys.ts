// `npm run keys`: the URL and API keys of this deployment, like `supabase status`.
// The configuration is read exactly as the server reads it (loadConfig, same
// environment variables, same defaults). A server running on the same data
// folder recorded what it uses in DATA_DIR/server.json (server/running-instance.ts):
// its URLs are printed even when it was started from a shell with another PORT,
// SITE_URL or API_URL, and keys it does not use are never printed.
// Generates the keys on first use, exactly as the server would.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../server/config';
import { loadKeys } from '../server/keys/load-keys';
import { fingerprint, isProcessAlive, readInstance } from '../server/running-instance';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function keysReport(
  env: Record<string, string | undefined>,
  options: { rootDir?: string; isAlive?: (pid: number) => boolean } = {},
): Promise<string> {
  const config = loadConfig(env, { rootDir: options.rootDir ?? rootDir });
  const instance = await readInstance(config.dataDir, options.isAlive ?? isProcessAlive);
  const running = instance?.running ? instance.record : undefined;
  const server = running
    ? `the server (pid ${running.pid}, listening on ${running.listening}) on ${config.dataDir}`
    : undefined;
  const sameEnvironment =
    'run `npm run keys` with the environment the server was started with ' +
    '(JWT_KEYS, JWT_SECRET, ANON_KEY, SERVICE_ROLE_KEY)';

  if (running?.keySource === 'environment' && !config.jwt.keys && !config.jwt.secret) {
    throw new ConfigError(
      `${server} signs with keys from its environment, which this shell does not have: ${sameEnvironment}.`,
    );
  }
  const keys = await loadKeys(config);
  if (
    running &&
    (fingerprint(keys.anonKey) !== running.anonKeySha256 ||
      fingerprint(keys.serviceRoleKey) !== running.serviceRoleKeySha256)
  ) {
    throw new ConfigError(
      `${server} uses other API keys than this shell's environment gives: ${sameEnvironment}.`,
    );
  }

  const urls = running ?? config;
  const rows: [string, string][] = [
    ['API URL', urls.apiUrl],
    ['Site URL', urls.siteUrl],
    ['JWKS URL', `${urls.apiUrl}/auth/v1/.well-known/jwks.json`],
    [
      'Server',
      running
        ? `running (pid ${running.pid}, listening on ${running.listening})`
        : `not running on ${config.dataDir}: the URL and keys \`npm start\` would use with this environment`,
    ],
    [
      'Signing',
      `${keys.ring.algorithm}${keys.file ? ` (key in ${keys.file})` : ' (from the environment)'}`,
    ],
    ['anon key', keys.anonKey],
    ['service_role key', keys.serviceRoleKey],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = rows.map(([label, value]) => `${label.padStart(width)}: ${value}`);
  if (running && (running.siteUrl !== config.siteUrl || running.apiUrl !== config.apiUrl)) {
    lines.push(
      '',
      `This shell's environment (PORT, SITE_URL, API_URL) gives ${config.siteUrl}: the URLs above are the running server's.`,
    );
  } else if (instance && !running && instance.record.siteUrl !== config.siteUrl) {
    lines.push('', `The last server on this data folder used ${instance.record.siteUrl}.`);
  }
  lines.push(
    '',
    'The service_role key bypasses row-level security: keep it on servers, never in a browser.',
  );
  return lines.join('\n');
}

function isMain(): boolean {
  try {
    return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  try {
    console.log(await keysReport(process.env));
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}
