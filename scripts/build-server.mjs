// Bundles the server into one ES module (dist/server/main.mjs); packages stay in node_modules.
import { build } from 'esbuild';

await build({
  entryPoints: ['server/main.ts'],
  outdir: 'dist/server',
  outExtension: { '.js': '.mjs' },
  entryNames: '[name]',
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
