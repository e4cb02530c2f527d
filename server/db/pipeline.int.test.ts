import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneTestDatabase, type TestDatabase } from '../testing/harness';
import { DatabaseError } from './database';
import { pipelineInRequestContext, type RequestContext } from './request-context';

let testDatabase: TestDatabase;
const alice = '11111111-1111-4111-8111-111111111111';
const bob = '22222222-2222-4222-8222-222222222222';

beforeAll(async () => {
  testDatabase = await cloneTestDatabase();
  await testDatabase.db.exec(`
    create table public.pipeline_notes (id serial primary key, owner uuid not null, body text not null check (body <> ''));
    alter table public.pipeline_notes enable row level security;
    grant select, insert on public.pipeline_notes to authenticated;
    grant usage on sequence public.pipeline_notes_id_seq to authenticated;
    create policy "owners read" on public.pipeline_notes for select to authenticated
      using (owner = auth.uid());
    create policy "owners write" on public.pipeline_notes for insert to authenticated
      with check (owner = auth.uid());
    insert into public.pipeline_notes (owner, body) values ('${alice}', 'alice 1'), ('${bob}', 'bob 1');
  `);
});
afterAll(() => testDatabase.drop());

function asUser(sub: string, readOnly = false): RequestContext {
  return {
    role: 'authenticated',
    claims: { sub, role: 'authenticated' },
    method: readOnly ? 'GET' : 'POST',
    path: '/pipeline_notes',
    headers: {},
    readOnly,
  };
}

describe('db.pipeline', () => {
  it('answers every statement in order, with typed rows and counts', async () => {
    const results = await testDatabase.db.pipeline([
      { sql: 'select $1::int + 1 as n, $2::text as t, null::text as empty', params: ['41', 'x'] },
      { sql: 'select generate_series(1, $1::int) as i', params: [3] },
      { sql: 'select 1 where false', params: [] },
    ]);
    expect(results.map((result) => result.rows)).toEqual([
      [{ n: 42, t: 'x', empty: null }],
      [{ i: 1 }, { i: 2 }, { i: 3 }],
      [],
    ]);
    expect(results.map((result) => result.rowCount)).toEqual([1, 3, 0]);
    expect(results[0]!.fields.map((field) => field.name)).toEqual(['n', 't', 'empty']);
  });

  it('runs as one transaction: a failing statement undoes the ones before it', async () => {
    const error = await testDatabase.db
      .pipeline([
        {
          sql: 'insert into public.pipeline_notes (owner, body) values ($1, $2)',
          params: [alice, 'kept?'],
        },
        {
          sql: 'insert into public.pipeline_notes (owner, body) values ($1, $2)',
          params: [alice, ''],
        },
      ])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatabaseError);
    expect((error as DatabaseError).code).toBe('23514');
    const { rows } = await testDatabase.db.query(
      `select count(*)::int as n from public.pipeline_notes where body = 'kept?'`,
    );
    expect(rows).toEqual([{ n: 0 }]);
    // The connection is usable afterwards, and nothing of the failed transaction lingers.
    const [after] = await testDatabase.db.pipeline([
      { sql: `select current_setting('transaction_read_only') as ro`, params: [] },
    ]);
    expect(after!.rows).toEqual([{ ro: 'off' }]);
  });

  it('refuses a parameter it cannot send as text', async () => {
    await expect(
      testDatabase.db.pipeline([{ sql: 'select $1::jsonb', params: [{ a: 1 }] }]),
    ).rejects.toThrow(TypeError);
  });
});

