// `npm run gen:types`: writes src/lib/database.types.ts, the TypeScript types of
// the exposed schema (public) in the shape `supabase gen types typescript` gives.
//
// By default the schema comes from the migration files themselves: they are
// applied to a new embedded database in a temporary folder, so no server or
// PostgreSQL is needed and the result never depends on a local database's state.
//
//   npm run gen:types                          write the file
//   npm run gen:types -- --check               exit 1 if the file is out of date (CI)
//   npm run gen:types -- --db-url postgres://…  read a live database as it is (not migrated)
//   npm run gen:types -- --out path.ts         write elsewhere
//   npm run gen:types -- --postgrest-version 13  add __InternalSupabase.PostgrestVersion
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Database } from '../server/db/database';
import { migrate } from '../server/db/migrate';
import { migrationSources } from '../server/db/migration-sources';
import { generateDatabaseTypes } from '../server/schema/generate-database-types';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values: options } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    'db-url': { type: 'string' },
    out: { type: 'string', default: path.join(rootDir, 'src', 'lib', 'database.types.ts') },
    'postgrest-version': { type: 'string' },
  },
});

async function withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
  if (options['db-url']) {
    const { openPostgres } = await import('../server/db/postgres');
    const db = await openPostgres(options['db-url'], { maxConnections: 1 });
    try {
      return await work(db);
    } finally {
      await db.close();
    }
  }
  const { openPGlite } = await import('../server/db/pglite');
  const folder = await mkdtemp(path.join(tmpdir(), 'cervana-gen-types-'));
  const db = await openPGlite(path.join(folder, 'pgdata'));
  try {
    const quiet = { info: () => undefined, warn: (message: string) => console.warn(message) };
    await migrate(db, migrationSources(rootDir, path.join(rootDir, 'supabase')), quiet);
    return await work(db);
  } finally {
    await db.close();
    await rm(folder, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const types = await withDatabase((db) =>
    generateDatabaseTypes(db, { postgrestVersion: options['postgrest-version'] }),
  );
  const target = path.resolve(options.out);
  const relative = path.relative(process.cwd(), target);
  if (options.check) {
    const current = await readFile(target, 'utf8').catch(() => '');
    if (current === types) {
      console.log(`${relative} is up to date`);
      return 0;
    }
    console.error(`${relative} is out of date: run \`npm run gen:types\``);
    return 1;
  }
  await writeFile(target, types);
  console.log(`wrote ${relative}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
