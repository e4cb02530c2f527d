import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../db/migrate';
import { migrationSources } from '../db/migration-sources';
import { openPGlite } from '../db/pglite';
import { openPostgres } from '../db/postgres';
import { ROOT_DIR } from './root-dir';

/**
 * Migrated template databases, made once per test run and cloned per test:
 * creating a PGlite database takes seconds, copying a migrated one does not.
 */

export type TestDatabaseTemplate =
  | { kind: 'pglite'; templateDir: string }
  | { kind: 'postgres'; adminUrl: string; templateName: string; urlFor: string };

export const POSTGRES_TEMPLATE = 'cervana_template';

const silentLog = { info: () => undefined, warn: () => undefined };

/**
 * Run once on every template after its migrations. New workspaces get 240
 * sample calls (supabase/migrations/20261124001600_sample_calls.sql), which
 * costs each sign-up a few hundred milliseconds on PGlite: the hundreds of
 * users the other tests create skip it, and server/calls/sample-data.int.test.ts
 * switches it back on for itself. Part of the fingerprint, so a change rebuilds.
 */
const TEMPLATE_SETUP = 'update private.sample_data_settings set enabled = false';

async function migrationFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  const pglitePackage = await readFile(
    path.join(ROOT_DIR, 'node_modules', '@electric-sql', 'pglite', 'package.json'),
    'utf8',
  );
  hash.update(JSON.parse(pglitePackage).version);
  hash.update(TEMPLATE_SETUP);
  for (const source of migrationSources(ROOT_DIR, path.join(ROOT_DIR, 'supabase'))) {
    const files = existsSync(source.directory) ? (await readdir(source.directory)).sort() : [];
    for (const file of files) {
      hash.update(file);
      hash.update(await readFile(path.join(source.directory, file)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** A migrated PGlite folder, cached under node_modules/.cache until a migration changes. */
export async function preparePGliteTemplate(): Promise<string> {
  const cacheDir = path.join(ROOT_DIR, 'node_modules', '.cache', 'cervana-tests');
  const templateDir = path.join(cacheDir, `pglite-${await migrationFingerprint()}`);
  if (existsSync(path.join(templateDir, 'PG_VERSION'))) return templateDir;
  await mkdir(cacheDir, { recursive: true });
  const building = `${templateDir}.${process.pid}.tmp`;
  await rm(building, { recursive: true, force: true });
  const db = await openPGlite(building);
  try {
    await migrate(db, migrationSources(ROOT_DIR, path.join(ROOT_DIR, 'supabase')), silentLog);
    await db.exec(TEMPLATE_SETUP);
  } finally {
    await db.close();
  }
  try {
    await rename(building, templateDir);
  } catch (error) {
    // Another run finished first; its template is as good as ours.
    await rm(building, { recursive: true, force: true });
    if (!existsSync(path.join(templateDir, 'PG_VERSION'))) throw error;
  }
  return templateDir;
}

/** Creates and migrates the template database that each test's database copies. */
export async function preparePostgresTemplate(
  adminUrl: string,
  templateUrl: string,
): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${POSTGRES_TEMPLATE}`);
    await admin.query(`create database ${POSTGRES_TEMPLATE}`);
  } finally {
    await admin.end();
  }
  const db = await openPostgres(templateUrl, { maxConnections: 1 });
  try {
    await migrate(db, migrationSources(ROOT_DIR, path.join(ROOT_DIR, 'supabase')), silentLog);
    await db.exec(TEMPLATE_SETUP);
  } finally {
    await db.close();
  }
}

export async function copyPGliteTemplate(templateDir: string, target: string): Promise<void> {
  await cp(templateDir, target, { recursive: true });
}
