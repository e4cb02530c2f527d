import { createHash } from 'node:crypto';
import { access, mkdir, readdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleFunction, isFunctionFolderName } from './bundle-function.mjs';
import { loadFunctionModule, type FunctionContext, type ServedFunction } from './runtime';

/**
 * Finds the functions in a folder and loads each on its first call.
 *
 * - `<name>/index.mjs`: a bundle made by `npm run build` (the built server's
 *   `dist/functions`), imported as it is.
 * - `<name>/index.ts`: a source (`supabase/functions` while developing, the
 *   test fixtures), bundled with esbuild exactly as the build does it, into
 *   node_modules/.cache (inside the project, so its packages resolve), under
 *   a name that is the hash of its code. When one of its sources changes, the
 *   next call bundles it again and runs the new code.
 */

const BOOT_TIMEOUT_MS = 10_000;
/** How often a source function's files are checked for changes, at most. */
const SOURCE_CHECK_INTERVAL_MS = 1000;
const SHIM_FILE = fileURLToPath(new URL('./deno-shim.ts', import.meta.url));
const CACHE_DIR = fileURLToPath(
  new URL('../../node_modules/.cache/cervana-functions/', import.meta.url),
);

export interface FunctionEntry {
  name: string;
  file: string;
  kind: 'built' | 'source';
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** The functions in `dir` by name (none when it does not exist). */
export async function discoverFunctions(dir: string): Promise<Map<string, FunctionEntry>> {
  const found = new Map<string, FunctionEntry>();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return found;
    throw error;
  }
  for (const name of names.sort()) {
    if (!isFunctionFolderName(name)) continue;
    const built = path.join(dir, name, 'index.mjs');
    const source = path.join(dir, name, 'index.ts');
    if (await exists(built)) found.set(name, { name, file: built, kind: 'built' });
    else if (await exists(source)) found.set(name, { name, file: source, kind: 'source' });
  }
  return found;
}

interface SourceBundle {
  url: string;
  inputs: { file: string; mtimeMs: number }[];
}

export interface FunctionLoader {
  /** What the function serves, loaded (or bundled again after a change) when needed. */
  served(context: FunctionContext): Promise<ServedFunction>;
}

export function createFunctionLoader(entry: FunctionEntry): FunctionLoader {
  if (entry.kind === 'built') {
    const url = pathToFileURL(entry.file).href;
    return { served: (context) => loadFunctionModule(url, context, BOOT_TIMEOUT_MS) };
  }
  let bundle: Promise<SourceBundle> | undefined;
  let checkedAt = 0;
  return {
    async served(context) {
      if (bundle && Date.now() - checkedAt > SOURCE_CHECK_INTERVAL_MS) {
        checkedAt = Date.now();
        const current = await bundle.catch(() => undefined);
        if (!current || (await hasChanged(current))) bundle = undefined;
      }
      if (!bundle) {
        checkedAt = Date.now();
        bundle = bundleSource(entry);
      }
      const { url } = await bundle;
      return loadFunctionModule(url, context, BOOT_TIMEOUT_MS);
    },
  };
}

async function hasChanged(bundle: SourceBundle): Promise<boolean> {
  for (const input of bundle.inputs) {
    const info = await stat(input.file).catch(() => undefined);
    if (!info || info.mtimeMs !== input.mtimeMs) return true;
  }
  return false;
}

async function bundleSource(entry: FunctionEntry): Promise<SourceBundle> {
  const { code, inputs } = await bundleFunction({
    entry: entry.file,
    shim: SHIM_FILE,
    sourcemap: 'inline',
  });
  const stamped = await Promise.all(
    inputs.map(async (file) => ({ file, mtimeMs: (await stat(file)).mtimeMs })),
  );
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const file = path.join(CACHE_DIR, `${entry.name}-${hash}.mjs`);
  if (!(await exists(file))) {
    await mkdir(CACHE_DIR, { recursive: true });
    // Written whole, then renamed: another process may be bundling the same code at once.
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(partial, code);
    await rename(partial, file);
  }
  return { url: pathToFileURL(file).href, inputs: stamped };
}
