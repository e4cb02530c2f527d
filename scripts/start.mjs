// `npm start`: builds the site and server when the sources are newer than the
// last build (a fresh clone has none), then runs the server in this process.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const inputs = [
  'src',
  'server',
  'public',
  'scripts',
  // Edge functions are bundled by the build (dist/functions), with config.toml beside them.
  'supabase/functions',
  'supabase/config.toml',
  'index.html',
  'vite.config.ts',
  'package-lock.json',
];

function newestModification(target) {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) {
    newest = Math.max(newest, newestModification(path.join(target, entry)));
  }
  return newest;
}

const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const changedAt = Math.max(...inputs.map((input) => newestModification(path.join(root, input))));
if (
  changedAt > builtAt ||
  !existsSync(path.join(root, 'dist', 'server', 'main.mjs')) ||
  !existsSync(path.join(root, 'dist', 'client', 'index.html'))
) {
  console.log('Building the site and server (sources changed since the last build)...');
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import(pathToFileURL(path.join(root, 'dist', 'server', 'main.mjs')).href);
