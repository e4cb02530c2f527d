// `npm run gen:types`: writes src/lib/database.types.ts, the TypeScript types of
// the exposed schema (public) in the shape `supabase gen types typescript` gives,
// and src/config/partner-tiers.ts, the partner program's tiers as the database
// holds them (decision 028).
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
import { generatePartnerTiers } from '../server/schema/generate-partner-tiers';

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
  const [types, tiers] = await withDatabase(async (db) => [
    await generateDatabaseTypes(db, { postgrestVersion: options['postgrest-version'] }),
    await generatePartnerTiers(db),
  ]);
  const outputs: [string, string][] = [
    [path.resolve(options.out), types],
    [path.join(rootDir, 'src', 'config', 'partner-tiers.ts'), tiers],
  ];
  let stale = 0;
  for (const [target, content] of outputs) {
    const relative = path.relative(process.cwd(), target);
    if (options.check) {
      const current = await readFile(target, 'utf8').catch(() => '');
      if (current === content) {
        console.log(`${relative} is up to date`);
      } else {
        console.error(`${relative} is out of date: run \`npm run gen:types\``);
        stale += 1;
      }
      continue;
    }
    await writeFile(target, content);
    console.log(`wrote ${relative}`);
  }
  return stale === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
