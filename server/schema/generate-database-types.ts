import type { Queryable } from '../db/database';
import { introspectSchema } from './introspect-schema';
import { renderDatabaseTypes, type RenderOptions } from './render-database-types';

/**
 * Tooling over the product schema, not loaded by the running server: the
 * `src/lib/database.types.ts` text for a migrated database (`npm run gen:types`).
 */

export const DATABASE_TYPES_HEADER =
  '// Generated from the database schema by `npm run gen:types` (scripts/gen-types.ts). Do not edit.';

export async function generateDatabaseTypes(
  db: Queryable,
  options: Omit<RenderOptions, 'header'> & { schemas?: readonly string[] } = {},
): Promise<string> {
  const snapshot = await introspectSchema(db, options.schemas ?? ['public']);
  return renderDatabaseTypes(snapshot, {
    postgrestVersion: options.postgrestVersion,
    header: DATABASE_TYPES_HEADER,
  });
}
