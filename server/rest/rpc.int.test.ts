import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRestTestServer, type RestTestServer } from './testing/rest-server';

/**
 * Functions under /rest/v1/rpc through the official client's rpc(), on
 * PGlite and PostgreSQL: arguments by name, GET for stable functions, results
 * of every shape, and select/filter/order/range/count on the rows returned.
 */

let rest: RestTestServer;

beforeAll(async () => {
  rest = await startRestTestServer();
});
afterAll(() => rest?.close());

describe('calling functions', () => {
  it('passes named arguments in a POST body and returns a scalar', async () => {
    const result = await rest.anon.rpc('add', { a: 2, b: 40 });
    expect(result.error).toBeNull();
    expect(result.status).toBe(200);
    expect(result.data).toBe(42);
  });

  it('runs a stable function returning a scalar once per call, with POST and GET', async () => {
    const post = await rest.anon.rpc('runs_in_transaction');
    expect(post.error).toBeNull();
    expect(post.data).toBe(1);
    const get = await rest.anon.rpc('runs_in_transaction', {}, { get: true });
    expect(get.error).toBeNull();
    expect(get.data).toBe(1);
  });

  it('uses the default of an argument that is left out', async () => {
    const result = await rest.anon.rpc('add_default', { a: 1 });
    expect(result.error).toBeNull();
    expect(result.data).toBe(11);
  });

  it('calls a stable function with GET, arguments in the query string', async () => {
    const result = await rest.anon.rpc('add', { a: 7, b: 8 }, { get: true });
    expect(result.error).toBeNull();
    expect(result.status).toBe(200);
    expect(result.data).toBe(15);

    const raw = await fetch(`${rest.restUrl}/rpc/books_by?author=Octavia&select=title`, {
      headers: rest.anonHeaders,
    });
    expect(raw.status).toBe(200);
    expect(await raw.json()).toEqual([{ title: 'Kindred' }]);
  });

  it('passes JSON arguments through, named and as the single unnamed parameter', async () => {
    const named = await rest.anon.rpc('echo', { payload: { list: [1, 'two', null] } });
    expect(named.error).toBeNull();
    expect(named.data).toEqual({ list: [1, 'two', null] });

    const whole = await rest.anon.rpc('whole', { anything: true, n: 3 });
    expect(whole.error).toBeNull();
    expect(whole.data).toEqual({ anything: true, n: 3 });
  });

  it('answers 204 with no body for a void function, and its effect is kept', async () => {
    const before = await rest.server.db.query<{ value: number }>(
      `select value from public.counters where key = 'touches'`,
    );
    const result = await rest.anon.rpc('touch');
    expect(result.error).toBeNull();
    expect(result.status).toBe(204);
    expect(result.data).toBeNull();
    const after = await rest.server.db.query<{ value: number }>(
      `select value from public.counters where key = 'touches'`,
    );
    expect(after.rows[0]!.value).toBe(before.rows[0]!.value + 1);
  });

  it('returns a set of scalars as an array, paged by range()', async () => {
    const result = await rest.anon.rpc('numbers', { n: 4 });
    expect(result.error).toBeNull();
    expect(result.data).toEqual([1, 2, 3, 4]);

    const paged = await rest.anon.rpc('numbers', { n: 10 }, { count: 'exact' }).range(2, 4);
    expect(paged.error).toBeNull();
    expect(paged.status).toBe(206);
    expect(paged.count).toBe(10);
    expect(paged.data).toEqual([3, 4, 5]);
  });

  it('returns a single composite row as an object', async () => {
    const result = await rest.anon.rpc('first_book').select('id,title');
    expect(result.error).toBeNull();
    expect(result.data).toEqual({ id: 1, title: 'A Wizard of Earthsea' });
  });

  it('returns OUT parameters as one object', async () => {
    const result = await rest.anon.rpc('stats');
    expect(result.error).toBeNull();
    expect(result.data).toEqual({ total: 5, priciest: 12.5 });
  });
});

