// `npm run keys`: the URL and API keys of this deployment, like `supabase status`.
// Generates the keys on first use, exactly as the server would.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../server/config';
import { loadKeys } from '../server/keys/load-keys';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

try {
  const config = loadConfig(process.env, { rootDir });
  const keys = await loadKeys(config);
  const rows: [string, string][] = [
    ['API URL', config.apiUrl],
    ['Site URL', config.siteUrl],
    ['JWKS URL', `${config.apiUrl}/auth/v1/.well-known/jwks.json`],
    [
      'Signing',
      `${keys.ring.algorithm}${keys.file ? ` (key in ${keys.file})` : ' (from the environment)'}`,
    ],
    ['anon key', keys.anonKey],
    ['service_role key', keys.serviceRoleKey],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) console.log(`${label.padStart(width)}: ${value}`);
  console.log(
    '\nThe service_role key bypasses row-level security: keep it on servers, never in a browser.',
  );
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
