import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';
import { expectRefusal, signedInClient, startFormsServer, type SignedIn } from './forms-testing';

/**
 * Who reaches the forms' tables through the data API. Visitors only call the
 * functions; nobody but an admin reads or changes a lead, booking,
 * application or setting (partners see their own record and clicks), and no
 * one, an admin included, reads a booking's token hash.
 */

let server: TestServer;
let anon: SupabaseClient;
let customer: SignedIn;
let admin: SignedIn;
let partner: SignedIn & { partnerId: string; code: string };
const seeded = { lead: '', booking: '', application: '', rule: '' };

beforeAll(async () => {
  server = await startFormsServer();
  anon = clientFor(server);
  [customer, admin] = await Promise.all([
    signedInClient(server, { fullName: 'Cleo Customer', company: 'Cleo Co' }),
    signedInClient(server, { fullName: 'Adam Admin', company: 'Cervana', role: 'admin' }),
  ]);
  const partnerUser = await signedInClient(server, {
    fullName: 'Pia Partner',
    company: 'Access Partners',
    role: 'partner',
  });
  const { rows } = await server.db.query<{ id: string; referral_code: string }>(
    `select id, referral_code from public.partners where user_id = $1`,
    [partnerUser.id],
  );
  partner = { ...partnerUser, partnerId: rows[0]!.id, code: rows[0]!.referral_code };

  // One row in every table, made the way visitors make them.
  const lead = await anon.rpc('submit_sales_inquiry', {
    full_name: 'Lena Lead',
    email: uniqueEmail('lead'),
    company: 'Lead Co',
    team_size: '1-5',
    monthly_call_volume: 'under-500',
    consent: true,
    referral_code: partner.code,
  });
  const applicationEmail = uniqueEmail('applicant');
  const application = await anon.rpc('submit_partner_application', {
    full_name: 'Abe Applicant',
    email: applicationEmail,
    company: 'Applicant Co',
    partner_type: 'agency',
    expected_referrals: 3,
  });
  const slots = await anon.rpc('get_demo_slots');
  const booking = await anon.rpc('book_demo', {
    starts_at: (slots.data as { starts_at: string }[])[0]!.starts_at,
    full_name: 'Bea Booker',
    email: uniqueEmail('booker'),
    company: 'Booker Co',
    team_size: '6-20',
    time_zone: 'America/Chicago',
  });
  const click = await anon.rpc('record_referral_click', { code: partner.code });
  for (const result of [lead, application, slots, booking, click]) expect(result.error).toBeNull();
  seeded.lead = (lead.data as { id: string }).id;
  const applied = await server.db.query<{ id: string }>(
    `select id from public.partner_applications where email = $1`,
    [applicationEmail],
  );
  seeded.application = applied.rows[0]!.id;
  seeded.booking = (booking.data as { id: string }).id;
  await server.db.query(
    `insert into public.blackout_dates (day, reason) values ('2031-12-25', 'Holiday')`,
  );
  const rule = await server.db.query<{ id: string }>(
    `select id from public.availability_rules where weekday = 1`,
  );
  seeded.rule = rule.rows[0]!.id;
});
afterAll(() => server?.close());

interface TableSpec {
  table: string;
  /** A column that is never null, to filter writes by (the API wants a filter). */
  key: string;
  insert?: () => Record<string, unknown>;
  update: Record<string, unknown>;
}

