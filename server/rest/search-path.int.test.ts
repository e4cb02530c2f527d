import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * The data API's `search_path`, as PostgREST sets it on Supabase: the request's
 * schema, then `public` and `extensions`, each quoted. So a function of another
 * exposed schema may call `public`'s functions unqualified, and a schema whose
 * name needs quoting still resolves.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { REST_SCHEMAS: 'public,api,MixedCase' } });
  await server.db.exec(`
    create schema api;
    create schema "MixedCase";
    grant usage on schema api, "MixedCase" to anon, authenticated, service_role;
    create function public.greeting_word() returns text
      language sql stable as $$ select 'hello' $$;
    grant execute on function public.greeting_word() to anon;
    create function api.greet(name text) returns text
      language plpgsql stable as $$ begin return greeting_word() || ', ' || name; end $$;
    create function api.current_search_path() returns text
      language sql stable as $$ select current_setting('search_path') $$;
    create function "MixedCase".current_search_path() returns text
      language sql stable as $$ select current_setting('search_path') $$;
    grant execute on all functions in schema api, "MixedCase" to anon;
  `);
  await server.reloadSchema();
});
afterAll(() => server?.close());

describe('search_path of a data API request', () => {
  it('is the schema, then "public" and "extensions", quoted as PostgREST quotes them', async () => {
    const api = clientFor(server).schema('api');
    const path = await api.rpc('current_search_path');
    expect(path.error).toBeNull();
    expect(path.data).toBe('"api", "public", "extensions"');

    const mixed = await clientFor(server).schema('MixedCase').rpc('current_search_path');
    expect(mixed.error).toBeNull();
    expect(mixed.data).toBe('"MixedCase", "public", "extensions"');
  });

  it('lets a function of another exposed schema call public’s functions unqualified', async () => {
    const greeting = await clientFor(server).schema('api').rpc('greet', { name: 'Ada' });
    expect(greeting.error).toBeNull();
    expect(greeting.data).toBe('hello, Ada');
  });
});
