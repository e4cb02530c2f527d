import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectRefusal,
  inquiry,
  signedInClient,
  snapshot,
  startFormsServer,
  type SignedIn,
} from '../forms/forms-testing';
import {
  delay,
  Inbox,
  signedInRealtimeClient,
  subscribed,
  uniqueTopic,
} from '../realtime/realtime-testing';
import { clientFor } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * The admin area's foundations (issue 17): the leads pipeline changes through
 * update_lead from the version the admin saw (a stale change refused with a
 * sentence, nothing stored), notes are a history, and every admin change is
 * in an append-only audit log that no role, admins and the service role
 * included, can change or delete through the API. Customers, partners and
 * anonymous callers get none of it, through the data API or realtime.
 */

let server: TestServer;
let admin: SignedIn;
let secondAdmin: SignedIn;
let customer: SignedIn;
let partner: SignedIn;
let anon: SupabaseClient;
let service: SupabaseClient;
const realtime: SupabaseClient[] = [];

interface Lead {
  id: string;
  status: string;
  owner_id: string | null;
  deal_value_cents: number | null;
  currency: string;
  version: number;
}

async function newLead(company: string): Promise<Lead> {
  const submitted = await anon.rpc('submit_sales_inquiry', inquiry({ company }));
  expect(submitted.error).toBeNull();
  const { rows } = await server.db.query<Lead>(
    `select id, status, owner_id, deal_value_cents, currency, version
     from public.leads where company = $1`,
    [company],
  );
  return rows[0]!;
}

async function auditFor(id: string) {
  const { rows } = await server.db.query<{
    actor_id: string;
    actor_email: string;
    action: string;
    target_table: string;
    before: Record<string, unknown>;
    after: Record<string, unknown>;
  }>(
    `select actor_id, actor_email, action, target_table, before, after
     from public.admin_audit_log where target_id = $1 order by id`,
    [id],
  );
  return rows;
}

beforeAll(async () => {
  server = await startFormsServer();
  admin = await signedInClient(server, { fullName: 'Ada Admin', role: 'admin' });
  secondAdmin = await signedInClient(server, { fullName: 'Abe Admin', role: 'admin' });
  customer = await signedInClient(server, { fullName: 'Cal Customer', company: 'Cal Co' });
  partner = await signedInClient(server, { fullName: 'Pia Partner', role: 'partner' });
  anon = clientFor(server);
  service = clientFor(server, { key: server.serviceRoleKey });
});
afterAll(async () => {
  await Promise.all(realtime.map((client) => client.removeAllChannels()));
  await server?.close();
});

