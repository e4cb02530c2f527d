import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRestError, startRestTestServer, type RestTestServer } from './testing/rest-server';

/**
 * Inserts, upserts, updates and deletes through /rest/v1 with the official
 * client (raw fetch for what it has no API for), on PGlite and PostgreSQL.
 * Each test works on rows of its own, and checks what was stored with SQL.
 */

let rest: RestTestServer;

beforeAll(async () => {
  rest = await startRestTestServer();
});
afterAll(() => rest?.close());

interface Counter {
  key: string;
  value: number;
  note: string | null;
}

async function storedCounters(prefix: string): Promise<Counter[]> {
  const { rows } = await rest.server.db.query<Counter>(
    `select key, value, note from public.counters where key like $1 order by key`,
    [`${prefix}%`],
  );
  return rows;
}

describe('insert', () => {
  it('inserts one object with no body back by default (201)', async () => {
    const result = await rest.anon.from('counters').insert({ key: 'one-a', value: 3 });
    expect(result.error).toBeNull();
    expect(result.status).toBe(201);
    expect(result.data).toBeNull();
    expect(await storedCounters('one-')).toEqual([{ key: 'one-a', value: 3, note: 'fresh' }]);
  });

  it('returns the inserted row, defaults included, with select()', async () => {
    const result = await rest.anon
      .from('genres')
      .insert({ name: 'horror' })
      .select('id,name')
      .single();
    expect(result.error).toBeNull();
    expect(result.status).toBe(201);
    expect(result.data).toEqual({ id: expect.any(Number), name: 'horror' });
    const { rows } = await rest.server.db.query(`select name from public.genres where id = $1`, [
      (result.data as { id: number }).id,
    ]);
    expect(rows).toEqual([{ name: 'horror' }]);
  });

  it('inserts an array and counts it', async () => {
    const result = await rest.anon
      .from('counters')
      .insert(
        [
          { key: 'many-a', value: 1, note: 'first' },
          { key: 'many-b', value: 2, note: 'second' },
        ],
        { count: 'exact' },
      )
      .select('key,value');
    expect(result.error).toBeNull();
    expect(result.status).toBe(201);
    expect(result.count).toBe(2);
    expect(result.data).toEqual([
      { key: 'many-a', value: 1 },
      { key: 'many-b', value: 2 },
    ]);
    expect(await storedCounters('many-')).toEqual([
      { key: 'many-a', value: 1, note: 'first' },
      { key: 'many-b', value: 2, note: 'second' },
    ]);
  });

  it('fills keys missing from some objects with null, or with defaults when defaultToNull is false', async () => {
    const nulls = await rest.anon.from('counters').insert([
      { key: 'cols-a', value: 5 },
      { key: 'cols-b', value: 6, note: 'set' },
    ]);
    expect(nulls.error).toBeNull();
    expect(await storedCounters('cols-')).toEqual([
      { key: 'cols-a', value: 5, note: null },
      { key: 'cols-b', value: 6, note: 'set' },
    ]);

    const defaults = await rest.anon.from('counters').insert(
      [
        { key: 'dflt-a', value: 5 },
        { key: 'dflt-b', note: 'set' },
      ],
      {
        defaultToNull: false,
      },
    );
    expect(defaults.error).toBeNull();
    expect(await storedCounters('dflt-')).toEqual([
      { key: 'dflt-a', value: 5, note: 'fresh' },
      { key: 'dflt-b', value: 0, note: 'set' },
    ]);
  });

  it('fills missing keys with identity, domain and column defaults, never a generated column’s', async () => {
    const { data, error } = await rest.anon
      .from('tickets')
      .insert(
        [{ title: 'First' }, { title: 'Second', status: 'closed' }, { id: 100, title: 'Third' }],
        {
          defaultToNull: false,
        },
      )
      .select('id, title, status, priority, title_length')
      .order('id');
    expect(error).toBeNull();
    expect(data).toHaveLength(3);
    const [first, second, third] = data!;
    expect(first).toMatchObject({
      title: 'First',
      status: 'open',
      priority: 'normal',
      title_length: 5,
    });
    expect(second).toMatchObject({
      title: 'Second',
      status: 'closed',
      priority: 'normal',
      title_length: 6,
    });
    expect(third).toEqual({
      id: 100,
      title: 'Third',
      status: 'open',
      priority: 'normal',
      title_length: 5,
    });
    expect(typeof first!.id).toBe('number');
    expect(second!.id).not.toBe(first!.id);

    const upserted = await rest.anon
      .from('tickets')
      .upsert([{ id: 100, title: 'Third, renamed' }, { title: 'Fourth' }], { defaultToNull: false })
      .select('id, title, status');
    expect(upserted.error).toBeNull();
    expect(upserted.data).toHaveLength(2);
    expect(upserted.data![0]).toEqual({ id: 100, title: 'Third, renamed', status: 'open' });
    expect(upserted.data![1]).toMatchObject({ title: 'Fourth', status: 'open' });
    expect([first!.id, second!.id, 100]).not.toContain(upserted.data![1]!.id);
  });

  it('ignores payload keys outside the columns parameter', async () => {
    const response = await fetch(`${rest.restUrl}/counters?columns=key,value`, {
      method: 'POST',
      headers: { ...rest.anonHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify([{ key: 'param-a', value: 9, note: 'ignored' }]),
    });
    expect(response.status).toBe(201);
    expect(await storedCounters('param-')).toEqual([{ key: 'param-a', value: 9, note: 'fresh' }]);
  });

  it('answers headers-only with a Location header and no body', async () => {
    const response = await fetch(`${rest.restUrl}/counters`, {
      method: 'POST',
      headers: {
        ...rest.anonHeaders,
        'Content-Type': 'application/json',
        Prefer: 'return=headers-only',
      },
      body: JSON.stringify({ key: 'loc a', value: 1 }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('/counters?key=eq.loc%20a');
    expect(response.headers.get('content-range')).toBe('*/*');
    expect(await response.text()).toBe('');
  });

  it('answers return=minimal with 201 and an empty body', async () => {
    const response = await fetch(`${rest.restUrl}/counters`, {
      method: 'POST',
      headers: {
        ...rest.anonHeaders,
        'Content-Type': 'application/json',
        Prefer: 'return=minimal',
      },
      body: JSON.stringify({ key: 'min-a' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('preference-applied')).toBe('return=minimal');
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toBe('');
    expect(await storedCounters('min-')).toEqual([{ key: 'min-a', value: 0, note: 'fresh' }]);
  });

  it('rolls back with Prefer: tx=rollback but still answers with the result', async () => {
    const response = await fetch(`${rest.restUrl}/counters?select=key,value`, {
      method: 'POST',
      headers: {
        ...rest.anonHeaders,
        'Content-Type': 'application/json',
        Prefer: 'return=representation, tx=rollback',
      },
      body: JSON.stringify({ key: 'rollback-a', value: 4 }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('preference-applied')).toBe('return=representation, tx=rollback');
    expect(await response.json()).toEqual([{ key: 'rollback-a', value: 4 }]);
    expect(await storedCounters('rollback-')).toEqual([]);

    await rest.server.db.query(`insert into public.counters (key, value) values ('rollback-b', 1)`);
    const update = await fetch(`${rest.restUrl}/counters?key=eq.rollback-b`, {
      method: 'PATCH',
      headers: { ...rest.anonHeaders, 'Content-Type': 'application/json', Prefer: 'tx=rollback' },
      body: JSON.stringify({ value: 100 }),
    });
    expect(update.status).toBe(204);
    expect(await storedCounters('rollback-')).toEqual([
      { key: 'rollback-b', value: 1, note: 'fresh' },
    ]);
  });
});

describe('writes through views and edge cases', () => {
  it('inserts and updates through an auto-updatable view, locating rows by the table key', async () => {
    const inserted = await rest.anon
      .from('cheap_books')
      .insert({ title: 'Bargain', price: 1, author_id: 1 })
      .select('id,title')
      .single();
    expect(inserted.error).toBeNull();
    expect(inserted.status).toBe(201);
    const id = (inserted.data as { id: number }).id;
    expect(inserted.data).toEqual({ id, title: 'Bargain' });

    const located = await fetch(`${rest.restUrl}/cheap_books`, {
      method: 'POST',
      headers: {
        ...rest.anonHeaders,
        'Content-Type': 'application/json',
        Prefer: 'return=headers-only',
      },
      body: JSON.stringify({ title: 'Bargain two', price: 2 }),
    });
    expect(located.status).toBe(201);
    expect(located.headers.get('location')).toMatch(/^\/cheap_books\?id=eq\.\d+$/);

    const updated = await rest.anon
      .from('cheap_books')
      .update({ price: 3 })
      .eq('title', 'Bargain two')
      .select('title,price');
    expect(updated.error).toBeNull();
    expect(updated.data).toEqual([{ title: 'Bargain two', price: 3 }]);
    const { rows } = await rest.server.db.query(
      `select title, price::float8 as price from public.books where title like 'Bargain%' order by id`,
    );
    expect(rows).toEqual([
      { title: 'Bargain', price: 1 },
      { title: 'Bargain two', price: 3 },
    ]);
    await rest.server.db.query(`delete from public.books where title like 'Bargain%'`);
  });

  it('inserts an empty array as no rows', async () => {
    const result = await rest.anon.from('genres').insert([]).select();
    expect(result.error).toBeNull();
    expect(result.status).toBe(201);
    expect(result.data).toEqual([]);
  });

  it('changes nothing for an empty update', async () => {
    const result = await rest.anon.from('counters').update({}).eq('key', 'touches').select();
    expect(result.error).toBeNull();
    expect(result.status).toBe(200);
    expect(result.data).toEqual([]);
  });

  it('returns inserted rows as CSV', async () => {
    const response = await fetch(`${rest.restUrl}/counters?select=key,value`, {
      method: 'POST',
      headers: {
        ...rest.anonHeaders,
        'Content-Type': 'application/json',
        Prefer: 'return=representation',
        Accept: 'text/csv',
      },
      body: JSON.stringify([
        { key: 'csv-a', value: 1 },
        { key: 'csv b', value: 2 },
      ]),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await response.text()).toBe('key,value\ncsv-a,1\n"csv b",2');
  });

  it('refuses single() on an insert of several rows with 406, and stores nothing', async () => {
    const result = await rest.anon
      .from('counters')
      .insert([{ key: 'single-a' }, { key: 'single-b' }], { defaultToNull: false })
      .select()
      .single();
    expectRestError(result, 406, {
      code: 'PGRST116',
      details: 'The result contains 2 rows',
    });
    expect(await storedCounters('single-')).toEqual([]);
  });

  it('refuses a value for a generated column with 400 428C9', async () => {
    const result = await rest.anon.from('books').insert({ title: 'x', search: 'x' });
    expectRestError(result, 400, {
      code: '428C9',
      message: 'cannot insert a non-DEFAULT value into column "search"',
      details: 'Column "search" is a generated column.',
    });
  });
});

describe('upsert', () => {
  it('merges duplicates on the primary key: 201 when a row is new, 200 when all existed', async () => {
    const created = await rest.anon
      .from('counters')
      .upsert({ key: 'up-a', value: 1, note: 'v1' })
      .select('key,value,note');
    expect(created.error).toBeNull();
    expect(created.status).toBe(201);
    expect(created.data).toEqual([{ key: 'up-a', value: 1, note: 'v1' }]);

    const merged = await rest.anon
      .from('counters')
      .upsert({ key: 'up-a', value: 2, note: 'v2' })
      .select('key,value,note');
    expect(merged.error).toBeNull();
    expect(merged.status).toBe(200);
    expect(merged.data).toEqual([{ key: 'up-a', value: 2, note: 'v2' }]);

    const mixed = await rest.anon.from('counters').upsert(
      [
        { key: 'up-a', value: 3, note: 'v3' },
        { key: 'up-b', value: 1, note: 'v1' },
      ],
      { count: 'exact' },
    );
    expect(mixed.error).toBeNull();
    expect(mixed.status).toBe(201);
    expect(mixed.count).toBe(2);
    expect(await storedCounters('up-')).toEqual([
      { key: 'up-a', value: 3, note: 'v3' },
      { key: 'up-b', value: 1, note: 'v1' },
    ]);
  });

  it('merges on another unique column with onConflict', async () => {
    const result = await rest.anon
      .from('genres')
      .upsert([{ name: 'satire' }, { name: 'poetry' }], { onConflict: 'name' })
      .select('id,name');
    expect(result.error).toBeNull();
    expect(result.status).toBe(201);
    const rows = result.data as { id: number; name: string }[];
    expect(rows.map((row) => row.name).sort()).toEqual(['poetry', 'satire']);
    expect(rows.find((row) => row.name === 'satire')?.id).toBe(3);
    const { rows: stored } = await rest.server.db.query(
      `select count(*)::int as n from public.genres where name in ('satire', 'poetry')`,
    );
    expect(stored).toEqual([{ n: 2 }]);
  });

  it('leaves existing rows alone with ignoreDuplicates and returns only the new ones', async () => {
    await rest.server.db.query(
      `insert into public.counters (key, value, note) values ('ign-a', 1, 'kept')`,
    );
    const result = await rest.anon
      .from('counters')
      .upsert(
        [
          { key: 'ign-a', value: 50, note: 'replaced' },
          { key: 'ign-b', value: 2, note: 'new' },
        ],
        { ignoreDuplicates: true },
      )
      .select('key');
    expect(result.error).toBeNull();
    expect(result.status).toBe(201);
    expect(result.data).toEqual([{ key: 'ign-b' }]);
    expect(await storedCounters('ign-')).toEqual([
      { key: 'ign-a', value: 1, note: 'kept' },
      { key: 'ign-b', value: 2, note: 'new' },
    ]);
  });
});

describe('update', () => {
  it('changes only the filtered rows and answers 204', async () => {
    await rest.server.db.query(
      `insert into public.counters (key, value) values ('upd-a', 1), ('upd-b', 2), ('upd-c', 3)`,
    );
    const result = await rest.anon
      .from('counters')
      .update({ note: 'bumped' })
      .gte('value', 2)
      .like('key', 'upd-%');
    expect(result.error).toBeNull();
    expect(result.status).toBe(204);
    expect(result.data).toBeNull();
    expect(await storedCounters('upd-')).toEqual([
      { key: 'upd-a', value: 1, note: 'fresh' },
      { key: 'upd-b', value: 2, note: 'bumped' },
      { key: 'upd-c', value: 3, note: 'bumped' },
    ]);
  });

  it('returns the changed rows with select(), and counts them', async () => {
    await rest.server.db.query(
      `insert into public.counters (key, value) values ('rep-a', 1), ('rep-b', 2)`,
    );
    const result = await rest.anon
      .from('counters')
      .update({ value: 10 }, { count: 'exact' })
      .in('key', ['rep-a', 'rep-b'])
      .select('key,value')
      .order('key');
    expect(result.error).toBeNull();
    expect(result.status).toBe(200);
    expect(result.count).toBe(2);
    expect(result.data).toEqual([
      { key: 'rep-a', value: 10 },
      { key: 'rep-b', value: 10 },
    ]);

    const raw = await fetch(`${rest.restUrl}/counters?key=like.rep-*`, {
      method: 'PATCH',
      headers: { ...rest.anonHeaders, 'Content-Type': 'application/json', Prefer: 'count=exact' },
      body: JSON.stringify({ value: 11 }),
    });
    expect(raw.status).toBe(204);
    expect(raw.headers.get('content-range')).toBe('0-1/2');
  });

  it('updates nothing when no row matches', async () => {
    const result = await rest.anon
      .from('counters')
      .update({ value: 1 })
      .eq('key', 'no such key')
      .select();
    expect(result.error).toBeNull();
    expect(result.status).toBe(200);
    expect(result.data).toEqual([]);
  });
});

describe('delete', () => {
  it('deletes only the filtered rows; select() returns them', async () => {
    await rest.server.db.query(
      `insert into public.counters (key, value) values ('del-a', 1), ('del-b', 2), ('del-c', 3)`,
    );
    const minimal = await rest.anon.from('counters').delete().eq('key', 'del-a');
    expect(minimal.error).toBeNull();
    expect(minimal.status).toBe(204);

    const returned = await rest.anon
      .from('counters')
      .delete({ count: 'exact' })
      .or('key.eq.del-b,value.eq.999')
      .select('key,value');
    expect(returned.error).toBeNull();
    expect(returned.status).toBe(200);
    expect(returned.count).toBe(1);
    expect(returned.data).toEqual([{ key: 'del-b', value: 2 }]);
    expect(await storedCounters('del-')).toEqual([{ key: 'del-c', value: 3, note: 'fresh' }]);
  });
});

describe('max-affected', () => {
  it('refuses an update or delete touching more rows than allowed with handling=strict', async () => {
    await rest.server.db.query(
      `insert into public.counters (key, value) values ('max-a', 1), ('max-b', 1), ('max-c', 1)`,
    );
    const tooMany = await fetch(`${rest.restUrl}/counters?key=like.max-*`, {
      method: 'PATCH',
      headers: {
        ...rest.anonHeaders,
        'Content-Type': 'application/json',
        Prefer: 'handling=strict, max-affected=2',
      },
      body: JSON.stringify({ value: 5 }),
    });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toEqual({
      code: 'PGRST124',
      message: 'Query result exceeds max-affected preference constraint',
      details: 'The query affects 3 rows',
      hint: null,
    });
    expect((await storedCounters('max-')).map((row) => row.value)).toEqual([1, 1, 1]);

    const deleteTooMany = await fetch(`${rest.restUrl}/counters?key=like.max-*`, {
      method: 'DELETE',
      headers: { ...rest.anonHeaders, Prefer: 'handling=strict, max-affected=1' },
    });
    expect(deleteTooMany.status).toBe(400);
    expect(((await deleteTooMany.json()) as { code: string }).code).toBe('PGRST124');
    expect(await storedCounters('max-')).toHaveLength(3);

    const within = await fetch(`${rest.restUrl}/counters?key=eq.max-a`, {
      method: 'DELETE',
      headers: { ...rest.anonHeaders, Prefer: 'handling=strict, max-affected=1' },
    });
    expect(within.status).toBe(204);
    expect(await storedCounters('max-')).toHaveLength(2);
  });

  it('ignores max-affected without handling=strict', async () => {
    await rest.server.db.query(
      `insert into public.counters (key, value) values ('lax-a', 1), ('lax-b', 1)`,
    );
    const response = await fetch(`${rest.restUrl}/counters?key=like.lax-*`, {
      method: 'PATCH',
      headers: {
        ...rest.anonHeaders,
        'Content-Type': 'application/json',
        Prefer: 'max-affected=1',
      },
      body: JSON.stringify({ value: 7 }),
    });
    expect(response.status).toBe(204);
    expect((await storedCounters('lax-')).map((row) => row.value)).toEqual([7, 7]);
  });
});

describe('constraint violations', () => {
  it('answers a duplicate key with 409 23505', async () => {
    const result = await rest.anon.from('genres').insert({ name: 'fantasy' });
    expectRestError(result, 409, {
      code: '23505',
      message: 'duplicate key value violates unique constraint "genres_name_key"',
      details: 'Key (name)=(fantasy) already exists.',
      hint: null,
    });
  });

  it('answers a missing foreign key with 409 23503', async () => {
    const result = await rest.anon.from('reviews').insert({ book_id: 999, stars: 3 });
    expectRestError(result, 409, {
      code: '23503',
      message:
        'insert or update on table "reviews" violates foreign key constraint "reviews_book_id_fkey"',
      details: 'Key (book_id)=(999) is not present in table "books".',
      hint: null,
    });
  });

  it('answers a null in a not-null column with 400 23502', async () => {
    const result = await rest.anon
      .from('counters')
      .insert([{ key: 'nn-a', value: 1 }, { key: 'nn-b' }]);
    expect(result.status).toBe(400);
    expect(result.error).toMatchObject({
      code: '23502',
      message: 'null value in column "value" of relation "counters" violates not-null constraint',
    });
    expect(await storedCounters('nn-')).toEqual([]);
  });

  it('answers a failed check constraint with 400 23514', async () => {
    const result = await rest.anon.from('reviews').update({ stars: 9 }).eq('id', 1);
    expect(result.status).toBe(400);
    expect(result.error).toMatchObject({
      code: '23514',
      message: 'new row for relation "reviews" violates check constraint "reviews_stars_check"',
    });
    const { rows } = await rest.server.db.query(`select stars from public.reviews where id = 1`);
    expect(rows).toEqual([{ stars: 5 }]);
  });
});
