import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  application,
  inquiry,
  signedInClient,
  startFormsServer,
  type SignedIn,
} from '../forms/forms-testing';
import {
  delay,
  Inbox,
  realtimeClient,
  signedInRealtimeClient,
  subscribed,
  uniqueTopic,
} from '../realtime/realtime-testing';
import { PASSWORD } from '../schema/test-world';
import { clientFor, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * Live changes of the admin-only tables reach admins (at aal2) and nobody
 * else: not a customer, a partner, an anonymous visitor, nor an admin signed
 * in with the password only (aal1). The tables are read from the realtime
 * publication, so a table published later is swept too; only `calls`, which
 * belongs to workspaces, is left to its own tests.
 */

let server: TestServer;
let admin: SignedIn;
let anon: SupabaseClient;
const opened: SupabaseClient[] = [];
let tables: string[] = [];

/** Rows in each admin table, so a change has something to touch. */
async function seed() {
  const lead = await anon.rpc('submit_sales_inquiry', inquiry({ company: 'Realtime Sweep Co' }));
  expect(lead.error).toBeNull();
  const applied = await anon.rpc('submit_partner_application', application());
  expect(applied.error).toBeNull();
  const slots = await anon.rpc('get_demo_slots', {});
  expect(slots.error).toBeNull();
  const slot = (slots.data as { starts_at: string }[])[0]!;
  const booked = await anon.rpc('book_demo', {
    starts_at: slot.starts_at,
    full_name: 'Rae Realtime',
    email: uniqueEmail('sweep'),
    company: 'Sweep Ltd',
    team_size: '21-50',
    time_zone: 'Europe/Paris',
    notes: null,
    fax: null,
  });
  expect(booked.error).toBeNull();
  const { rows } = await server.db.query<{ id: string }>(
    `select id from public.leads order by created_at desc limit 1`,
  );
  const note = await admin.client.rpc('add_lead_note', {
    p_lead_id: rows[0]!.id,
    p_body: 'Called back; wants a demo.',
  });
  expect(note.error).toBeNull();
}

beforeAll(async () => {
  server = await startFormsServer();
  admin = await signedInClient(server, { fullName: 'Ria Realtime', role: 'admin' });
  anon = clientFor(server);
  const { rows } = await server.db.query<{ tablename: string }>(
    `select tablename from pg_publication_tables
     where pubname = 'supabase_realtime' and schemaname = 'public' and tablename <> 'calls'
     order by tablename`,
  );
  tables = rows.map((row) => row.tablename);
  await seed();
});

afterAll(async () => {
  await Promise.all(opened.map((client) => client.removeAllChannels()));
  await server?.close();
});

/** An admin with a factor, signed in with the password only. */
async function passwordOnlyAdmin() {
  const live = await signedInRealtimeClient(server, { role: 'admin', fullName: 'Pam Password' });
  const client = realtimeClient(server);
  const { data, error } = await client.auth.signInWithPassword({
    email: live.email,
    password: PASSWORD,
  });
  if (error) throw error;
  client.realtime.setAuth(data.session.access_token);
  opened.push(live.client);
  return client;
}

describe('live changes of admin tables', () => {
  it('are the tables we know, and more as they come', () => {
    expect(tables).toEqual(
      expect.arrayContaining(['leads', 'lead_notes', 'demo_bookings', 'partner_applications']),
    );
  });

  it('reach an admin and no one else', async () => {
    const watchers: [string, SupabaseClient][] = [
      [
        'admin',
        (await signedInRealtimeClient(server, { role: 'admin', fullName: 'Al Live' })).client,
      ],
      ['customer', (await signedInRealtimeClient(server, { fullName: 'Cu Live' })).client],
      [
        'partner',
        (await signedInRealtimeClient(server, { role: 'partner', fullName: 'Pa Live' })).client,
      ],
      ['admin at aal1', await passwordOnlyAdmin()],
      ['anon', realtimeClient(server)],
    ];
    opened.push(...watchers.map(([, client]) => client));
    const inboxes = new Map<string, Inbox<string>>();
    for (const [who, client] of watchers) {
      const inbox = new Inbox<string>();
      inboxes.set(who, inbox);
      for (const table of tables) {
        await subscribed(
          client
            .channel(uniqueTopic(`${table}-${who.replace(/\W/g, '')}`))
            .on('postgres_changes', { event: '*', schema: 'public', table }, () =>
              inbox.push(table),
            ),
        );
      }
    }

    // One change to a row of each table (as the server would make it).
    for (const table of tables) {
      const { rowCount } = await server.db.query(
        `update public.${table} set id = id where id = (select id from public.${table} limit 1)`,
      );
      expect(rowCount, table).toBe(1);
    }

    const seenByAdmin = await inboxes.get('admin')!.waitFor(tables.length);
    expect([...new Set(seenByAdmin)].sort()).toEqual([...tables].sort());
    await delay(1000);
    for (const who of ['customer', 'partner', 'admin at aal1', 'anon']) {
      expect({ who, seen: inboxes.get(who)!.items }).toEqual({ who, seen: [] });
    }
  });
});
