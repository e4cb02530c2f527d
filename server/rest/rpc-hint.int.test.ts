import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectRestError, startRestTestServer, type RestTestServer } from './testing/rest-server';

/**
 * PGRST202's message, details and hint as PostgREST 12/13 writes them
 * (Error.hs noRpcHint): a function name 75% similar or more in the same
 * schema, else null; for a known name, the closest parameter list of its
 * overloads. Through the official client's rpc(), on PGlite and PostgreSQL.
 */

let rest: RestTestServer;

beforeAll(async () => {
  rest = await startRestTestServer();
  await rest.server.db.exec(
    `create schema if not exists hidden;
     create function hidden.secret_report(since date) returns integer language sql as $$ select 1 $$;
     create function public.record_call(caller_id integer, duration integer) returns integer
       language sql as $$ select caller_id + duration $$;
     create function public.record_call(note text) returns integer language sql as $$ select 1 $$;`,
  );
  await rest.server.reloadSchema();
});
afterAll(() => rest?.close());

const json = ' or with a single unnamed json/jsonb parameter';

describe("PGRST202's hint", () => {
  it('suggests a function whose name is 75% similar or more', async () => {
    expectRestError(await rest.anon.rpc('adds', { a: 1, b: 2 }), 404, {
      code: 'PGRST202',
      message: 'Could not find the function public.adds(a, b) in the schema cache',
      details: `Searched for the function public.adds with parameters a, b${json}, but no matches were found in the schema cache.`,
      hint: 'Perhaps you meant to call the function public.add',
    });
    expectRestError(await rest.anon.rpc('record_cal', { note: 'x' }), 404, {
      hint: 'Perhaps you meant to call the function public.record_call',
    });
  });

  it('suggests the same name in another case as an exact match', async () => {
    expectRestError(await rest.anon.rpc('ADD', { a: 1, b: 2 }), 404, {
      message: 'Could not find the function public.ADD(a, b) in the schema cache',
      hint: 'Perhaps you meant to call the function public.add',
    });
  });

  it('gives no hint below 75%, nor for a function of another schema', async () => {
    // "ad" is 67% like "add": PostgREST stays silent.
    expectRestError(await rest.anon.rpc('ad', { a: 1, b: 2 }), 404, {
      code: 'PGRST202',
      hint: null,
    });
    expectRestError(await rest.anon.rpc('noclosealternative'), 404, {
      message:
        'Could not find the function public.noclosealternative without parameters in the schema cache',
      details: `Searched for the function public.noclosealternative without parameters${json}, but no matches were found in the schema cache.`,
      hint: null,
    });
    expectRestError(await rest.anon.rpc('secret_report', { since: '2026-01-01' }), 404, {
      hint: null,
    });
  });

  it('suggests the closest parameter list among the overloads', async () => {
    expectRestError(await rest.anon.rpc('record_call', { caller: 1, duration: 2 }), 404, {
      message:
        'Could not find the function public.record_call(caller, duration) in the schema cache',
      details: `Searched for the function public.record_call with parameters caller, duration${json}, but no matches were found in the schema cache.`,
      hint: 'Perhaps you meant to call the function public.record_call(caller_id, duration)',
    });
    expectRestError(await rest.anon.rpc('record_call', { notes: 'x' }), 404, {
      hint: 'Perhaps you meant to call the function public.record_call(note)',
    });
    expectRestError(await rest.anon.rpc('books_by', { authr: 'x' }, { get: true }), 404, {
      details:
        'Searched for the function public.books_by with parameter authr, but no matches were found in the schema cache.',
      hint: 'Perhaps you meant to call the function public.books_by(author)',
    });
  });

  it('gives no hint when no parameter list shares anything with the arguments', async () => {
    expectRestError(await rest.anon.rpc('add_default', { x: 1 }), 404, {
      message: 'Could not find the function public.add_default(x) in the schema cache',
      hint: null,
    });
  });

  it('answers oversized and odd names and arguments the same way, without a crash', async () => {
    const longName = 'a'.repeat(3000);
    expectRestError(await rest.anon.rpc(longName), 404, { code: 'PGRST202', hint: null });
    const manyKeys = Object.fromEntries(
      Array.from({ length: 200 }, (_, index) => [`k${index}`, index]),
    );
    expectRestError(await rest.anon.rpc('add', manyKeys), 404, { code: 'PGRST202' });
    expectRestError(await rest.anon.rpc('add', { 'a"); drop table books; --': 1 }), 404, {
      code: 'PGRST202',
    });
  });
});
