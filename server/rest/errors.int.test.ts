import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../testing/clients';
import { expectRestError, startRestTestServer, type RestTestServer } from './testing/rest-server';

/**
 * Error bodies `{code, message, details, hint}` and statuses as PostgREST
 * answers them, seen through the official client, on PGlite and PostgreSQL.
 */

let rest: RestTestServer;

beforeAll(async () => {
  rest = await startRestTestServer();
});
afterAll(() => rest?.close());

describe('unknown names', () => {
  it('answers an unknown table with 404 PGRST205 and suggests a close name', async () => {
    const typo = await rest.anon.from('bookz').select();
    expectRestError(typo, 404, {
      code: 'PGRST205',
      message: "Could not find the table 'public.bookz' in the schema cache",
      details: null,
      hint: "Perhaps you meant the table 'public.books'",
    });

    const far = await rest.anon.from('xqxqxqxq').select();
    expectRestError(far, 404, { code: 'PGRST205', hint: null });
  });

  it('answers an unknown column with 400 42703', async () => {
    const selected = await rest.anon.from('books').select('id,nope');
    expectRestError(selected, 400, {
      code: '42703',
      message: 'column books.nope does not exist',
    });
    const filtered = await rest.anon.from('books').select('id').eq('nope', 1);
    expectRestError(filtered, 400, { code: '42703', message: 'column books.nope does not exist' });
  });

  it('answers an unknown column in a write payload with 400 PGRST204', async () => {
    const result = await rest.anon.from('genres').insert({ name: 'x', colour: 'red' });
    expectRestError(result, 400, {
      code: 'PGRST204',
      message: "Could not find the 'colour' column of 'genres' in the schema cache",
      details: null,
      hint: null,
    });
  });

  it('answers an embed without a relationship with 400 PGRST200', async () => {
    const unrelated = await rest.anon.from('books').select('title,employees(name)');
    expectRestError(unrelated, 400, {
      code: 'PGRST200',
      message: "Could not find a relationship between 'books' and 'employees' in the schema cache",
      details:
        "Searched for a foreign key relationship between 'books' and 'employees' in the schema 'public', but no matches were found.",
      hint: null,
    });

    const typo = await rest.anon.from('books').select('title,reviewz(stars)');
    expectRestError(typo, 400, {
      code: 'PGRST200',
      hint: "Perhaps you meant 'reviews' instead of 'reviewz'.",
    });

    const badHint = await rest.anon.from('books').select('title,reviews!nope(stars)');
    expectRestError(badHint, 400, {
      code: 'PGRST200',
      details:
        "Searched for a foreign key relationship between 'books' and 'reviews' using the hint 'nope' in the schema 'public', but no matches were found.",
    });
  });

  it('answers an ambiguous embed with 300 PGRST201, listing the candidates', async () => {
    const result = await rest.anon.from('books').select('title,authors(name)');
    expectRestError(result, 300, {
      code: 'PGRST201',
      message:
        "Could not embed because more than one relationship was found for 'books' and 'authors'",
      hint: "Try changing 'authors' to one of the following: 'authors!books_author_id_fkey', 'authors!books_editor_id_fkey'. Find the desired relationship in the 'details' key.",
    });
    expect((result.error as { details: unknown }).details).toEqual([
      {
        cardinality: 'many-to-one',
        embedding: 'books with authors',
        relationship: 'books_author_id_fkey using books(author_id) and authors(id)',
      },
      {
        cardinality: 'many-to-one',
        embedding: 'books with authors',
        relationship: 'books_editor_id_fkey using books(editor_id) and authors(id)',
      },
    ]);
  });

  it('answers an unknown function with 404 PGRST202, suggesting the closest one', async () => {
    const unknown = await rest.anon.rpc('adds', { a: 1, b: 2 });
    expectRestError(unknown, 404, {
      code: 'PGRST202',
      message: 'Could not find the function public.adds(a, b) in the schema cache',
      details:
        'Searched for the function public.adds with parameters a, b or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      hint: 'Perhaps you meant to call the function public.add',
    });

    const wrongArguments = await rest.anon.rpc('add', { a: 1, c: 2 });
    expectRestError(wrongArguments, 404, {
      code: 'PGRST202',
      message: 'Could not find the function public.add(a, c) in the schema cache',
      hint: 'Perhaps you meant to call the function public.add(a, b)',
    });

    const viaGet = await rest.anon.rpc('add', { x: 1 }, { get: true });
    expectRestError(viaGet, 404, {
      code: 'PGRST202',
      details:
        'Searched for the function public.add with parameter x, but no matches were found in the schema cache.',
    });
  });

  it('answers overloads it cannot choose between with 300 PGRST203', async () => {
    const result = await rest.anon.rpc('overloaded', { a: 1 });
    expectRestError(result, 300, {
      code: 'PGRST203',
      hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    });
    expect((result.error as { message: string }).message).toMatch(
      /^Could not choose the best candidate function between: public\.overloaded\(a => (integer|text)\), public\.overloaded\(a => (integer|text)\)$/,
    );
  });

  it('answers an unexposed schema with 406 PGRST106', async () => {
    const result = await rest.anon.schema('auth').from('users').select();
    expectRestError(result, 406, {
      code: 'PGRST106',
      message: 'Invalid schema: auth',
      hint: 'Only the following schemas are exposed: public',
    });
  });
});

