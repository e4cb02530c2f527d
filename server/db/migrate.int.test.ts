import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneTestDatabase, type TestDatabase } from '../testing/harness';
import { MigrationError, migrate, readMigrations } from './migrate';
import { withRequestContext } from './request-context';

let testDatabase: TestDatabase;
let folder: string;
const log = {
  messages: [] as string[],
  info: () => undefined,
  warn: (m: string) => log.messages.push(m),
};

beforeAll(async () => {
  testDatabase = await cloneTestDatabase();
  folder = await mkdtemp(path.join(tmpdir(), 'cervana-migrations-'));
});
afterAll(async () => {
  await testDatabase.drop();
  await rm(folder, { recursive: true, force: true });
});

async function write(name: string, sql: string) {
  await writeFile(path.join(folder, name), sql);
}

describe('the platform migrations', () => {
  it('created the API roles, with BYPASSRLS only for service_role', async () => {
    const { rows } = await testDatabase.db.query<{
      rolname: string;
      rolbypassrls: boolean;
      rolcanlogin: boolean;
    }>(
      `select rolname, rolbypassrls, rolcanlogin from pg_roles
       where rolname in ('anon', 'authenticated', 'service_role') order by rolname`,
    );
    expect(rows).toEqual([
      { rolname: 'anon', rolbypassrls: false, rolcanlogin: false },
      { rolname: 'authenticated', rolbypassrls: false, rolcanlogin: false },
      { rolname: 'service_role', rolbypassrls: true, rolcanlogin: false },
    ]);
  });

  it('created the service schemas', async () => {
    const { rows } = await testDatabase.db.query<{ nspname: string }>(
      `select nspname from pg_namespace where nspname in ('auth', 'storage', 'realtime', 'extensions') order by 1`,
    );
    expect(rows.map((row) => row.nspname)).toEqual(['auth', 'extensions', 'realtime', 'storage']);
  });

  it('gives new public tables to the API roles by default (Supabase grants)', async () => {
    await testDatabase.db.exec('create table public.granted_by_default (id int)');
    const { rows } = await testDatabase.db.query<{ role: string; ok: boolean }>(`
      select r as role, has_table_privilege(r, 'public.granted_by_default', 'select, insert, update, delete') as ok
      from unnest(array['anon', 'authenticated', 'service_role']) r order by r`);
    expect(rows.every((row) => row.ok)).toBe(true);
    const seen = await withRequestContext(
      testDatabase.db,
      { role: 'anon', claims: {}, method: 'GET', path: '/', headers: {} },
      async (tx) => (await tx.query('select * from public.granted_by_default')).rowCount,
    );
    expect(seen).toBe(0);
  });

  it('defines auth.uid() to read sub from the legacy setting first, then the claims', async () => {
    const { rows } = await testDatabase.db.query<{ uid: string }>(`
      select set_config('request.jwt.claims', '{"sub":"33333333-3333-4333-8333-333333333333"}', false),
             auth.uid() as uid`);
    expect(rows[0]?.uid).toBe('33333333-3333-4333-8333-333333333333');
    await testDatabase.db.query(`select set_config('request.jwt.claims', '', false)`);
  });
});

describe('migrate', () => {
  it('applies new migrations once each, in file-name order, and records them', async () => {
    await write(
      '20260101000000_create_things.sql',
      'create table public.things (id int primary key);',
    );
    await write('20260102000000_add_name.sql', 'alter table public.things add column name text;');
    const source = { scope: 'test', directory: folder };
    // Servers already running hear that the schema changed, once per start that changed it.
    const notices: string[] = [];
    const unlisten = await testDatabase.db.listen('pgrst', (payload) => notices.push(payload));
    const first = await migrate(testDatabase.db, [source], log);
    expect(first.isFreshDatabase).toBe(false);
    expect(first.applied.map((m) => m.name)).toEqual(['create_things', 'add_name']);
    await expect.poll(() => notices, { timeout: 5000 }).toEqual(['reload schema']);
    const second = await migrate(testDatabase.db, [source], log);
    expect(second.applied).toEqual([]);
    await testDatabase.db.query(`select pg_notify('pgrst', 'marker')`);
    await expect.poll(() => notices, { timeout: 5000 }).toEqual(['reload schema', 'marker']);
    await unlisten();
    const recorded = await testDatabase.db.query<{ version: string }>(
      `select version from cervana.schema_migrations where scope = 'test' order by version`,
    );
    expect(recorded.rows.map((row) => row.version)).toEqual(['20260101000000', '20260102000000']);
  });

  it('rolls a failing migration back whole and records nothing', async () => {
    await write(
      '20260103000000_half_broken.sql',
      'create table public.half (id int); insert into public.no_such_table values (1);',
    );
    const attempt = migrate(testDatabase.db, [{ scope: 'test', directory: folder }], log);
    await expect(attempt).rejects.toBeInstanceOf(MigrationError);
    await expect(attempt).rejects.toThrow(
      /20260103000000_half_broken failed and was rolled back: .*no_such_table/,
    );
    const half = await testDatabase.db.query(`select to_regclass('public.half') as t`);
    expect(half.rows[0]).toEqual({ t: null });
    const recorded = await testDatabase.db.query(
      `select 1 from cervana.schema_migrations where scope = 'test' and version = '20260103000000'`,
    );
    expect(recorded.rowCount).toBe(0);
    await rm(path.join(folder, '20260103000000_half_broken.sql'));
  });

  it('applies each migration once when several servers start together', async () => {
    await write(
      '20260104000000_counter.sql',
      `
      create table if not exists public.applied_counter (n int);
      insert into public.applied_counter values (1);`,
    );
    const source = { scope: 'test', directory: folder };
    const results = await Promise.all([1, 2, 3].map(() => migrate(testDatabase.db, [source], log)));
    expect(results.flatMap((result) => result.applied.map((m) => m.name))).toEqual(['counter']);
    const { rows } = await testDatabase.db.query<{ n: number }>(
      'select count(*)::int as n from public.applied_counter',
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('warns when an applied migration was edited, and does not re-apply it', async () => {
    await write(
      '20260101000000_create_things.sql',
      'create table public.things (id int primary key); -- edited',
    );
    log.messages.length = 0;
    const result = await migrate(testDatabase.db, [{ scope: 'test', directory: folder }], log);
    expect(result.applied).toEqual([]);
    expect(log.messages.join('\n')).toMatch(
      /test\/20260101000000_create_things changed after it was applied/,
    );
  });

  it('refuses badly named files and duplicate versions', async () => {
    const bad = await mkdtemp(path.join(tmpdir(), 'cervana-bad-'));
    try {
      await writeFile(path.join(bad, 'create.sql'), 'select 1');
      await expect(readMigrations({ scope: 'x', directory: bad })).rejects.toThrow(
        /must look like/,
      );
      await rm(path.join(bad, 'create.sql'));
      await writeFile(path.join(bad, '1_a.sql'), 'select 1');
      await writeFile(path.join(bad, '1_b.sql'), 'select 1');
      await expect(readMigrations({ scope: 'x', directory: bad })).rejects.toThrow(
        /share the version 1/,
      );
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  });
});
