// Bundles the server into ES modules (dist/server/main.mjs, chunks, the password worker at
// dist/server/auth/password-worker.mjs and the image-render worker at
// dist/server/storage/render-worker.mjs); packages stay in node_modules.
import { rm } from 'node:fs/promises';
import { build } from 'esbuild';

// Stale chunks from earlier builds would otherwise pile up.
await rm('dist/server', { recursive: true, force: true });

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
