import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneTestDatabase, testDatabaseKind, type TestDatabase } from '../testing/harness';
import { DatabaseError } from './database';

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await cloneTestDatabase();
});
afterAll(() => testDatabase.drop());

describe('the database port', () => {
  it('binds parameters and returns rows and counts', async () => {
    const { db } = testDatabase;
    await db.exec(`
      create table port_items (id serial primary key, name text not null);
      insert into port_items (name) values ('a'), ('b');
    `);
    const selected = await db.query<{ name: string }>(
      'select name from port_items where name = any($1) order by name',
      [['a', 'b', "c'); drop table port_items; --"]],
    );
    expect(selected.rows).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(selected.fields.map((field) => field.name)).toEqual(['name']);
    const updated = await db.query(`update port_items set name = name || '!'`);
    expect(updated.rowCount).toBe(2);
  });

  it('returns the same JavaScript values from both engines', async () => {
    const { rows } = await testDatabase.db.query<Record<string, unknown>>(`
      select 42::int4 as int4, 9007199254740993::int8 as big, 7::int8 as small,
             12.50::numeric as amount, true as flag, 'x'::text as text,
             '{"a":[1,2]}'::jsonb as doc, '2026-01-02 03:04:05.678+00'::timestamptz as at,
             '2026-01-02'::date as day, array[1,2]::int4[] as list, null::text as nothing,
             '00000000-0000-0000-0000-000000000001'::uuid as id
    `);
    expect(rows[0]).toEqual({
      int4: 42,
      big: '9007199254740993',
      small: 7,
      amount: '12.50',
      flag: true,
      text: 'x',
      doc: { a: [1, 2] },
      at: expect.stringMatching(/^2026-01-02 03:04:05\.678\+00(:00)?$/),
      day: '2026-01-02',
      list: [1, 2],
      nothing: null,
      id: '00000000-0000-0000-0000-000000000001',
    });
  });

  it('commits a transaction and rolls one back on error', async () => {
    const { db } = testDatabase;
    await db.exec('create table port_ledger (amount int not null check (amount > 0))');
    await db.transaction(async (tx) => {
      await tx.query('insert into port_ledger values ($1)', [5]);
      await tx.query('insert into port_ledger values ($1)', [7]);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into port_ledger values ($1)', [100]);
        await tx.query('insert into port_ledger values ($1)', [-1]);
      }),
    ).rejects.toBeInstanceOf(DatabaseError);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into port_ledger values ($1)', [200]);
        throw new Error('not a database error');
      }),
    ).rejects.toThrow('not a database error');
    const { rows } = await db.query<{ total: number }>(
      'select sum(amount)::int as total from port_ledger',
    );
    expect(rows[0]?.total).toBe(12);
  });

  it('reports SQLSTATE, detail and constraint in a DatabaseError', async () => {
    const { db } = testDatabase;
    await db.exec('create table port_unique (email text constraint port_unique_email unique)');
    await db.query(`insert into port_unique values ('a@example.com')`);
    const error = await db
      .query(`insert into port_unique values ('a@example.com')`)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatabaseError);
    expect(error).toMatchObject({ code: '23505', constraint: 'port_unique_email' });
    expect((error as DatabaseError).detail).toContain('a@example.com');
    await expect(db.query('select * from no_such_table')).rejects.toMatchObject({ code: '42P01' });
  });

  it('runs multi-statement scripts with exec', async () => {
    const { db } = testDatabase;
    await db.exec(
      `create table port_script (n int); insert into port_script values (1); insert into port_script values (2);`,
    );
    const { rows } = await db.query<{ count: number }>(
      'select count(*)::int as count from port_script',
    );
    expect(rows[0]?.count).toBe(2);
  });

  it('delivers NOTIFY payloads to listeners until they unlisten', async () => {
    const { db } = testDatabase;
    const received: string[] = [];
    const unlisten = await db.listen('port_events', (payload) => received.push(payload));
    await db.query(`select pg_notify('port_events', 'first')`);
    await expect.poll(() => received, { timeout: 5000 }).toEqual(['first']);
    await unlisten();
    await db.query(`select pg_notify('port_events', 'second')`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toEqual(['first']);
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'listens again when its connection is cut, and says so to catch up',
    async () => {
      const { db } = testDatabase;
      const received: string[] = [];
      let reconnects = 0;
      const unlisten = await db.listen('port_cut', (payload) => received.push(payload), {
        onReconnect: () => (reconnects += 1),
      });
      await db.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where application_name = 'cervana-listen' and datname = current_database()`,
      );
      await expect.poll(() => reconnects, { timeout: 10_000 }).toBe(1);
      await db.query(`select pg_notify('port_cut', 'after')`);
      await expect.poll(() => received, { timeout: 5000 }).toEqual(['after']);
      await unlisten();
    },
  );

  it('lets timers run while a long chain of queries goes on', async () => {
    const { db } = testDatabase;
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 1);
    const started = Date.now();
    let queries = 0;
    while (Date.now() - started < 300) {
      await db.query('select 1');
      queries += 1;
    }
    clearInterval(timer);
    expect(queries).toBeGreaterThan(10);
    expect(ticks).toBeGreaterThan(20);
  });
});
