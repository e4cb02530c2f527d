import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, startFormsServer, type SignedIn } from '../forms/forms-testing';
import { clientFor } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * Every admin function, present and future, refuses everyone but an admin.
 *
 * The list is read from the database, not written here: each function in
 * `public` that calls `private.require_admin` or whose name starts with
 * `admin_` is called through the data API by an anonymous visitor, a signed-in
 * customer and a partner, with every argument null. The guard must come before
 * anything reads the arguments, so each call is refused with 42501 and nothing
 * else (not a 400 about a missing argument, which would tell a stranger the
 * function exists and reads its input first). An admin making the same call
 * gets past the guard, which shows the refusal is the guard's.
 */

let server: TestServer;
let admin: SignedIn;
let customer: SignedIn;
let partner: SignedIn;
let anon: SupabaseClient;

interface AdminFunction {
  name: string;
  args: string[];
}

let functions: AdminFunction[] = [];

beforeAll(async () => {
  server = await startFormsServer();
  admin = await signedInClient(server, { fullName: 'Gus Guard', role: 'admin' });
  customer = await signedInClient(server, { fullName: 'Cy Customer', company: 'Cy Co' });
  partner = await signedInClient(server, { fullName: 'Pat Partner', role: 'partner' });
  anon = clientFor(server);
  const { rows } = await server.db.query<{ name: string; args: string[] | null }>(
    `select p.proname as name,
            (select array_agg(n order by i)
             from unnest(p.proargnames) with ordinality as a(n, i)
             where coalesce(p.proargmodes[i], 'i') in ('i', 'b')) as args
     from pg_proc p
     join pg_namespace ns on ns.oid = p.pronamespace
     where ns.nspname = 'public'
       and (p.prosrc like '%private.require_admin(%' or p.proname like 'admin\\_%')
     order by p.proname`,
  );
  functions = rows.map((row) => ({ name: row.name, args: row.args ?? [] }));
});

afterAll(async () => {
  await server?.close();
});

function nullArguments(fn: AdminFunction): Record<string, null> {
  return Object.fromEntries(fn.args.map((arg) => [arg, null]));
}

describe('admin functions', () => {
  it('are found, the ones we know among them', () => {
    const names = functions.map((fn) => fn.name);
    expect(names).toEqual(
      expect.arrayContaining(['update_lead', 'add_lead_note', 'admin_overview']),
    );
  });

  it('refuse anonymous visitors, customers and partners before reading their arguments', async () => {
    const outsiders: [string, SupabaseClient][] = [
      ['anon', anon],
      ['customer', customer.client],
      ['partner', partner.client],
    ];
    const answers: string[] = [];
    for (const fn of functions) {
      for (const [who, client] of outsiders) {
        const result = await client.rpc(fn.name, nullArguments(fn));
        answers.push(
          `${fn.name} as ${who}: ${result.status} ${result.error?.code ?? 'no error'}` +
            (result.data === null ? '' : ' with data'),
        );
      }
    }
    const refused = (line: string) => / (401|403) 42501$/.test(line);
    expect(answers.filter((line) => !refused(line))).toEqual([]);
    expect(answers).toHaveLength(functions.length * 3);
  });

  it('let an admin past the guard', async () => {
    const refusedAdmin: string[] = [];
    for (const fn of functions) {
      const result = await admin.client.rpc(fn.name, nullArguments(fn));
      if (result.error?.code === '42501') refusedAdmin.push(`${fn.name}: ${result.error.message}`);
    }
    expect(refusedAdmin).toEqual([]);
  });
});
