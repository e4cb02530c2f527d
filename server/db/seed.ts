import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Database } from './database';
import type { MigrationLog } from './migrate';

/**
 * Loads the labelled sample data (`supabase/seed.sql`) once per database.
 * Recorded beside the migrations, so a restart never loads it twice.
 */
export async function seedSampleData(
  db: Database,
  seedFile: string,
  log: MigrationLog,
): Promise<boolean> {
  let sql: string;
  try {
    sql = await readFile(seedFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const checksum = createHash('sha256').update(sql).digest('hex');
  return db.transaction(async (tx) => {
    const seeded = await tx.query(
      `select 1 from cervana.schema_migrations where scope = 'seed' and version = '0'`,
    );
    if (seeded.rows.length > 0) return false;
    await tx.exec(sql);
    await tx.query(
      `insert into cervana.schema_migrations (scope, version, name, checksum) values ('seed', '0', 'seed', $1)`,
      [checksum],
    );
    log.info('loaded the sample data (supabase/seed.sql)');
    return true;
  });
}