describe('rows returned by a function', () => {
  it('selects, filters and orders the rows of a set-returning function', async () => {
    const result = await rest.anon
      .rpc('books_by', { author: 'Ursula' })
      .select('title,pages')
      .gt('pages', 200)
      .order('pages', { ascending: false });
    expect(result.error).toBeNull();
    expect(result.data).toEqual([{ title: 'The Left Hand of Darkness', pages: 304 }]);

    const all = await rest.anon
      .rpc('books_by', { author: 'Stanislaw' })
      .select('id')
      .order('id', { ascending: false });
    expect(all.data).toEqual([{ id: 5 }, { id: 4 }]);
  });

  it('embeds related rows from the rows of a function returning a table type', async () => {
    const result = await rest.anon
      .rpc('books_by', { author: 'Ursula' })
      .select('title,reviews(stars)')
      .order('id')
      .order('stars', { referencedTable: 'reviews' });
    expect(result.error).toBeNull();
    expect(result.data).toEqual([
      { title: 'A Wizard of Earthsea', reviews: [{ stars: 4 }, { stars: 5 }] },
      { title: 'The Left Hand of Darkness', reviews: [] },
    ]);
  });

  it('filters and orders a function returning a table', async () => {
    const nulls = await rest.anon.rpc('prices').select('title').is('price', null);
    expect(nulls.error).toBeNull();
    expect(nulls.data).toEqual([{ title: 'The Cyberiad' }]);

    const cheapest = await rest.anon
      .rpc('prices')
      .select('title,price')
      .not('price', 'is', null)
      .order('price')
      .limit(2);
    expect(cheapest.data).toEqual([
      { title: 'Kindred', price: 8 },
      { title: 'A Wizard of Earthsea', price: 9.99 },
    ]);
  });

  it('counts and pages a function result: 206 with the total for a partial page', async () => {
    const result = await rest.anon
      .rpc('books_by', { author: 'Ursula' }, { count: 'exact' })
      .select('id')
      .order('id')
      .range(1, 1);
    expect(result.error).toBeNull();
    expect(result.status).toBe(206);
    expect(result.count).toBe(2);
    expect(result.data).toEqual([{ id: 2 }]);
  });

  it('answers HEAD with a count and no body', async () => {
    const result = await rest.anon.rpc(
      'books_by',
      { author: 'Stanislaw' },
      { head: true, count: 'exact' },
    );
    expect(result.error).toBeNull();
    expect(result.status).toBe(200);
    expect(result.data).toBeNull();
    expect(result.count).toBe(2);

    const raw = await fetch(`${rest.restUrl}/rpc/numbers?n=5`, {
      method: 'HEAD',
      headers: { ...rest.anonHeaders, Prefer: 'count=exact' },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-range')).toBe('0-4/5');
    expect(await raw.text()).toBe('');
  });

  it('answers 416 PGRST103 for an offset past the end of a function result', async () => {
    const response = await fetch(`${rest.restUrl}/rpc/numbers?n=3&offset=10`, {
      headers: { ...rest.anonHeaders, Prefer: 'count=exact' },
    });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe('*/3');
    expect(await response.json()).toEqual({
      code: 'PGRST103',
      message: 'Requested range not satisfiable',
      details: 'An offset of 10 was requested, but there are only 3 rows.',
      hint: null,
    });
  });

  it('counts a HEAD call with an object argument (sent as POST with return=minimal)', async () => {
    const result = await rest.anon.rpc(
      'echo',
      { payload: { nested: true } },
      { head: true, count: 'exact' },
    );
    expect(result.error).toBeNull();
    expect(result.status).toBe(200);
    expect(result.count).toBe(1);
  });

  it('returns one row with single() and CSV with csv()', async () => {
    const single = await rest.anon.rpc('books_by', { author: 'Octavia' }).select('title').single();
    expect(single.error).toBeNull();
    expect(single.data).toEqual({ title: 'Kindred' });

    const csv = await rest.anon
      .rpc('prices')
      .select('title,price')
      .lt('price', 10)
      .order('price')
      .csv();
    expect(csv.error).toBeNull();
    expect(csv.data).toBe('title,price\nKindred,8.00\n"A Wizard of Earthsea",9.99');

    const selected = await rest.anon
      .rpc('books_by', { author: 'Octavia' })
      .select('title,pages')
      .csv();
    expect(selected.error).toBeNull();
    expect(selected.data).toBe('title,pages\nKindred,264');
  });
});