describe('prepared statements of pipelines', () => {
  const preparedCount = (text: string) => ({
    sql: `select count(*)::int as n from pg_prepared_statements where statement = $1 and name like 'cervana\\_%'`,
    params: [text],
  });

  it('prepares a statement once and binds it by name after that', async () => {
    const text = `select $1::int * 2 as doubled -- prepared once`;
    const [first] = await testDatabase.db.pipeline([{ sql: text, params: ['21'] }]);
    expect(first!.rows).toEqual([{ doubled: 42 }]);
    // The same connection (PGlite has one; PostgreSQL reuses the idle one) knows it by name now.
    const [again, prepared] = await testDatabase.db.pipeline([
      { sql: text, params: ['4'] },
      preparedCount(text),
    ]);
    expect(again!.rows).toEqual([{ doubled: 8 }]);
    expect(prepared!.rows).toEqual([{ n: 1 }]);
  });

  it('leaves nothing prepared of a pipeline that failed', async () => {
    const text = `select 1 / $1::int as quotient -- fails`;
    await expect(testDatabase.db.pipeline([{ sql: text, params: ['0'] }])).rejects.toMatchObject({
      code: '22012',
    });
    const [prepared] = await testDatabase.db.pipeline([preparedCount(text)]);
    expect(prepared!.rows).toEqual([{ n: 0 }]);
    const [works] = await testDatabase.db.pipeline([{ sql: text, params: ['1'] }]);
    expect(works!.rows).toEqual([{ quotient: 1 }]);
  });

  it('answers with the new shape after the table changes under a prepared statement', async () => {
    await testDatabase.db.exec(
      `create table public.pipeline_shapes (id int); insert into public.pipeline_shapes values (1);`,
    );
    const text = 'select * from public.pipeline_shapes';
    const [before] = await testDatabase.db.pipeline([{ sql: text, params: [] }]);
    expect(before!.rows).toEqual([{ id: 1 }]);
    await testDatabase.db.exec(
      `alter table public.pipeline_shapes add column label text default 'x'`,
    );
    // PostgreSQL refuses a cached plan whose result changed (0A000) once; the statement is then
    // prepared afresh.
    const first = await testDatabase.db
      .pipeline([{ sql: text, params: [] }])
      .catch((error: unknown) => error);
    if (!Array.isArray(first)) expect(first).toMatchObject({ code: '0A000' });
    const [after] = await testDatabase.db.pipeline([{ sql: text, params: [] }]);
    expect(after!.rows).toEqual([{ id: 1, label: 'x' }]);
  });
});

describe('pipelineInRequestContext', () => {
  it('applies the role, claims and read-only setting to the statements, and only to them', async () => {
    const [notes, settings] = await pipelineInRequestContext(testDatabase.db, asUser(alice, true), [
      { sql: 'select body from public.pipeline_notes order by id', params: [] },
      {
        sql: `select current_user as role, auth.uid() as uid, current_setting('transaction_read_only') as ro`,
        params: [],
      },
    ]);
    expect(notes!.rows).toEqual([{ body: 'alice 1' }]);
    expect(settings!.rows).toEqual([{ role: 'authenticated', uid: alice, ro: 'on' }]);

    const [after] = await testDatabase.db.pipeline([
      {
        sql: `select current_user as role, coalesce(current_setting('request.jwt.claims', true), '') as claims`,
        params: [],
      },
    ]);
    expect(after!.rows[0]!.role).not.toBe('authenticated');
    expect(after!.rows[0]!.claims).toBe('');
  });

  it('keeps a read-only request from writing (25006), and row-level security from writing as another user (42501)', async () => {
    const readOnly = await pipelineInRequestContext(testDatabase.db, asUser(alice, true), [
      {
        sql: 'insert into public.pipeline_notes (owner, body) values ($1, $2)',
        params: [alice, 'x'],
      },
    ]).catch((caught: unknown) => caught);
    expect((readOnly as DatabaseError).code).toBe('25006');

    const asBob = await pipelineInRequestContext(testDatabase.db, asUser(bob), [
      {
        sql: 'insert into public.pipeline_notes (owner, body) values ($1, $2)',
        params: [alice, 'forged'],
      },
    ]).catch((caught: unknown) => caught);
    expect((asBob as DatabaseError).code).toBe('42501');
  });

  it('never runs inside another caller’s open transaction', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted!: () => void;
    const didInsert = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const other = testDatabase.db.transaction(async (tx) => {
      await tx.query(`insert into public.pipeline_notes (owner, body) values ($1, 'uncommitted')`, [
        alice,
      ]);
      inserted();
      await held;
      throw new Error('roll back');
    });
    await didInsert;
    const read = pipelineInRequestContext(testDatabase.db, asUser(alice, true), [
      { sql: `select body from public.pipeline_notes where body = 'uncommitted'`, params: [] },
    ]);
    // Let the pipeline try to run while the other transaction is open, then end that one.
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await expect(other).rejects.toThrow('roll back');
    const [result] = await read;
    expect(result!.rows).toEqual([]);
  });
});
