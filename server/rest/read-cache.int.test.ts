import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * The read cache (read-cache.ts) seen from outside: a repeated read answers
 * exactly as the first one did, requests that differ in anything that shapes
 * the SQL (query string, Range, Accept, Prefer, role) never share a plan, and
 * a schema reload plans again against the new schema.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await server.db.exec(
    `create table public.cache_tags (id int primary key, name text not null);
     insert into public.cache_tags values (1, 'red');
     create table public.cache_items (
       id int primary key, label text not null, shown boolean not null,
       tag_id int references public.cache_tags (id)
     );
     insert into public.cache_items values (1, 'one', true, 1), (2, 'two', false, null), (3, 'three', true, null);
     alter table public.cache_items enable row level security;
     create policy cache_items_anon on public.cache_items for select to anon using (shown);
     grant select on public.cache_items, public.cache_tags to anon, service_role;`,
  );
  await server.reloadSchema();
});
afterAll(() => server?.close());

function headersFor(key: string, extra: Record<string, string> = {}): Record<string, string> {
  return { apikey: key, Authorization: `Bearer ${key}`, ...extra };
}

async function read(path: string, headers: Record<string, string>, method = 'GET') {
  const response = await fetch(`${server.url}/rest/v1/${path}`, { method, headers });
  const kept = ['content-type', 'content-range', 'preference-applied'];
  return {
    status: response.status,
    headers: Object.fromEntries(kept.map((name) => [name, response.headers.get(name)])),
    body: await response.text(),
  };
}

describe('the read cache', () => {
  it('answers a repeated read exactly as the first (uncached) one', async () => {
    const headers = headersFor(server.serviceRoleKey, { Prefer: 'count=exact', Range: '0-1' });
    const path = 'cache_items?select=id,label&order=id.desc';
    const first = await read(path, headers);
    expect(first).toEqual({
      status: 206,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-range': '0-1/3',
        'preference-applied': 'count=exact',
      },
      body: '[{"id":3,"label":"three"}, \n {"id":2,"label":"two"}]',
    });
    for (let i = 0; i < 3; i += 1) expect(await read(path, headers)).toEqual(first);
    // HEAD has no body, GET after it still has one.
    expect((await read(path, headers, 'HEAD')).body).toBe('');
    expect(await read(path, headers)).toEqual(first);
  });

  it('never shares a plan between query strings, Range, Accept or Prefer', async () => {
    const service = headersFor(server.serviceRoleKey);
    const one = await read('cache_items?select=id&id=eq.1', service);
    const two = await read('cache_items?select=id&id=eq.2', service);
    expect([one.body, two.body]).toEqual(['[{"id":1}]', '[{"id":2}]']);
    expect((await read('cache_items?select=id&id=eq.1', service)).body).toBe('[{"id":1}]');

    const page = (range: string) =>
      read('cache_items?select=id&order=id', headersFor(server.serviceRoleKey, { Range: range }));
    expect((await page('0-0')).body).toBe('[{"id":1}]');
    expect((await page('1-1')).body).toBe('[{"id":2}]');
    expect((await page('0-0')).body).toBe('[{"id":1}]');

    const single = headersFor(server.serviceRoleKey, {
      Accept: 'application/vnd.pgrst.object+json',
    });
    expect((await read('cache_items?select=id&id=eq.1', single)).body).toBe('{"id":1}');
    expect((await read('cache_items?select=id&id=eq.1', service)).body).toBe('[{"id":1}]');

    const counted = headersFor(server.serviceRoleKey, { Prefer: 'count=exact' });
    expect((await read('cache_items?select=id', counted)).headers['content-range']).toBe('0-2/3');
    expect((await read('cache_items?select=id', service)).headers['content-range']).toBe('0-2/*');
  });

  it('shares one plan between filter values, each request with its own values', async () => {
    const service = headersFor(server.serviceRoleKey);
    const counted = headersFor(server.serviceRoleKey, { Prefer: 'count=exact' });
    const ids = (query: string, headers = service) =>
      read(`cache_items?select=id&order=id&${query}`, headers).then((r) => [
        r.body,
        r.headers['content-range'],
      ]);
    for (const round of [1, 2]) {
      expect(await ids('id=eq.1'), `round ${round}`).toEqual(['[{"id":1}]', '0-0/*']);
      expect(await ids('id=eq.3')).toEqual(['[{"id":3}]', '0-0/*']);
      expect(await ids('label=eq.two')).toEqual(['[{"id":2}]', '0-0/*']);
      expect(await ids('label=eq.three')).toEqual(['[{"id":3}]', '0-0/*']);
      expect(await ids('id=not.gt.1')).toEqual(['[{"id":1}]', '0-0/*']);
      expect(await ids('id=gte.2&label=neq.three')).toEqual(['[{"id":2}]', '0-0/*']);
      expect(await ids('id=gte.1&label=neq.one')).toEqual(['[{"id":2}, \n {"id":3}]', '0-1/*']);
      // The count repeats the filter in its own subquery: both take the request's value.
      expect(await ids('id=gt.1', counted)).toEqual(['[{"id":2}, \n {"id":3}]', '0-1/2']);
      expect(await ids('id=gt.2', counted)).toEqual(['[{"id":3}]', '0-0/1']);
      // A value that is also the limit's: each stays where it belongs.
      expect(await ids('id=gte.1&limit=1')).toEqual(['[{"id":1}]', '0-0/*']);
      expect(await ids('id=gte.2&limit=1')).toEqual(['[{"id":2}]', '0-0/*']);
      // Planning errors are answered each time, never kept.
      expect((await read('cache_items?select=id&nope=eq.1', service)).status).toBe(400);
    }
  });

  it('runs every request as its own role: row-level security applies to a kept plan', async () => {
    const path = 'cache_items?select=id&order=id';
    const service = headersFor(server.serviceRoleKey);
    const anon = headersFor(server.anonKey);
    expect((await read(path, service)).body).toBe('[{"id":1}, \n {"id":2}, \n {"id":3}]');
    expect((await read(path, anon)).body).toBe('[{"id":1}, \n {"id":3}]');
    expect((await read(path, service)).body).toBe('[{"id":1}, \n {"id":2}, \n {"id":3}]');
  });

  it('plans again after a schema reload', async () => {
    const path = 'cache_items?select=id,cache_tags(name)&id=eq.1';
    const service = headersFor(server.serviceRoleKey);
    const before = await read(path, service);
    expect(JSON.parse(before.body)).toEqual([{ id: 1, cache_tags: { name: 'red' } }]);
    expect(await read(path, service)).toEqual(before);
    // Without the foreign key there is no relationship to embed: the kept plan (a join) would still run.
    await server.db.exec(`alter table public.cache_items drop constraint cache_items_tag_id_fkey;`);
    await server.reloadSchema();
    const after = await read(path, service);
    expect(after.status).toBe(400);
    expect(JSON.parse(after.body)).toMatchObject({ code: 'PGRST200' });
  });
});
