import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRequestContext } from '../db/request-context';
import { startTestServer, type TestServer } from '../testing/harness';
import { ACCESS_MATRIX, ACTORS, type Expected, type Operation } from './access-matrix';
import { createSqlAccessDriver, type AccessDriver, type Outcome } from './sql-access-driver';
import { createTestWorld, type TestWorld } from './test-world';

let server: TestServer;
let world: TestWorld;
let driver: AccessDriver;

beforeAll(async () => {
  server = await startTestServer({ env: { EXTERNAL_ANONYMOUS_USERS_ENABLED: 'true' } });
  world = await createTestWorld(server);
  driver = createSqlAccessDriver(server.db, world.identities, world.resolve);
});
afterAll(() => server?.close());

/** A row as the matrix names it: profiles by user, workspaces by name, memberships workspace/user. */
function rowName(operation: Operation, row: Record<string, unknown>): string {
  if (operation.kind !== 'select') return JSON.stringify(row);
  if (operation.table === 'workspace_members') {
    return `${world.nameOf(row.workspace_id)}/${world.nameOf(row.user_id)}`;
  }
  return world.nameOf(row.id);
}

/** The outcome in the matrix's terms, so a failure shows expected and actual side by side. */
function describeOutcome(operation: Operation, outcome: Outcome, expected: Expected): unknown {
  if (!outcome.ok) {
    if (outcome.code === '42501') return { denied: true };
    if (outcome.code === '23514') return { violates: true };
    return { error: outcome.code, message: outcome.message };
  }
  if ('rows' in expected)
    return { rows: outcome.rows.map((row) => rowName(operation, row)).sort() };
  if ('returns' in expected) return { returns: outcome.rows[0]?.result };
  return { affects: outcome.count };
}

function normalise(expected: Expected): Expected {
  return 'rows' in expected ? { rows: [...expected.rows].sort() } : expected;
}

for (const { table, rows } of ACCESS_MATRIX) {
  describe(table, () => {
    for (const row of rows) {
      describe(row.title, () => {
        it.each(ACTORS)('%s', async (actor) => {
          const expected = row.expect[actor];
          const outcome = await driver.run(actor, row.operation);
          expect(describeOutcome(row.operation, outcome, expected)).toEqual(normalise(expected));
        });
      });
    }
  });
}

describe('the auth schema', () => {
  it('is out of reach: nobody reads users or changes their own app_metadata', async () => {
    for (const actor of ACTORS) {
      const { role, claims } = world.identities[actor];
      const context = { role, claims, method: 'PATCH', path: '/', headers: {} };
      for (const sql of [
        `select raw_app_meta_data from auth.users`,
        `update auth.users set raw_app_meta_data = '{"role":"admin"}' where id = auth.uid()`,
      ]) {
        await expect(withRequestContext(server.db, context, (tx) => tx.query(sql))).rejects.toThrow(
          /permission denied/,
        );
      }
    }
    const { rows } = await server.db.query<{ role: string | null }>(
      `select raw_app_meta_data ->> 'role' as role from auth.users where id = $1`,
      [world.users.alice],
    );
    expect(rows[0]?.role).toBeNull();
  });

  it('claims are what count: a token whose app_metadata says admin, at aal2, reads everything', async () => {
    // Tokens are signed by the server; a user cannot mint this one. It shows
    // the policies trust the verified JWT, so only the server may issue roles,
    // and that an admin's role counts only with a second factor (aal2).
    const read = async (aal: string) => {
      const forged = {
        ...world.identities.alice,
        claims: { ...world.identities.alice.claims, aal, app_metadata: { role: 'admin' } },
      };
      const context = { ...forged, method: 'GET', path: '/rest/v1/workspaces', headers: {} };
      return withRequestContext(server.db, context, async (tx) =>
        (await tx.query<{ id: string }>(`select id from public.workspaces`)).rows.map((r) => r.id),
      );
    };
    expect((await read('aal2')).sort()).toEqual(
      [world.workspaces.acme, world.workspaces.bluebird].sort(),
    );
    expect(await read('aal1')).toEqual([world.workspaces.acme]);
  });
});