const TABLES: TableSpec[] = [
  {
    table: 'leads',
    key: 'id',
    insert: () => ({
      full_name: 'Sneaky',
      email: 'sneaky@example.com',
      company: 'Sneaky Co',
      team_size: '1-5',
      monthly_call_volume: 'under-500',
      consent_at: new Date().toISOString(),
    }),
    update: { status: 'lost', notes: 'changed' },
  },
  {
    table: 'demo_bookings',
    key: 'id',
    insert: () => ({
      starts_at: '2031-01-06T15:00:00Z',
      ends_at: '2031-01-06T15:30:00Z',
      full_name: 'Sneaky',
      email: 'sneaky@example.com',
      company: 'Sneaky Co',
      team_size: '1-5',
      time_zone: 'UTC',
      manage_token_hash: '\\x00',
    }),
    update: { status: 'cancelled' },
  },
  {
    table: 'partner_applications',
    key: 'id',
    insert: () => ({
      full_name: 'Sneaky',
      email: 'sneaky@example.com',
      company: 'Sneaky Co',
      partner_type: 'other',
      expected_referrals: 1,
    }),
    update: { status: 'approved' },
  },
  {
    table: 'partners',
    key: 'id',
    insert: () => ({ company: 'Sneaky Co', referral_code: 'SNEAKY42' }),
    update: { commission_rate: 0.5, tier: 'gold' },
  },
  {
    table: 'referral_clicks',
    key: 'partner_id',
    insert: () => ({ partner_id: partner.partnerId, day: '2031-01-01', clicks: 1000 }),
    update: { clicks: 1000 },
  },
  { table: 'site_settings', key: 'id', update: { submissions_per_ip_per_hour: 1 } },
  { table: 'scheduler_settings', key: 'id', update: { buffer_minutes: 0, horizon_days: 1 } },
  {
    table: 'availability_rules',
    key: 'id',
    insert: () => ({ weekday: 6, start_time: '00:00', end_time: '23:00' }),
    update: { end_time: '23:30' },
  },
  {
    table: 'blackout_dates',
    key: 'day',
    insert: () => ({ day: '2031-06-01', reason: 'Sneaky' }),
    update: { reason: 'changed' },
  },
];

/** The table's whole content as one hash (as the superuser), to see that nothing changed. */
async function fingerprint(table: string): Promise<{ rows: number; hash: string }> {
  const { rows } = await server.db.query<{ rows: number; hash: string }>(
    `select count(*)::int as rows, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as hash
     from public.${table} t`,
  );
  return rows[0]!;
}

describe.each([
  ['an anonymous visitor', () => anon],
  ['a signed-in customer', () => customer.client],
])('%s', (_, client) => {
  it.each(TABLES)('reads nothing of $table and changes nothing in it', async (spec) => {
    const before = await fingerprint(spec.table);
    expect(before.rows).toBeGreaterThan(0); // there is something to hide

    const read = await client().from(spec.table).select(spec.key);
    expect(
      read.error !== null || (Array.isArray(read.data) && read.data.length === 0),
      JSON.stringify(read),
    ).toBe(true);
    const everything = await client().from(spec.table).select('*');
    expect(everything.error !== null || everything.data?.length === 0).toBe(true);

    if (spec.insert) {
      const inserted = await client().from(spec.table).insert(spec.insert()).select(spec.key);
      expect(inserted.error, `insert into ${spec.table}`).not.toBeNull();
    }
    const updated = await client()
      .from(spec.table)
      .update(spec.update)
      .not(spec.key, 'is', null)
      .select(spec.key);
    expect(updated.error !== null || updated.data?.length === 0, `update ${spec.table}`).toBe(true);
    const deleted = await client()
      .from(spec.table)
      .delete()
      .not(spec.key, 'is', null)
      .select(spec.key);
    expect(deleted.error !== null || deleted.data?.length === 0, `delete from ${spec.table}`).toBe(
      true,
    );

    expect(await fingerprint(spec.table)).toEqual(before);
  });

  it('does not reach the private schema nor the outbox', async () => {
    const counts = await client().schema('private').from('submission_counts').select('*');
    expect(counts.error).not.toBeNull();
    const outbox = await client().from('outbox_messages').select('id');
    expect(outbox.error !== null || outbox.data?.length === 0).toBe(true);
  });
});

