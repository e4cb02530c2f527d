import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRestTestServer, type RestTestServer } from './testing/rest-server';

/**
 * postgrest-js's explain() (`Accept: application/vnd.pgrst.plan…`) on PGlite
 * and PostgreSQL: refused with 406 PGRST107 until `pgrst.db_plan_enabled` is
 * on, then the plan of the request's own statement, run as its role under
 * row-level security, and never a lasting write.
 */

let rest: RestTestServer;

beforeAll(async () => {
  rest = await startRestTestServer();
});
afterAll(() => rest?.close());

async function planEnabled(value: 'true' | null): Promise<void> {
  const action = value === null ? 'reset pgrst.db_plan_enabled' : 'set pgrst.db_plan_enabled = %L';
  await rest.server.db.exec(
    `do $$ begin execute format('alter role authenticator in database %I ${action}',
       current_database(), 'true'); end $$`,
  );
  await rest.server.db.query(`notify pgrst, 'reload config'`);
}

async function explainStatus(): Promise<number> {
  return (await rest.service.from('books').select('id').explain()).status;
}

type JsonPlan = { Plan: Record<string, unknown> & { 'Node Type': string } }[];

describe('explain() while plans are disabled (the default)', () => {
  it('answers 406 PGRST107, as PostgREST', async () => {
    const result = await rest.service.from('books').select('id').explain({ format: 'json' });
    expect(result.status).toBe(406);
    expect(result.error).toMatchObject({ code: 'PGRST107' });
    const raw = await fetch(`${rest.restUrl}/books?select=id`, {
      headers: { ...rest.serviceHeaders, Accept: 'application/vnd.pgrst.plan+text' },
    });
    expect(raw.status).toBe(406);
    expect(((await raw.json()) as { code: string }).code).toBe('PGRST107');
  });
});

