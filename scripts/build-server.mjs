// Bundles the server into ES modules (dist/server/main.mjs, chunks, the password worker at
// dist/server/auth/password-worker.mjs and the image-render worker at
// dist/server/storage/render-worker.mjs); packages stay in node_modules.
// Then bundles every edge function, supabase/functions/<name>/index.ts, into
// dist/functions/<name>/index.mjs (as the server does on first call while developing, see
// server/functions/loader.ts), beside a copy of supabase/config.toml (verify_jwt).
import { access, copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { bundleFunction, isFunctionFolderName } from '../server/functions/bundle-function.mjs';

// Stale chunks from earlier builds would otherwise pile up.
await rm('dist/server', { recursive: true, force: true });
await rm('dist/functions', { recursive: true, force: true });
await rm('dist/config.toml', { force: true });

await build({
  // The password, database and image-render workers are their own entries: worker threads and
  // render processes load them by path (server/auth/passwords.ts, server/db/pglite.ts,
  // server/storage/render-pool.ts).
  entryPoints: [
    'server/main.ts',
    'server/auth/password-worker.mjs',
    'server/db/pglite-worker.ts',
    'server/storage/render-worker.mjs',
  ],
  outdir: 'dist/server',
  outbase: 'server',
  outExtension: { '.js': '.mjs' },
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
});
console.log('built dist/server/main.mjs');

const functionsDir = path.join('supabase', 'functions');
const names = (await readdir(functionsDir, { withFileTypes: true }).catch(() => []))
  .filter((entry) => entry.isDirectory() && isFunctionFolderName(entry.name))
  .map((entry) => entry.name)
  .sort();
let built = 0;
for (const name of names) {
  const entry = path.join(functionsDir, name, 'index.ts');
  // A folder without index.ts is not a function (the server skips it too).
  if (
    !(await access(entry).then(
      () => true,
      () => false,
    ))
  )
    continue;
  const bundle = await bundleFunction({
    entry,
    shim: path.join('server', 'functions', 'deno-shim.ts'),
    sourcemap: 'linked',
  });
  const outDir = path.join('dist', 'functions', name);
  await mkdir(outDir, { recursive: true });
  await writeFile(path.join(outDir, 'index.mjs'), bundle.code);
  if (bundle.map) await writeFile(path.join(outDir, 'index.mjs.map'), bundle.map);
  built += 1;
}
await copyFile(path.join('supabase', 'config.toml'), path.join('dist', 'config.toml')).catch(
  (error) => {
    if (error.code !== 'ENOENT') throw error;
  },
);
console.log(`built ${built} edge function${built === 1 ? '' : 's'} into dist/functions`);