describe('an admin', () => {
  it('reads every lead, booking, application and availability rule', async () => {
    const leads = await admin.client.from('leads').select('id, email, partner_id');
    expect(leads.error).toBeNull();
    expect(leads.data).toEqual([
      expect.objectContaining({ id: seeded.lead, partner_id: partner.partnerId }),
    ]);

    const bookings = await admin.client
      .from('demo_bookings')
      .select('id, starts_at, status, revision, time_zone');
    expect(bookings.error).toBeNull();
    expect(bookings.data).toEqual([
      expect.objectContaining({
        id: seeded.booking,
        status: 'confirmed',
        time_zone: 'America/Chicago',
      }),
    ]);

    const applications = await admin.client.from('partner_applications').select('id, status');
    expect(applications.error).toBeNull();
    // Not confirmed by its address's owner yet: admins see it as such.
    expect(applications.data).toEqual([{ id: seeded.application, status: 'unconfirmed' }]);

    const rules = await admin.client
      .from('availability_rules')
      .select('weekday, start_time, end_time')
      .order('weekday');
    expect(rules.error).toBeNull();
    expect(rules.data).toEqual(
      [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start_time: '09:00:00', end_time: '17:00:00' })),
    );

    for (const table of [
      'partners',
      'referral_clicks',
      'site_settings',
      'scheduler_settings',
      'blackout_dates',
    ]) {
      const result = await admin.client.from(table).select('*');
      expect(result.error, table).toBeNull();
      expect(result.data?.length, table).toBeGreaterThan(0);
    }
  });

  it('works leads, applications, availability and the limits', async () => {
    const before = await admin.client
      .from('leads')
      .select('version')
      .eq('id', seeded.lead)
      .single();
    const lead = await admin.client.rpc('update_lead', {
      p_lead_id: seeded.lead,
      p_changes: { status: 'contacted', owner_id: admin.id },
      p_expected_version: (before.data as { version: number }).version,
    });
    expect(lead.error).toBeNull();
    expect(lead.data).toMatchObject({ status: 'contacted', owner_id: admin.id });
    const note = await admin.client.rpc('add_lead_note', {
      p_lead_id: seeded.lead,
      p_body: 'Called back',
    });
    expect(note.data).toMatchObject({ body: 'Called back', author_id: admin.id });

    // Applications are decided through reject/approve_partner_application only
    // (20261127000700), once their address's owner has confirmed them.
    const patched = await admin.client
      .from('partner_applications')
      .update({ status: 'rejected', decision_reason: 'Not a fit yet', reviewed_by: admin.id })
      .eq('id', seeded.application)
      .select('status');
    expect(patched.error?.code).toBe('42501');
    await server.db.query(
      `update public.partner_applications set status = 'pending', confirmed_at = now() where id = $1`,
      [seeded.application],
    );
    const application = await admin.client.rpc('reject_partner_application', {
      p_application_id: seeded.application,
      p_reason: 'Not a fit yet',
    });
    expect(application.error).toBeNull();
    expect(application.data).toMatchObject({
      status: 'rejected',
      decision_reason: 'Not a fit yet',
    });

    const rule = await admin.client
      .from('availability_rules')
      .update({ end_time: '18:00' })
      .eq('id', seeded.rule)
      .select('end_time');
    expect(rule.error).toBeNull();
    expect(rule.data).toEqual([{ end_time: '18:00:00' }]);

    const settings = await admin.client
      .from('site_settings')
      .update({ submissions_per_email_per_hour: 5 })
      .eq('id', true)
      .select('submissions_per_email_per_hour');
    expect(settings.error).toBeNull();
    expect(settings.data).toEqual([{ submissions_per_email_per_hour: 5 }]);

    const unknownZone = await admin.client
      .from('scheduler_settings')
      .update({ time_zone: 'Mars/Olympus_Mons' })
      .eq('id', true)
      .select('time_zone');
    expectRefusal(unknownZone, 400, 'time_zone');
    const zone = await admin.client
      .from('scheduler_settings')
      .update({ time_zone: 'Europe/Paris' })
      .eq('id', true)
      .select('time_zone');
    expect(zone.error).toBeNull();
    expect(zone.data).toEqual([{ time_zone: 'Europe/Paris' }]);

    const { rows } = await server.db.query(
      `select (select status from public.leads where id = $1) as lead,
         (select status from public.partner_applications where id = $2) as application,
         (select end_time::text from public.availability_rules where id = $3) as rule`,
      [seeded.lead, seeded.application, seeded.rule],
    );
    expect(rows[0]).toEqual({
      lead: 'contacted',
      application: 'rejected',
      rule: '18:00:00',
    });
  });

  // RETURNING needs SELECT on every column it names: the data API returns only
  // what the request reads (as PostgREST does), so column grants that keep the
  // token hash out of reach do not block an admin's update or delete.
  it('changes a booking (column grants: the token hash stays out of reach)', async () => {
    const booking = await admin.client
      .from('demo_bookings')
      .update({ notes: 'Bring the VP' })
      .eq('id', seeded.booking)
      .select('id, notes');
    expect(booking.error).toBeNull();
    expect(booking.data).toEqual([{ id: seeded.booking, notes: 'Bring the VP' }]);
    const { rows } = await server.db.query(`select notes from public.demo_bookings where id = $1`, [
      seeded.booking,
    ]);
    expect(rows).toEqual([{ notes: 'Bring the VP' }]);
  });

  it('changes a booking without asking for rows back (return=minimal)', async () => {
    const booking = await admin.client
      .from('demo_bookings')
      .update({ notes: 'Minimal' })
      .eq('id', seeded.booking);
    expect(booking.error).toBeNull();
    const { rows } = await server.db.query(`select notes from public.demo_bookings where id = $1`, [
      seeded.booking,
    ]);
    expect(rows).toEqual([{ notes: 'Minimal' }]);
  });

  it('never reads nor writes a booking’s token hash, and books only through book_demo', async () => {
    const hash = await admin.client.from('demo_bookings').select('id, manage_token_hash');
    expect(hash.error).not.toBeNull();
    expect(hash.data).toBeNull();
    const filtered = await admin.client
      .from('demo_bookings')
      .select('id')
      .eq('manage_token_hash', '\\x00');
    expect(filtered.error).not.toBeNull();

    const before = await fingerprint('demo_bookings');
    const overwrite = await admin.client
      .from('demo_bookings')
      .update({ manage_token_hash: '\\x00' })
      .eq('id', seeded.booking);
    expect(overwrite.error).not.toBeNull();
    const insert = await admin.client.from('demo_bookings').insert(TABLES[1]!.insert!());
    expect(insert.error).not.toBeNull();
    expect(await fingerprint('demo_bookings')).toEqual(before);
  });
});

describe('a partner', () => {
  it('reads their own record and clicks, and changes neither', async () => {
    const other = await signedInClient(server, {
      fullName: 'Otto Other',
      company: 'Other Partners',
      role: 'partner',
    });
    const own = await partner.client.from('partners').select('id, referral_code, commission_rate');
    expect(own.error).toBeNull();
    expect(own.data).toEqual([
      { id: partner.partnerId, referral_code: partner.code, commission_rate: 0.15 },
    ]);
    const clicks = await partner.client.from('referral_clicks').select('partner_id, clicks');
    expect(clicks.data).toEqual([{ partner_id: partner.partnerId, clicks: 1 }]);

    const theirs = await other.client.from('referral_clicks').select('partner_id');
    expect(theirs.data).toEqual([]);
    const otherPartners = await other.client.from('partners').select('id');
    expect(otherPartners.data?.map((row) => row.id)).not.toContain(partner.partnerId);

    const before = await fingerprint('partners');
    const raise = await partner.client
      .from('partners')
      .update({ commission_rate: 0.5 })
      .eq('id', partner.partnerId)
      .select('id');
    expect(raise.error !== null || raise.data?.length === 0).toBe(true);
    expect(await fingerprint('partners')).toEqual(before);
  });
});
