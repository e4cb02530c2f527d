import { readFile } from 'node:fs/promises';
import { parse, TomlError } from 'smol-toml';
import { ConfigError } from '../config';

/**
 * Per-function settings from `supabase/config.toml`, the file the Supabase CLI
 * reads when it deploys (`[functions.<name>]`). Two keys are honoured, with
 * Supabase's defaults:
 * - `verify_jwt` (default true): the gateway refuses a call without a valid
 *   JWT of this project before the function runs;
 * - `enabled` (default true): false serves the function as if it did not exist.
 * Every other key (`import_map`, `entrypoint`, `static_files`…) is the CLI's
 * business and is ignored here.
 */

export interface FunctionSettings {
  verifyJwt: boolean;
  enabled: boolean;
}

export const DEFAULT_FUNCTION_SETTINGS: Readonly<FunctionSettings> = Object.freeze({
  verifyJwt: true,
  enabled: true,
});

/** Settings by function name, from TOML text; throws ConfigError naming the file and the problem. */
export function parseFunctionSettings(
  text: string,
  file = 'config.toml',
): Map<string, FunctionSettings> {
  let document: Record<string, unknown>;
  try {
    document = parse(text) as Record<string, unknown>;
  } catch (error) {
    const detail =
      error instanceof TomlError ? `line ${error.line}: ${error.message}` : String(error);
    throw new ConfigError(`${file} is not valid TOML (${detail.split('\n')[0]})`, { cause: error });
  }
  const settings = new Map<string, FunctionSettings>();
  const functions = document.functions;
  if (functions === undefined) return settings;
  if (!isTable(functions)) throw new ConfigError(`${file}: [functions] must be a table`);
  for (const [name, table] of Object.entries(functions)) {
    if (!isTable(table)) throw new ConfigError(`${file}: [functions.${name}] must be a table`);
    settings.set(name, {
      verifyJwt: readBoolean(table, 'verify_jwt', name, file),
      enabled: readBoolean(table, 'enabled', name, file),
    });
  }
  return settings;
}

/** Settings from a file; a missing file means every function has the defaults. */
export async function readFunctionSettings(file: string): Promise<Map<string, FunctionSettings>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  return parseFunctionSettings(text, file);
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readBoolean(
  table: Record<string, unknown>,
  key: 'verify_jwt' | 'enabled',
  name: string,
  file: string,
): boolean {
  const value = table[key];
  if (value === undefined)
    return DEFAULT_FUNCTION_SETTINGS[key === 'verify_jwt' ? 'verifyJwt' : key];
  if (typeof value !== 'boolean') {
    throw new ConfigError(`${file}: [functions.${name}] ${key} must be true or false`);
  }
  return value;
}