describe('explain() with pgrst.db_plan_enabled', () => {
  beforeAll(async () => {
    await planEnabled('true');
    const deadline = Date.now() + 5000;
    while ((await explainStatus()) !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  afterAll(() => planEnabled(null));

  it('answers the text plan of a read, with PostgREST’s content type', async () => {
    const result = await rest.anon.from('books').select('id, title').eq('id', 1).explain();
    expect(result.error).toBeNull();
    expect(typeof result.data).toBe('string');
    expect(result.data as unknown as string).toMatch(/cost=/);

    const raw = await fetch(`${rest.restUrl}/books?select=id`, {
      headers: {
        ...rest.anonHeaders,
        Accept: 'application/vnd.pgrst.plan+text; for="application/json"; options=verbose',
      },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+text; for="application/json"; options=verbose; charset=utf-8',
    );
    expect(await raw.text()).toMatch(/Output:/);

    // As on Supabase (pg_stat_statements), a verbose plan names its query identifier,
    // and the plan is still the caller's.
    const verbose = await rest.anon
      .from('books')
      .select('id')
      .explain({ verbose: true, settings: true, format: 'json' });
    expect(verbose.error).toBeNull();
    const [entry] = verbose.data as unknown as (JsonPlan[number] & {
      'Query Identifier'?: unknown;
    })[];
    expect(entry!['Query Identifier']).toEqual(expect.any(Number));
    // Taking the setting as the session's user gives the request its own role back.
    const vault = await rest.anon.from('vault').select('secret').explain({ verbose: true });
    expect(vault.status).toBe(401);
    expect(vault.error).toMatchObject({ code: '42501' });
    const asUser = await rest.user.from('notes').select('id').explain({ verbose: true });
    expect(asUser.data as unknown as string).toMatch(/auth\.uid\(\)|owner/);
  });

  it('answers the JSON plan array, with actual rows under analyze', async () => {
    const plain = await rest.anon.from('books').select('id').explain({ format: 'json' });
    expect(plain.error).toBeNull();
    const plan = plain.data as unknown as JsonPlan;
    expect(Array.isArray(plan)).toBe(true);
    expect(plan[0]!.Plan['Node Type']).toEqual(expect.any(String));
    expect(plan[0]!.Plan['Actual Rows']).toBeUndefined();

    const analyzed = await rest.anon
      .from('books')
      .select('id')
      .explain({ format: 'json', analyze: true, buffers: true });
    expect(analyzed.error).toBeNull();
    expect((analyzed.data as unknown as JsonPlan)[0]!.Plan['Actual Rows']).toEqual(
      expect.any(Number),
    );
  });

  it('plans as the caller: row-level security shows for a user, not for service_role', async () => {
    const asUser = await rest.user.from('notes').select('id, body').explain();
    expect(asUser.error).toBeNull();
    expect(asUser.data as unknown as string).toMatch(/auth\.uid\(\)|owner/);
    const asService = await rest.service.from('notes').select('id, body').explain();
    expect(asService.error).toBeNull();
    expect(asService.data as unknown as string).not.toMatch(/auth\.uid\(\)/);
    // A table anon may not read is refused, as its read would be.
    const vault = await rest.anon.from('vault').select('secret').explain();
    expect(vault.status).toBe(401);
    expect(vault.error).toMatchObject({ code: '42501' });
  });

  it('never keeps a write explained with analyze: insert, update, delete and rpc', async () => {
    const title = `explained ${Date.now()}`;
    const inserted = await rest.service
      .from('tickets')
      .insert({ title })
      .select()
      .explain({ analyze: true, format: 'json' });
    expect(inserted.error).toBeNull();
    expect((inserted.data as unknown as JsonPlan)[0]!.Plan['Actual Rows']).toEqual(
      expect.any(Number),
    );
    const found = await rest.service.from('tickets').select('id').eq('title', title);
    expect(found.data).toEqual([]);

    const before = await rest.service.from('books').select('id, title').order('id');
    const updated = await rest.service
      .from('books')
      .update({ title: 'overwritten' })
      .gt('id', 0)
      .explain({ analyze: true });
    expect(updated.error).toBeNull();
    const deleted = await rest.service
      .from('reviews')
      .delete()
      .gt('id', 0)
      .explain({ analyze: true });
    expect(deleted.error).toBeNull();
    const after = await rest.service.from('books').select('id, title').order('id');
    expect(after.data).toEqual(before.data);

    const counter = async () =>
      (await rest.service.from('counters').select('value').eq('key', 'touches').single()).data;
    const touches = await counter();
    const bumped = await rest.service.rpc('bump').explain({ analyze: true });
    expect(bumped.error).toBeNull();
    expect(await counter()).toEqual(touches);
  });

  it('plans a call and a single-object read', async () => {
    const call = await rest.anon.rpc('numbers', { n: 3 }).explain({ format: 'json' });
    expect(call.error).toBeNull();
    expect(Array.isArray(call.data)).toBe(true);
    // A single object's plan (explain() is not offered after single(): by hand).
    const single = await fetch(`${rest.restUrl}/books?select=id&id=eq.1`, {
      headers: {
        ...rest.anonHeaders,
        Accept: 'application/vnd.pgrst.plan+text; for="application/vnd.pgrst.object+json"',
      },
    });
    expect(single.status).toBe(200);
    expect(single.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+text; for="application/vnd.pgrst.object+json"; charset=utf-8',
    );
    expect(await single.text()).toMatch(/cost=/);
  });

  it('refuses forged and oversized Accept headers without running anything else', async () => {
    const headers = (accept: string) => ({ ...rest.serviceHeaders, Accept: accept });
    // Unknown options are ignored: only the five EXPLAIN options ever reach SQL.
    const forged = await fetch(`${rest.restUrl}/books?select=id`, {
      headers: headers(
        'application/vnd.pgrst.plan+json; options=analyze|costs) select 1; --|wal; for="application/json"',
      ),
    });
    expect(forged.status).toBe(200);
    expect(forged.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+json; for="application/json"; options=analyze; charset=utf-8',
    );
    expect(((await forged.json()) as JsonPlan)[0]!.Plan['Actual Rows']).toEqual(expect.any(Number));

    // A `for` type the resource cannot produce: 406, as PostgREST.
    const html = await fetch(`${rest.restUrl}/books?select=id`, {
      headers: headers('application/vnd.pgrst.plan+json; for="text/html"'),
    });
    expect(html.status).toBe(406);
    expect(((await html.json()) as { code: string }).code).toBe('PGRST107');

    // A `for` type with a quote or header break is never echoed back.
    const odd = await fetch(`${rest.restUrl}/books?select=id`, {
      headers: headers('application/vnd.pgrst.plan+text; for="application/json\\"; x=1"'),
    });
    expect([200, 406]).toContain(odd.status);
    expect(odd.headers.get('content-type') ?? '').not.toMatch(/x=1/);

    // An oversized header is not searched for a plan type.
    const oversized = await fetch(`${rest.restUrl}/books?select=id`, {
      headers: headers(
        `application/vnd.pgrst.plan+json; for="application/json"; x=${'a'.repeat(6000)}`,
      ),
    });
    expect(oversized.status).toBe(406);

    // A plan type after an acceptable one: the first wins (a plain read).
    const second = await fetch(`${rest.restUrl}/books?select=id&id=eq.1`, {
      headers: headers('application/json, application/vnd.pgrst.plan+json'),
    });
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual([{ id: 1 }]);
  });
});
