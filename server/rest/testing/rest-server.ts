import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import { clientFor, uniqueEmail } from '../../testing/clients';
import { startTestServer, type TestServer, type TestServerOptions } from '../../testing/harness';
import { ROOT_DIR } from '../../testing/root-dir';

/**
 * A real server on a fresh test database with the data API's fixture schema
 * (fixture.sql, then integration-fixture.sql) loaded and the schema cache
 * reloaded, and the official client as each kind of caller.
 */

export interface RestTestServer {
  server: TestServer;
  /** The anon key: role anon. */
  anon: SupabaseClient;
  /** The service-role key: role service_role (bypasses row-level security). */
  service: SupabaseClient;
  /** A signed-in user: role authenticated. */
  user: SupabaseClient;
  userId: string;
  userToken: string;
  /** `${server.url}/rest/v1` */
  restUrl: string;
  /** Headers for raw fetch as anon (the client's apikey and bearer). */
  anonHeaders: Record<string, string>;
  /** Headers for raw fetch as service_role. */
  serviceHeaders: Record<string, string>;
  close(): Promise<void>;
}

const PASSWORD = 'a long and unusual passphrase 19';

async function fixtureSql(name: string): Promise<string> {
  return readFile(path.join(ROOT_DIR, 'server', 'rest', 'testing', name), 'utf8');
}

/**
 * `fixtures`: the SQL files of server/rest/testing/ to load, in order; the rest
 * of the options go to the test server.
 */
export async function startRestTestServer({
  fixtures = ['fixture.sql', 'integration-fixture.sql'],
  ...options
}: TestServerOptions & { fixtures?: string[] } = {}): Promise<RestTestServer> {
  const server = await startTestServer(options);
  try {
    for (const fixture of fixtures) await server.db.exec(await fixtureSql(fixture));
    await server.reloadSchema();

    const service = clientFor(server, { key: server.serviceRoleKey });
    const email = uniqueEmail('rest');
    const created = await service.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    if (created.error) throw created.error;
    const user = clientFor(server);
    const signedIn = await user.auth.signInWithPassword({ email, password: PASSWORD });
    if (signedIn.error) throw signedIn.error;

    return {
      server,
      anon: clientFor(server),
      service,
      user,
      userId: created.data.user.id,
      userToken: signedIn.data.session.access_token,
      restUrl: `${server.url}/rest/v1`,
      anonHeaders: { apikey: server.anonKey, Authorization: `Bearer ${server.anonKey}` },
      serviceHeaders: {
        apikey: server.serviceRoleKey,
        Authorization: `Bearer ${server.serviceRoleKey}`,
      },
      close: () => server.close(),
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** A PostgREST error body as the client hands it back. */
export interface RestErrorBody {
  code: string;
  message: string;
  details: unknown;
  hint: string | null;
}

/** Asserts a client result failed with this status and (a subset of) this error body. */
export function expectRestError(
  result: { error: unknown; status: number; data: unknown },
  status: number,
  body: Partial<RestErrorBody>,
): void {
  expect(result.data).toBeNull();
  expect(result.status).toBe(status);
  expect(result.error).toMatchObject(body);
}
