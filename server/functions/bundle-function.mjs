// Bundles one edge function (`supabase/functions/<name>/index.ts`, Deno-style TypeScript) into an
// ES module Node can import: the server does it on first call while developing (loader.ts) and
// `scripts/build-server.mjs` does it ahead of time into dist/functions/<name>/index.mjs. Plain
// JavaScript so the build script can import it without a TypeScript loader.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** A function's name: a URL path segment and a folder name, nothing that could climb out. */
export const FUNCTION_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether a folder under the functions folder is a function (`_shared`, `.x` and bad names are not). */
export function isFunctionFolderName(name) {
  return FUNCTION_NAME_PATTERN.test(name) && !name.startsWith('_');
}

/** `npm:@scope/pkg@1.2.3/sub` -> `@scope/pkg/sub`: the package, resolved from node_modules. */
export function npmSpecifierToBare(specifier) {
  const match = /^npm:\/?(@[^/@]+\/[^/@]+|[^/@]+)(?:@[^/]*)?(\/.*)?$/.exec(specifier);
  if (!match) throw new Error(`cannot read the npm specifier "${specifier}"`);
  return `${match[1]}${match[2] ?? ''}`;
}

/** The `imports` of the function's deno.json (its import map for Deno), or an empty map. */
async function readImportMap(folder) {
  let text;
  try {
    text = await readFile(path.join(folder, 'deno.json'), 'utf8');
  } catch (error) {
    if (error && error.code === 'ENOENT') return {};
    throw error;
  }
  const json = JSON.parse(text);
  return json && typeof json.imports === 'object' && json.imports !== null ? json.imports : {};
}

/** What an import-map entry turns `specifier` into, or undefined when none applies. */
function mapSpecifier(imports, specifier) {
  if (typeof imports[specifier] === 'string') return imports[specifier];
  let best;
  for (const key of Object.keys(imports)) {
    if (key.endsWith('/') && specifier.startsWith(key) && (!best || key.length > best.length)) {
      best = key;
    }
  }
  return best === undefined ? undefined : imports[best] + specifier.slice(best.length);
}

/**
 * Deno's specifiers, as esbuild should read them: the deno.json import map
 * applies first; `npm:` becomes the package in node_modules (kept external,
 * so the server's own copy runs); `jsr:` and URL imports are refused (map
 * them to `npm:` in deno.json instead).
 */
function denoSpecifiers(importMap, mapFolder) {
  return {
    name: 'deno-specifiers',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const mapped = mapSpecifier(importMap, args.path) ?? args.path;
        if (mapped.startsWith('npm:')) return { path: npmSpecifierToBare(mapped), external: true };
        if (/^(jsr:|https?:)/.test(mapped)) {
          return {
            errors: [
              {
                text: `"${args.path}" cannot be loaded on Cervana's server: map it to an npm: package in deno.json`,
              },
            ],
          };
        }
        if (mapped === args.path) return undefined;
        if (mapped.startsWith('.') || mapped.startsWith('/')) {
          return { path: path.resolve(mapFolder, mapped) };
        }
        return { path: mapped, external: true };
      });
    },
  };
}

/**
 * Bundles `entry` with `shim` injected (every free `Deno` becomes the shim's
 * export, so the server's process has no global `Deno`). Packages stay
 * external: they resolve from the project's node_modules wherever the bundle
 * is written inside the project. Returns the code and the source files read.
 */
export async function bundleFunction({ entry, shim, sourcemap = 'inline' }) {
  const { build } = await import('esbuild');
  const folder = path.dirname(entry);
  const importMap = await readImportMap(folder);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    outfile: 'index.mjs',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    inject: [shim],
    sourcemap,
    legalComments: 'none',
    logLevel: 'silent',
    metafile: true,
    plugins: [denoSpecifiers(importMap, folder)],
  });
  const code = result.outputFiles.find((file) => file.path.endsWith('.mjs'));
  const map = result.outputFiles.find((file) => file.path.endsWith('.map'));
  return {
    code: code ? code.text : '',
    map: map ? map.text : undefined,
    inputs: Object.keys(result.metafile.inputs).map((input) => path.resolve(input)),
  };
}
