import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../testing/clients';
import { expectRestError, startRestTestServer, type RestTestServer } from './testing/rest-server';

/**
 * Who a request runs as and what it may do: the role from the JWT, read-only
 * transactions for GET, and row-level security, on PGlite and PostgreSQL.
 */

let rest: RestTestServer;

beforeAll(async () => {
  rest = await startRestTestServer();
});
afterAll(() => rest?.close());

async function touches(): Promise<number> {
  const { rows } = await rest.server.db.query<{ value: number }>(
    `select value from public.counters where key = 'touches'`,
  );
  return rows[0]!.value;
}

describe('roles', () => {
  it('runs as anon, authenticated or service_role according to the token', async () => {
    expect((await rest.anon.rpc('whoami')).data).toBe('anon');
    expect((await rest.user.rpc('whoami')).data).toBe('authenticated');
    expect((await rest.service.rpc('whoami')).data).toBe('service_role');
    const keyless = await fetch(`${rest.restUrl}/rpc/whoami`, { method: 'POST' });
    expect(keyless.status).toBe(200);
    expect(await keyless.json()).toBe('anon');
  });

  it('passes the verified claims to SQL (auth.uid() is the signed-in user)', async () => {
    const result = await rest.user.from('notes').insert({ body: 'mine' }).select('owner,body');
    expect(result.error).toBeNull();
    expect(result.data).toEqual([{ owner: rest.userId, body: 'mine' }]);
  });
});

describe('read-only GET', () => {
  it('refuses a GET of a function that writes with 405 25006, and a POST runs it', async () => {
    const before = await touches();
    const viaGet = await rest.anon.rpc('bump', {}, { get: true });
    expectRestError(viaGet, 405, {
      code: '25006',
      message: 'cannot execute UPDATE in a read-only transaction',
    });
    expect(await touches()).toBe(before);

    const viaPost = await rest.anon.rpc('bump');
    expect(viaPost.error).toBeNull();
    expect(viaPost.data).toBe(before + 1);
    expect(await touches()).toBe(before + 1);
  });

  it('refuses HEAD of a function that writes as well', async () => {
    const before = await touches();
    const response = await fetch(`${rest.restUrl}/rpc/bump`, {
      method: 'HEAD',
      headers: rest.anonHeaders,
    });
    expect(response.status).toBe(405);
    expect(await touches()).toBe(before);
  });
});

describe('row-level security', () => {
  it('hides every row from anon when no policy lets it read', async () => {
    const result = await rest.anon.from('notes').select('body', { count: 'exact' });
    expect(result.error).toBeNull();
    expect(result.status).toBe(200);
    expect(result.data).toEqual([]);
    expect(result.count).toBe(0);
  });

  it("shows a user only their own rows; service_role sees everyone's", async () => {
    await rest.user.from('notes').insert({ body: 'second of mine' });
    const own = await rest.user.from('notes').select('body').order('id');
    expect(own.error).toBeNull();
    const bodies = (own.data ?? []).map((row: { body: string }) => row.body);
    expect(bodies).toContain('second of mine');
    expect(bodies).not.toContain('not yours');

    const all = await rest.service.from('notes').select('body').eq('body', 'not yours');
    expect(all.data).toEqual([{ body: 'not yours' }]);
  });

  it("lets a user neither change nor delete someone else's row", async () => {
    const updated = await rest.user
      .from('notes')
      .update({ body: 'taken over' })
      .eq('body', 'not yours')
      .select();
    expect(updated.error).toBeNull();
    expect(updated.data).toEqual([]);

    const deleted = await rest.user.from('notes').delete().eq('body', 'not yours').select();
    expect(deleted.error).toBeNull();
    expect(deleted.data).toEqual([]);

    const { rows } = await rest.server.db.query(
      `select body from public.notes where owner = '00000000-0000-0000-0000-000000000001'`,
    );
    expect(rows).toEqual([{ body: 'not yours' }]);
  });

  it('refuses a row the policy does not allow with 401 for anon and 403 for a user', async () => {
    const anon = await rest.anon.from('notes').insert({ body: 'anonymous' });
    expectRestError(anon, 401, {
      code: '42501',
      message: 'new row violates row-level security policy for table "notes"',
    });

    const forged = await rest.user
      .from('notes')
      .insert({ body: 'as someone else', owner: '00000000-0000-0000-0000-000000000001' });
    expectRestError(forged, 403, {
      code: '42501',
      message: 'new row violates row-level security policy for table "notes"',
    });
  });

  it('treats a user token sent as the only key like a signed-in client', async () => {
    const client = clientFor(rest.server, { key: rest.userToken });
    expect((await client.rpc('whoami')).data).toBe('authenticated');
  });
});
