import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneTestDatabase, type TestDatabase } from '../testing/harness';
import { withRequestContext, type RequestContext } from './request-context';

let testDatabase: TestDatabase;
const alice = '11111111-1111-4111-8111-111111111111';
const bob = '22222222-2222-4222-8222-222222222222';

beforeAll(async () => {
  testDatabase = await cloneTestDatabase();
  // A product table as a migration would create it: RLS on, one policy per role.
  await testDatabase.db.exec(`
    create table public.notes (id serial primary key, owner uuid not null, body text not null);
    alter table public.notes enable row level security;
    create policy "owners read their notes" on public.notes for select to authenticated
      using (owner = auth.uid());
    create policy "owners write their notes" on public.notes for insert to authenticated
      with check (owner = auth.uid());
    insert into public.notes (owner, body) values ('${alice}', 'alice 1'), ('${alice}', 'alice 2'), ('${bob}', 'bob 1');
  `);
});
afterAll(() => testDatabase.drop());

function context(overrides: Partial<RequestContext>): RequestContext {
  return {
    role: 'anon',
    claims: {},
    method: 'GET',
    path: '/rest/v1/notes',
    headers: { 'x-client-info': 'test' },
    ...overrides,
  };
}

describe('withRequestContext', () => {
  it('switches to the request role and exposes the claims through the auth helpers', async () => {
    const result = await withRequestContext(
      testDatabase.db,
      context({
        role: 'authenticated',
        claims: { sub: alice, email: 'alice@example.com', aal: 'aal1' },
      }),
      async (tx) =>
        (
          await tx.query<Record<string, unknown>>(`
            select current_user as who, auth.uid() as uid, auth.role() as role,
                   auth.email() as email, auth.jwt() ->> 'aal' as aal,
                   current_setting('request.method') as method,
                   current_setting('request.headers')::jsonb ->> 'x-client-info' as client,
                   current_setting('search_path') as search_path
          `)
        ).rows[0],
    );
    expect(result).toEqual({
      who: 'authenticated',
      uid: alice,
      role: 'authenticated',
      email: 'alice@example.com',
      aal: 'aal1',
      method: 'GET',
      client: 'test',
      search_path: 'public, extensions',
    });
  });

  it('lets row-level security decide: owners see their rows, anon none, service_role all', async () => {
    const read = (overrides: Partial<RequestContext>) =>
      withRequestContext(testDatabase.db, context(overrides), async (tx) =>
        (await tx.query<{ body: string }>('select body from public.notes order by body')).rows.map(
          (row) => row.body,
        ),
      );
    expect(await read({ role: 'authenticated', claims: { sub: alice } })).toEqual([
      'alice 1',
      'alice 2',
    ]);
    expect(await read({ role: 'authenticated', claims: { sub: bob } })).toEqual(['bob 1']);
    expect(await read({ role: 'anon' })).toEqual([]);
    expect(await read({ role: 'service_role' })).toEqual(['alice 1', 'alice 2', 'bob 1']);
  });

  it('refuses a write that the policy does not allow', async () => {
    await expect(
      withRequestContext(
        testDatabase.db,
        context({ role: 'authenticated', claims: { sub: alice }, method: 'POST' }),
        (tx) => tx.query('insert into public.notes (owner, body) values ($1, $2)', [bob, 'forged']),
      ),
    ).rejects.toMatchObject({ code: '42501' });
  });

  it('runs GET requests read-only', async () => {
    await expect(
      withRequestContext(testDatabase.db, context({ role: 'service_role', readOnly: true }), (tx) =>
        tx.query(`insert into public.notes (owner, body) values ($1, 'x')`, [alice]),
      ),
    ).rejects.toMatchObject({ code: '25006' });
  });

  it('leaves nothing behind for the next query: role and claims end with the transaction', async () => {
    await withRequestContext(
      testDatabase.db,
      context({ role: 'authenticated', claims: { sub: alice } }),
      async (tx) => tx.query('select 1'),
    );
    const after = await testDatabase.db.query<{ who: string; uid: string | null }>(
      'select current_user as who, auth.uid() as uid',
    );
    expect(after.rows[0]?.uid).toBeNull();
    expect(after.rows[0]?.who).not.toBe('authenticated');
  });

  it('keeps concurrent requests apart', async () => {
    const whoAmI = (sub: string) =>
      withRequestContext(
        testDatabase.db,
        context({ role: 'authenticated', claims: { sub } }),
        async (tx) => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return (await tx.query<{ uid: string }>('select auth.uid() as uid')).rows[0]?.uid;
        },
      );
    const results = await Promise.all([whoAmI(alice), whoAmI(bob), whoAmI(alice), whoAmI(bob)]);
    expect(results).toEqual([alice, bob, alice, bob]);
  });
});
