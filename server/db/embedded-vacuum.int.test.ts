import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { cloneTestDatabase, testDatabaseKind, type TestDatabase } from '../testing/harness';
import { startEmbeddedVacuum, vacuumEmbeddedDatabase } from './embedded-vacuum';

/**
 * The embedded database has no autovacuum (single-user PostgreSQL): the server's own
 * pass keeps a table that is updated over and over from growing, brings the planner's
 * statistics up to date, and lets requests in between its tables.
 */

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await cloneTestDatabase();
});
afterAll(() => testDatabase.drop());

async function sizeOf(table: string): Promise<number> {
  const { rows } = await testDatabase.db.query<{ size: number }>(
    `select pg_total_relation_size($1::regclass)::int as size`,
    [table],
  );
  return rows[0]!.size;
}

async function updateAll(table: string, times: number): Promise<void> {
  for (let round = 0; round < times; round += 1) {
    await testDatabase.db.query(`update ${table} set counter = counter + 1`);
  }
}

describe.runIf(testDatabaseKind() === 'pglite')('vacuuming the embedded database', () => {
  it('keeps an often-updated table from growing, and analyzes it', async () => {
    const { db } = testDatabase;
    await db.exec(`
      create table public.churn (id int primary key, counter int not null, note text);
      insert into public.churn select g, 0, repeat('x', 40) from generate_series(1, 2000) g;`);
    await updateAll('public.churn', 10);
    const grown = await sizeOf('public.churn');
    // Nothing else reclaims the dead rows: ten more rounds of updates make it grow again.
    await updateAll('public.churn', 10);
    const unvacuumed = await sizeOf('public.churn');
    expect(unvacuumed).toBeGreaterThan(grown * 1.5);

    const pass = await vacuumEmbeddedDatabase(db);
    expect(pass.tables).toBeGreaterThan(50); // ours, auth, storage, realtime and the catalogs
    // After a pass the space of the dead rows is used again: ten more rounds stay within it.
    await updateAll('public.churn', 10);
    expect(await sizeOf('public.churn')).toBeLessThanOrEqual(unvacuumed * 1.05);

    const { rows } = await db.query<{ analyzed: boolean; rows: number }>(
      `select last_analyze is not null as analyzed, reltuples::int as rows
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid
       where s.relname = 'churn'`,
    );
    expect(rows[0]).toEqual({ analyzed: true, rows: 2000 });
  });

  it('runs between requests: a transaction in progress finishes, and queries go on meanwhile', async () => {
    const { db } = testDatabase;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query('update public.churn set counter = counter + 1 where id = 1');
      await held;
      await tx.query('update public.churn set counter = counter + 1 where id = 2');
    });
    const vacuum = startEmbeddedVacuum(db, {
      intervalMs: 3_600_000,
      logger: await createLogger({ level: 'silent', format: 'json' }),
    });
    const pass = vacuum.runNow();
    setTimeout(release, 100);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        db.query<{ n: number }>('select count(*)::int as n from public.churn'),
      ),
    );
    expect(answers.map((answer) => answer.rows[0]!.n)).toEqual([2000, 2000, 2000, 2000, 2000]);
    await transaction;
    expect((await pass)?.tables).toBeGreaterThan(50);
    await vacuum.stop();
    const { rows } = await db.query<{ counter: number }>(
      'select counter from public.churn where id in (1, 2) order by id',
    );
    expect(rows.map((row) => row.counter)).toEqual([31, 31]);
  });

  it('stops after the table in progress when the server stops', async () => {
    const vacuum = startEmbeddedVacuum(testDatabase.db, {
      intervalMs: 3_600_000,
      logger: await createLogger({ level: 'silent', format: 'json' }),
    });
    const pass = vacuum.runNow();
    await vacuum.stop();
    expect((await pass)?.tables ?? 0).toBeLessThan(5);
  });
});
