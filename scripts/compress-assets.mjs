// Writes .br and .gz beside every compressible file of the built site, once, at build time.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
// HTML, XML and text carry the __SITE_URL__ placeholder: the server compresses them once filled in.
const COMPRESSIBLE = /\.(js|mjs|css|json|svg|webmanifest|map|ico|vtt)$/i;
const MIN_BYTES = 512;

async function* files(directory) {
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

const root = process.argv[2];
if (!root) throw new Error('usage: compress-assets.mjs <directory>');
let count = 0;
let before = 0;
let after = 0;
for await (const file of files(root)) {
  if (!COMPRESSIBLE.test(file)) continue;
  const contents = await readFile(file);
  if (contents.length < MIN_BYTES) continue;
  const [br, gz] = await Promise.all([
    brotli(contents, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: contents.length,
      },
    }),
    gzipAsync(contents, { level: 9 }),
  ]);
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
  count += 1;
  before += contents.length;
  after += br.length;
}
console.log(
  `compressed ${count} files: ${(before / 1024).toFixed(1)} KiB -> ${(after / 1024).toFixed(1)} KiB brotli`,
);
