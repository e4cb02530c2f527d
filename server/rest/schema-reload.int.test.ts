import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabaseKind, type TestServer } from '../testing/harness';

/**
 * `NOTIFY pgrst, 'reload schema'` as PostgREST honours it: heard from the
 * moment the server listens (not from its first data request), heard again
 * after the listening connection is lost, and sent by migrations so that the
 * other servers on the database see their tables.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

function serviceClient() {
  return createClient(server.url, server.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
}

async function createTable(name: string): Promise<void> {
  await server.db.exec(
    `create table public.${name} (id int primary key, label text);
     insert into public.${name} values (1, 'one');
     grant select on public.${name} to service_role;`,
  );
}

describe('schema reload notices', () => {
  it('sees a table announced once right after the server started, before any data request', async () => {
    await createTable('reload_first');
    await server.db.query(`notify pgrst, 'reload schema'`);
    await expect
      .poll(async () => (await serviceClient().from('reload_first').select('id,label')).data, {
        timeout: 5000,
      })
      .toEqual([{ id: 1, label: 'one' }]);
  });

  it('keeps answering PGRST205 for a table nobody announced', async () => {
    await createTable('reload_unannounced');
    const { error, status } = await serviceClient().from('reload_unannounced').select('id');
    expect(status).toBe(404);
    expect(error?.code).toBe('PGRST205');
  });

  // PGlite has no connection to lose (its thread's restart listens again the same way).
  it.runIf(testDatabaseKind() === 'postgres')(
    'reloads after its listening connection was cut, and hears the next notice',
    async () => {
      // Made while nobody could hear: found by the reload that follows listening again.
      await server.db.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where application_name = 'cervana-listen' and datname = current_database()`,
      );
      await createTable('reload_missed');
      await expect
        .poll(async () => (await serviceClient().from('reload_missed').select('id')).data, {
          timeout: 10_000,
        })
        .toEqual([{ id: 1 }]);
      await createTable('reload_after');
      await server.db.query(`notify pgrst, 'reload schema'`);
      await expect
        .poll(async () => (await serviceClient().from('reload_after').select('id')).data, {
          timeout: 5000,
        })
        .toEqual([{ id: 1 }]);
    },
  );
});