describe('malformed requests', () => {
  it('answers an unknown operator with 400 PGRST100', async () => {
    const result = await rest.anon.from('books').select('id').filter('id', 'eqq', 1);
    expect(result.status).toBe(400);
    expect(result.error).toMatchObject({ code: 'PGRST100', hint: null });
    expect((result.error as { message: string }).message).toMatch(
      /^"failed to parse filter \(eqq\.1\)" \(line 1, column \d+\)$/,
    );
  });

  it('answers an unbalanced select with 400 PGRST100', async () => {
    const result = await rest.anon.from('books').select('id,reviews(stars');
    expect(result.status).toBe(400);
    expect(result.error).toMatchObject({ code: 'PGRST100' });
    expect((result.error as { message: string }).message).toMatch(
      /^"failed to parse select parameter \(id,reviews\(stars\)" \(line 1, column \d+\)$/,
    );
  });

  it('answers an unbalanced logic tree with 400 PGRST100', async () => {
    const result = await rest.anon.from('books').select('id').or('id.eq.1,and(id.eq.2');
    expect(result.status).toBe(400);
    expect(result.error).toMatchObject({ code: 'PGRST100' });
    expect((result.error as { message: string }).message).toMatch(
      /^"failed to parse logic tree \(\(id\.eq\.1,and\(id\.eq\.2\)\)" \(line 1, column \d+\)$/,
    );
  });

  it('answers an invalid body with 400 PGRST102', async () => {
    const response = await fetch(`${rest.restUrl}/genres`, {
      method: 'POST',
      headers: { ...rest.anonHeaders, 'Content-Type': 'application/json' },
      body: '{"name": ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'PGRST102' });
  });

  it('answers a value of the wrong type with 400 22P02', async () => {
    const result = await rest.anon.from('books').select('id').eq('id', 'abc');
    expectRestError(result, 400, {
      code: '22P02',
      message: 'invalid input syntax for type integer: "abc"',
    });
  });

  it('answers a filter on an embed that is not selected with 400 PGRST108', async () => {
    const result = await rest.anon.from('books').select('id').eq('reviews.stars', 5);
    expectRestError(result, 400, {
      code: 'PGRST108',
      message: "'reviews' is not an embedded resource in this request",
      hint: "Verify that 'reviews' is included in the 'select' query parameter.",
    });
  });
});

describe('requests the API does not serve', () => {
  it('answers an unknown write schema (Content-Profile) with 406 PGRST106', async () => {
    const response = await fetch(`${rest.restUrl}/genres`, {
      method: 'POST',
      headers: {
        ...rest.anonHeaders,
        'Content-Type': 'application/json',
        'Content-Profile': 'nope',
      },
      body: JSON.stringify({ name: 'never' }),
    });
    expect(response.status).toBe(406);
    expect(await response.json()).toEqual({
      code: 'PGRST106',
      message: 'Invalid schema: nope',
      details: null,
      hint: 'Only the following schemas are exposed: public',
    });
  });

  it('answers an Accept it cannot produce with 406 PGRST107', async () => {
    const response = await fetch(`${rest.restUrl}/genres`, {
      headers: { ...rest.anonHeaders, Accept: 'image/png' },
    });
    expect(response.status).toBe(406);
    expect(await response.json()).toEqual({
      code: 'PGRST107',
      message: 'None of these media types are available: image/png',
      details: null,
      hint: null,
    });
  });

  it('answers an unknown preference with handling=strict with 400 PGRST122', async () => {
    const response = await fetch(`${rest.restUrl}/genres`, {
      headers: { ...rest.anonHeaders, Prefer: 'handling=strict, colour=blue' },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 'PGRST122',
      message: 'Invalid preferences given with handling=strict',
      details: 'Invalid preferences: colour=blue',
      hint: null,
    });
  });

  it('answers DELETE on a function with 405 PGRST101 and the bare path with 404 PGRST125', async () => {
    const onRpc = await fetch(`${rest.restUrl}/rpc/add`, {
      method: 'DELETE',
      headers: rest.anonHeaders,
    });
    expect(onRpc.status).toBe(405);
    expect(await onRpc.json()).toMatchObject({
      code: 'PGRST101',
      message: 'Cannot use the DELETE method on RPC',
    });

    const nested = await fetch(`${rest.restUrl}/books/1`, { headers: rest.anonHeaders });
    expect(nested.status).toBe(404);
    expect(await nested.json()).toMatchObject({
      code: 'PGRST125',
      message: 'Invalid path specified in request URL',
    });
  });

  it('answers a negative limit with 416 PGRST103', async () => {
    const response = await fetch(`${rest.restUrl}/genres?limit=-1`, { headers: rest.anonHeaders });
    expect(response.status).toBe(416);
    expect(await response.json()).toEqual({
      code: 'PGRST103',
      message: 'Requested range not satisfiable',
      details: 'Limit should be greater than or equal to zero.',
      hint: null,
    });
  });
});

describe('errors raised by the database', () => {
  it('answers RAISE EXCEPTION (P0001) with 400 and its message and hint', async () => {
    const result = await rest.anon.rpc('fail');
    expectRestError(result, 400, {
      code: 'P0001',
      message: 'it failed',
      details: null,
      hint: 'try again',
    });
  });

  it('passes a custom SQLSTATE through with its own status mapping', async () => {
    const division = await rest.anon.rpc('division');
    expectRestError(division, 400, {
      code: '22012',
      message: 'no dividing',
      details: null,
      hint: 'use multiplication',
    });

    const teapot = await rest.anon.rpc('teapot');
    expectRestError(teapot, 418, {
      code: 'PT418',
      message: 'I am a teapot',
      details: 'short and stout',
      hint: null,
    });
  });

  it('answers insufficient privilege with 401 for anon and 403 when signed in', async () => {
    const anon = await rest.anon.from('vault').select();
    expectRestError(anon, 401, {
      code: '42501',
      message: 'permission denied for table vault',
    });

    const user = await rest.user.from('vault').select();
    expectRestError(user, 403, {
      code: '42501',
      message: 'permission denied for table vault',
    });

    const service = await rest.service.from('vault').select('secret');
    expect(service.error).toBeNull();
    expect(service.data).toEqual([{ secret: 'the combination' }]);
  });
});

describe('tokens', () => {
  it('answers a token that is not a JWT with 401 PGRST301', async () => {
    const client = clientFor(rest.server, {
      global: { headers: { Authorization: 'Bearer not-a-jwt' } },
    });
    const result = await client.from('books').select('id');
    expectRestError(result, 401, {
      code: 'PGRST301',
      message: 'Expected 3 parts in JWT; got 1',
      details: null,
      hint: null,
    });
  });

  it('answers an expired token with 401 PGRST303', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await rest.server.keys.ring.sign({
      role: 'authenticated',
      sub: rest.userId,
      iat: now - 7200,
      exp: now - 3600,
    });
    const client = clientFor(rest.server, {
      global: { headers: { Authorization: `Bearer ${expired}` } },
    });
    const result = await client.from('books').select('id');
    expectRestError(result, 401, {
      code: 'PGRST303',
      message: 'JWT expired',
      details: null,
      hint: null,
    });
  });

  it('answers a token naming a role that does not exist with 401 22023', async () => {
    const token = await rest.server.keys.ring.sign(
      { role: 'no_such_role', sub: rest.userId },
      { expiresInSeconds: 600 },
    );
    const response = await fetch(`${rest.restUrl}/books?select=id`, {
      headers: { apikey: rest.server.anonKey, Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      code: '22023',
      message: 'role "no_such_role" does not exist',
      details: null,
      hint: null,
    });
  });

  it('answers a token with a bad signature with 401 PGRST301', async () => {
    const [header, payload] = rest.userToken.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    const response = await fetch(`${rest.restUrl}/books?select=id`, {
      headers: { apikey: rest.server.anonKey, Authorization: `Bearer ${forged}` },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(await response.json()).toMatchObject({ code: 'PGRST301' });
  });
});