describe('update_lead', () => {
  it('moves a lead through the pipeline from the version the admin saw, and logs who did what', async () => {
    const lead = await newLead('Pipeline Co');
    expect(lead).toMatchObject({ status: 'new', version: 1 });
    const contacted = await admin.client.rpc('update_lead', {
      p_lead_id: lead.id,
      p_changes: { status: 'contacted', owner_id: admin.id },
      p_expected_version: 1,
    });
    expect(contacted.error).toBeNull();
    expect(contacted.data).toMatchObject({ status: 'contacted', owner_id: admin.id, version: 2 });

    const won = await secondAdmin.client.rpc('update_lead', {
      p_lead_id: lead.id,
      p_changes: { status: 'won', deal_value_cents: 1_250_000, currency: 'EUR' },
      p_expected_version: 2,
    });
    expect(won.data).toMatchObject({ status: 'won', deal_value_cents: 1_250_000, version: 3 });

    const entries = await auditFor(lead.id);
    expect(entries).toEqual([
      {
        actor_id: admin.id,
        actor_email: admin.email,
        action: 'update',
        target_table: 'leads',
        before: { status: 'new', owner_id: null, status_changed_at: null },
        after: expect.objectContaining({ status: 'contacted', owner_id: admin.id }),
      },
      {
        actor_id: secondAdmin.id,
        actor_email: secondAdmin.email,
        action: 'update',
        target_table: 'leads',
        before: expect.objectContaining({
          status: 'contacted',
          deal_value_cents: null,
          currency: 'USD',
        }),
        after: expect.objectContaining({
          status: 'won',
          deal_value_cents: 1_250_000,
          currency: 'EUR',
        }),
      },
    ]);
  });

  it('refuses a stale change with a sentence, storing nothing', async () => {
    const lead = await newLead('Race Co');
    const first = await admin.client.rpc('update_lead', {
      p_lead_id: lead.id,
      p_changes: { status: 'qualified' },
      p_expected_version: 1,
    });
    expect(first.error).toBeNull();
    const before = await snapshot(server, ['public.admin_audit_log']);
    const stale = await secondAdmin.client.rpc('update_lead', {
      p_lead_id: lead.id,
      p_changes: { status: 'lost' },
      p_expected_version: 1,
    });
    expectRefusal(stale, 409, 'version');
    expect(stale.error!.message).toMatch(/someone else changed this lead/i);
    const { rows } = await server.db.query(
      'select status, version from public.leads where id = $1',
      [lead.id],
    );
    expect(rows[0]).toEqual({ status: 'qualified', version: 2 });
    expect(await snapshot(server, ['public.admin_audit_log'])).toEqual(before);
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['status', { status: 'maybe' }],
    ['owner_id', { owner_id: 'not-a-uuid' }],
    ['deal_value_cents', { deal_value_cents: -5 }],
    ['deal_value_cents', { deal_value_cents: 12.5 }],
    ['deal_value_cents', { deal_value_cents: '100' }],
    ['deal_value_cents', { status: 'won' }],
    ['currency', { currency: 'XYZ' }],
    ['email', { email: 'changed@example.com' }],
  ];
  it.each(invalid)(
    'refuses a bad %s with 400, naming it, storing nothing',
    async (field, changes) => {
      const lead = await newLead(`Invalid ${field} ${Math.random().toString(36).slice(2)}`);
      const result = await admin.client.rpc('update_lead', {
        p_lead_id: lead.id,
        p_changes: changes,
        p_expected_version: 1,
      });
      expectRefusal(result, 400, field);
      const { rows } = await server.db.query('select version from public.leads where id = $1', [
        lead.id,
      ]);
      expect(rows[0]).toEqual({ version: 1 });
    },
  );

  it('gives a lead to admins only', async () => {
    const lead = await newLead('Owner Co');
    const toCustomer = await admin.client.rpc('update_lead', {
      p_lead_id: lead.id,
      p_changes: { owner_id: customer.id },
      p_expected_version: 1,
    });
    expectRefusal(toCustomer, 400, 'owner_id');
  });

  it('refuses customers, partners and anonymous callers, and direct writes by anyone', async () => {
    const lead = await newLead('Guarded Co');
    for (const [who, client, status] of [
      ['customer', customer.client, 403],
      ['partner', partner.client, 403],
      ['anon', anon, 401],
    ] as const) {
      const result = await client.rpc('update_lead', {
        p_lead_id: lead.id,
        p_changes: { status: 'won', deal_value_cents: 100 },
        p_expected_version: 1,
      });
      expect(result.status, who).toBe(status);
      const note = await client.rpc('add_lead_note', { p_lead_id: lead.id, p_body: 'Sneaky' });
      expect(note.status, who).toBe(status);
      const read = await client.from('leads').select('id').eq('id', lead.id);
      expect(read.data ?? [], who).toEqual([]);
    }
    const direct = await admin.client.from('leads').update({ status: 'lost' }).eq('id', lead.id);
    expect(direct.error?.code).toBe('42501');
    const { rows } = await server.db.query(
      'select status, version from public.leads where id = $1',
      [lead.id],
    );
    expect(rows[0]).toEqual({ status: 'new', version: 1 });
  });
});

describe('lead notes', () => {
  it('are a history with their authors, read by admins only', async () => {
    const lead = await newLead('Notes Co');
    for (const [who, body] of [
      [admin, 'Called, left a voicemail.'],
      [secondAdmin, 'They called back: demo next week.'],
    ] as const) {
      const note = await who.client.rpc('add_lead_note', { p_lead_id: lead.id, p_body: body });
      expect(note.error).toBeNull();
    }
    const notes = await admin.client
      .from('lead_notes')
      .select('body, author_id')
      .eq('lead_id', lead.id)
      .order('created_at');
    expect(notes.data).toEqual([
      { body: 'Called, left a voicemail.', author_id: admin.id },
      { body: 'They called back: demo next week.', author_id: secondAdmin.id },
    ]);
    expectRefusal(
      await admin.client.rpc('add_lead_note', { p_lead_id: lead.id, p_body: '   ' }),
      400,
      'body',
    );
    expect((await customer.client.from('lead_notes').select('id')).data).toEqual([]);
    const edit = await admin.client
      .from('lead_notes')
      .update({ body: 'Rewritten' })
      .eq('lead_id', lead.id);
    expect(edit.error?.code).toBe('42501');
    expect((await auditFor(lead.id)).length).toBe(0);
    const { rows } = await server.db.query<{ count: number }>(
      `select count(*)::int as count from public.admin_audit_log where target_table = 'lead_notes'
       and after ->> 'lead_id' = $1`,
      [lead.id],
    );
    expect(rows[0]!.count).toBe(2);
  });
});

describe('the audit log', () => {
  it('records admins’ changes to the tables they work, and nothing by anyone else', async () => {
    const rule = await admin.client
      .from('availability_rules')
      .select('id, end_time')
      .limit(1)
      .single();
    const ruleId = (rule.data as { id: string }).id;
    await admin.client.from('availability_rules').update({ end_time: '18:30' }).eq('id', ruleId);
    const entries = await auditFor(ruleId);
    expect(entries.at(-1)).toMatchObject({
      actor_id: admin.id,
      action: 'update',
      target_table: 'availability_rules',
      after: { end_time: '18:30:00' },
    });
    // A visitor's booking or inquiry (the public forms) is not an admin action.
    const lead = await newLead('Visitor Co');
    expect(await auditFor(lead.id)).toEqual([]);
  });

  it('is read by admins only', async () => {
    const read = await admin.client.from('admin_audit_log').select('id').limit(1);
    expect(read.data).toHaveLength(1);
    for (const client of [customer.client, partner.client]) {
      expect((await client.from('admin_audit_log').select('id')).data).toEqual([]);
    }
    expect((await anon.from('admin_audit_log').select('id')).error?.code).toBe('42501');
  });

  it('cannot be changed or deleted by any role through the API, admins and the service role included', async () => {
    const before = await server.db.query('select * from public.admin_audit_log order by id');
    expect(before.rows.length).toBeGreaterThan(0);
    const firstId = (before.rows[0] as { id: number }).id;
    for (const [who, client] of [
      ['admin', admin.client],
      ['customer', customer.client],
      ['partner', partner.client],
      ['anon', anon],
      ['service_role', service],
    ] as const) {
      const update = await client
        .from('admin_audit_log')
        .update({ actor_email: 'nobody@example.com' })
        .eq('id', firstId);
      expect(update.error?.code, who).toBe('42501');
      const remove = await client.from('admin_audit_log').delete().eq('id', firstId);
      expect(remove.error?.code, who).toBe('42501');
      const forge = await client.from('admin_audit_log').insert({
        action: 'delete',
        target_table: 'leads',
        actor_email: 'forged@example.com',
      });
      expect(forge.error?.code, who).toBe('42501');
    }
    // Not even a superuser by accident.
    await expect(
      server.db.query('delete from public.admin_audit_log where id = $1', [firstId]),
    ).rejects.toMatchObject({ code: '42501' });
    const after = await server.db.query('select * from public.admin_audit_log order by id');
    expect(after.rows).toEqual(before.rows);
  });
});

describe('live leads', () => {
  it('reach an admin’s subscription at once, and never a customer’s', async () => {
    const adminLive = await signedInRealtimeClient(server, { role: 'admin', fullName: 'Lia Live' });
    const customerLive = await signedInRealtimeClient(server, { fullName: 'Cy Live' });
    realtime.push(adminLive.client, customerLive.client);
    const seenByAdmin = new Inbox<{ company?: string }>();
    const seenByCustomer = new Inbox<{ company?: string }>();
    for (const [client, inbox] of [
      [adminLive.client, seenByAdmin],
      [customerLive.client, seenByCustomer],
    ] as const) {
      await subscribed(
        client
          .channel(uniqueTopic('leads'))
          .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'leads' }, (change) =>
            inbox.push(change.new as { company?: string }),
          ),
      );
    }
    await newLead('Live Co');
    const [seen] = await seenByAdmin.waitFor(1);
    expect(seen!.company).toBe('Live Co');
    await delay(1000);
    expect(seenByCustomer.items).toEqual([]);
  });
});
