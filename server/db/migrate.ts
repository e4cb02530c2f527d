import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseError, yieldToEventLoop, type Database } from './database';

/**
 * Applies SQL migrations once each, in file-name order: first the platform's
 * (roles, service schemas), then the product's (`supabase/migrations`, the
 * Supabase CLI layout). Each file runs in its own transaction under an advisory
 * lock, so several servers starting at once apply it exactly once.
 */

export interface MigrationSource {
  /** `platform` or `product`; a version is unique within its scope. */
  scope: string;
  directory: string;
}

export interface Migration {
  scope: string;
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface MigrateResult {
  applied: Migration[];
  /** True when this run created the bookkeeping table: the database was empty. */
  isFreshDatabase: boolean;
}

const MIGRATION_LOCK_KEY = 7_274_221_901;
const FILE_PATTERN = /^(\d+)_([\w.-]+)\.sql$/;

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export async function readMigrations(source: MigrationSource): Promise<Migration[]> {
  let files: string[];
  try {
    files = await readdir(source.directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const migrations: Migration[] = [];
  for (const file of files.filter((name) => name.endsWith('.sql')).sort()) {
    const match = FILE_PATTERN.exec(file);
    if (!match) {
      throw new MigrationError(
        `Migration file name "${file}" in ${source.directory} must look like <version>_<name>.sql`,
      );
    }
    const sql = await readFile(path.join(source.directory, file), 'utf8');
    migrations.push({
      scope: source.scope,
      version: match[1]!,
      name: match[2]!,
      sql,
      checksum: createHash('sha256').update(sql).digest('hex'),
    });
  }
  const versions = new Set<string>();
  for (const migration of migrations) {
    if (versions.has(migration.version)) {
      throw new MigrationError(
        `Two migrations in ${source.directory} share the version ${migration.version}`,
      );
    }
    versions.add(migration.version);
  }
  return migrations;
}

interface AppliedRow {
  scope: string;
  version: string;
  checksum: string;
}

/** Every source's migrations, in order: platform first, then product. */
export async function readAllMigrations(sources: MigrationSource[]): Promise<Migration[]> {
  return (await Promise.all(sources.map(readMigrations))).flat();
}

const UNDEFINED_TABLE = '42P01';

/** What the bookkeeping table records: absent (`undefined`) when the table itself is missing. */
async function readApplied(db: Database): Promise<AppliedRow[] | undefined> {
  try {
    const result = await db.query<AppliedRow>(
      'select scope, version, checksum from cervana.schema_migrations',
    );
    return result.rows;
  } catch (error) {
    if (error instanceof DatabaseError && error.code === UNDEFINED_TABLE) return undefined;
    throw error;
  }
}

export interface MigrateOptions {
  /**
   * The migrations, when the caller read them already (`readAllMigrations`), e.g. while the
   * database was opening; read from `sources` otherwise.
   */
  migrations?: Promise<Migration[]> | Migration[];
}

export async function migrate(
  db: Database,
  sources: MigrationSource[],
  log: MigrationLog,
  options: MigrateOptions = {},
): Promise<MigrateResult> {
  const reading = Promise.resolve(options.migrations ?? readAllMigrations(sources));
  reading.catch(() => undefined); // awaited below, where a failure to read is reported
  // A restart's usual case in one statement: the table exists (no lock needed to read it; a
  // migration found pending is applied below under the lock, checked again there).
  let appliedRows = await readApplied(db);
  let isFreshDatabase = false;
  if (!appliedRows) {
    isFreshDatabase = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const existing = await tx.query<{ exists: boolean }>(
        `select to_regclass('cervana.schema_migrations') is not null as exists`,
      );
      if (existing.rows[0]?.exists) return false; // another server created it meanwhile
      await tx.exec(`
        create schema if not exists cervana;
        create table cervana.schema_migrations (
          scope text not null,
          version text not null,
          name text not null,
          checksum text not null,
          applied_at timestamptz not null default now(),
          primary key (scope, version)
        );
      `);
      return true;
    });
    appliedRows = (await readApplied(db)) ?? [];
  }
  const migrations = await reading;
  const applied = new Map(appliedRows.map((row) => [`${row.scope}/${row.version}`, row]));

  const pending: Migration[] = [];
  for (const migration of migrations) {
    const previous = applied.get(`${migration.scope}/${migration.version}`);
    if (!previous) pending.push(migration);
    else if (previous.checksum !== migration.checksum) {
      log.warn(
        `Migration ${migration.scope}/${migration.version}_${migration.name} changed after it was applied; ` +
          'the change is not applied. Write a new migration instead.',
      );
    }
  }

  const done: Migration[] = [];
  for (const migration of pending) {
    const label = `${migration.scope}/${migration.version}_${migration.name}`;
    const wasApplied = await db
      .transaction(async (tx) => {
        await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
        const again = await tx.query(
          'select 1 from cervana.schema_migrations where scope = $1 and version = $2',
          [migration.scope, migration.version],
        );
        if (again.rows.length > 0) return false; // another server applied it meanwhile
        await tx.exec(migration.sql);
        await tx.query(
          'insert into cervana.schema_migrations (scope, version, name, checksum) values ($1, $2, $3, $4)',
          [migration.scope, migration.version, migration.name, migration.checksum],
        );
        return true;
      })
      .catch((error: unknown) => {
        const reason =
          error instanceof DatabaseError
            ? `${error.message} (SQLSTATE ${error.code})`
            : String(error);
        throw new MigrationError(`Migration ${label} failed and was rolled back: ${reason}`);
      });
    if (wasApplied) {
      done.push(migration);
      log.info(`applied migration ${label}`);
    }
    await yieldToEventLoop();
  }
  // Servers already running on this database reload their data API's schema
  // cache, as PostgREST does on this notice.
  if (done.length > 0) await db.query(`notify pgrst, 'reload schema'`);
  return { applied: done, isFreshDatabase };
}
