import type { SupabaseClient } from '@supabase/supabase-js';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectRefusal,
  inquiry,
  signedInClient,
  snapshot,
  startFormsServer,
  type SignedIn,
} from '../forms/forms-testing';
import { clientFor, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * What the partner portal reads and writes (issue 18, decision 028): deal
 * registration and its conflicts, the partner's referrals with only what a
 * prospect agreed to share, the portal's figures, the co-branded demo link's
 * company, and the isolation between partners: partner A never sees partner
 * B's referrals, registrations, commissions or payouts, and customers and
 * visitors see no partner data at all.
 */

let server: TestServer;
let admin: SignedIn;
let anon: SupabaseClient;
let alpha: SignedIn & { partnerId: string; code: string };
let beta: SignedIn & { partnerId: string; code: string };
let customer: SignedIn;

const REGISTRATION_TABLES = ['public.deal_registrations', 'public.leads', 'public.outbox_messages'];

const suffix = () => randomBytes(3).toString('hex');

async function partner(name: string, company: string) {
  const signedIn = await signedInClient(server, { fullName: name, company, role: 'partner' });
  const { rows } = await server.db.query<{ id: string; referral_code: string; version: number }>(
    `select id, referral_code, version from public.partners where user_id = $1`,
    [signedIn.id],
  );
  return { ...signedIn, partnerId: rows[0]!.id, code: rows[0]!.referral_code };
}

/** Silver through the admin's dialog, as deal registration needs. */
async function makeSilver(partnerId: string) {
  const { rows } = await server.db.query<{ version: number }>(
    `select version from public.partners where id = $1`,
    [partnerId],
  );
  const result = await admin.client.rpc('update_partner', {
    p_partner_id: partnerId,
    p_changes: { tier: 'silver' },
    p_expected_version: rows[0]!.version,
  });
  expect(result.error).toBeNull();
}

function registration(overrides: Record<string, unknown> = {}) {
  const tag = suffix();
  return {
    company: `Globex ${tag}`,
    contact_name: 'Hank Scorpio',
    contact_email: `hank@globex-${tag}.test`,
    team_size: '51-200',
    monthly_call_volume: '2000-10000',
    notes: 'Evaluating three vendors.\nDecision in Q1.',
    ...overrides,
  };
}

async function leadFromForm(overrides: Record<string, unknown>): Promise<string> {
  const result = await anon.rpc('submit_sales_inquiry', inquiry(overrides));
  expect(result.error).toBeNull();
  return (result.data as { id: string }).id;
}

async function bookDemo(company: string, code?: string): Promise<string> {
  const slots = await anon.rpc('get_demo_slots');
  expect(slots.error).toBeNull();
  const slot = (slots.data as { starts_at: string }[])[0]!;
  const result = await anon.rpc('book_demo', {
    starts_at: slot.starts_at,
    full_name: 'Vera Visitor',
    email: uniqueEmail('visitor'),
    company,
    team_size: '21-50',
    time_zone: 'Europe/Paris',
    referral_code: code,
  });
  expect(result.error).toBeNull();
  return (result.data as { id: string }).id;
}

async function winLead(id: string, cents: number) {
  const { rows } = await server.db.query<{ version: number }>(
    `select version from public.leads where id = $1`,
    [id],
  );
  const result = await admin.client.rpc('update_lead', {
    p_lead_id: id,
    p_changes: { status: 'won', deal_value_cents: cents },
    p_expected_version: rows[0]!.version,
  });
  expect(result.error).toBeNull();
}

beforeAll(async () => {
  server = await startFormsServer();
  admin = await signedInClient(server, { fullName: 'Ada Admin', role: 'admin' });
  anon = clientFor(server);
  alpha = await partner('Alma Alpha', 'Alpha Advisory');
  beta = await partner('Ben Beta', 'Beta Partners');
  customer = await signedInClient(server, { fullName: 'Cy Customer', company: 'Cy Co' });
});

afterAll(async () => {
  await server?.close();
});

describe('deal registration', () => {
  it('opens at Silver: a Registered partner is told why, and nothing is stored', async () => {
    const before = await snapshot(server, REGISTRATION_TABLES);
    const result = await alpha.client.rpc('register_deal', registration());
    expect(result.status).toBe(403);
    expect(result.error).toMatchObject({ code: '42501', details: 'tier' });
    expect(result.error!.message).toBe(
      'Deal registration opens at the Silver tier. Win 5 deals in twelve months to reach it.',
    );
    expect(await snapshot(server, REGISTRATION_TABLES)).toEqual(before);
  });

  it('stores a Silver partner’s prospect, pending, and tells the sales inbox', async () => {
    await makeSilver(alpha.partnerId);
    await makeSilver(beta.partnerId);
    const sent = registration();
    const result = await alpha.client.rpc('register_deal', sent);
    expect(result.error).toBeNull();
    expect(result.data).toMatchObject({
      partner_id: alpha.partnerId,
      company: sent.company,
      contact_email: sent.contact_email,
      status: 'pending',
    });
    const { rows } = await server.db.query<{ template: string }>(
      `select template from public.outbox_messages where metadata ->> 'deal_registration_id' = $1`,
      [(result.data as { id: string }).id],
    );
    expect(rows.map((row) => row.template)).toEqual(['deal_registration_notification']);
  });

  it('refuses a prospect registered already, by this partner or another, by name or by domain', async () => {
    const tag = suffix();
    const first = await alpha.client.rpc(
      'register_deal',
      registration({ company: `Initech ${tag}, Inc.`, contact_email: `bill@initech-${tag}.test` }),
    );
    expect(first.error).toBeNull();

    const before = await snapshot(server, REGISTRATION_TABLES);
    const mineAgain = await alpha.client.rpc(
      'register_deal',
      registration({ company: `INITECH ${tag} LLC` }),
    );
    expectRefusal(mineAgain, 409, 'company');
    expect(mineAgain.error!.message).toMatch(
      /^You registered Initech .+, Inc\. on .+; that registration is pending\.$/,
    );

    const theirsByName = await beta.client.rpc(
      'register_deal',
      registration({ company: `initech ${tag}` }),
    );
    expectRefusal(theirsByName, 409, 'company');
    expect(theirsByName.error!.message).toBe(
      'Another partner has already registered this prospect, so it cannot be registered twice.',
    );
    const theirsByDomain = await beta.client.rpc(
      'register_deal',
      registration({
        company: `Something Else ${tag}`,
        contact_email: `peter@initech-${tag}.test`,
      }),
    );
    expectRefusal(theirsByDomain, 409, 'company');
    expect(await snapshot(server, REGISTRATION_TABLES)).toEqual(before);

    // Names in any script are companies too, told apart and matched like any other.
    const kana = await alpha.client.rpc(
      'register_deal',
      registration({ company: `ミライ物流 ${tag}`, contact_email: `k@mirai-${tag}.test` }),
    );
    expect(kana.error).toBeNull();
    const kanaAgain = await beta.client.rpc(
      'register_deal',
      registration({ company: `ミライ物流 ${tag} Inc.` }),
    );
    expectRefusal(kanaAgain, 409, 'company');

    // A public mail service's domain is nobody's company.
    const gmailOne = await alpha.client.rpc(
      'register_deal',
      registration({ contact_email: `one.${tag}@gmail.com` }),
    );
    const gmailTwo = await beta.client.rpc(
      'register_deal',
      registration({ contact_email: `two.${tag}@gmail.com` }),
    );
    expect([gmailOne.error, gmailTwo.error]).toEqual([null, null]);
  });

  it('refuses a prospect already in the sales pipeline, saying so', async () => {
    const tag = suffix();
    await leadFromForm({ company: `Umbrella ${tag}`, email: `alice@umbrella-${tag}.test` });
    for (const sent of [
      registration({ company: `Umbrella ${tag} Corp.` }),
      registration({ company: `Other ${tag}`, contact_email: `bob@umbrella-${tag}.test` }),
    ]) {
      const result = await alpha.client.rpc('register_deal', sent);
      expectRefusal(result, 409, 'company');
      expect(result.error!.message).toMatch(
        /^This prospect is already in Cervana's sales pipeline/,
      );
    }
  });

  it('checks every field at the edge', async () => {
    expectRefusal(
      await alpha.client.rpc('register_deal', registration({ contact_email: 'not-an-email' })),
      400,
      'contact_email',
    );
    expectRefusal(
      await alpha.client.rpc('register_deal', registration({ company: '  ' })),
      400,
      'company',
    );
    expectRefusal(
      await alpha.client.rpc('register_deal', registration({ team_size: '9000' })),
      400,
      'team_size',
    );
    expectRefusal(
      await alpha.client.rpc('register_deal', registration({ notes: 'x'.repeat(2001) })),
      400,
      'notes',
    );
    expectRefusal(
      await alpha.client.rpc('register_deal', registration({ company: '!!!' })),
      400,
      'company',
    );
  });

  it('takes at most 20 registrations an hour from one partner', async () => {
    const busy = await partner('Busy Bee', 'Busy Partners');
    await makeSilver(busy.partnerId);
    for (let i = 0; i < 20; i++) {
      const result = await busy.client.rpc('register_deal', registration());
      expect(result.error).toBeNull();
    }
    const before = await snapshot(server, REGISTRATION_TABLES);
    const refused = await busy.client.rpc('register_deal', registration());
    expectRefusal(refused, 429, 'rate_limited');
    expect(await snapshot(server, REGISTRATION_TABLES)).toEqual(before);
  });

  it('is refused to customers, visitors and suspended partners', async () => {
    expect((await customer.client.rpc('register_deal', registration())).error?.code).toBe('42501');
    expect((await anon.rpc('register_deal', registration())).error?.code).toBe('42501');
    const suspended = await partner('Sus Pended', 'Suspended Co');
    await server.db.query(
      `update public.partners set status = 'suspended', tier = 'silver' where id = $1`,
      [suspended.partnerId],
    );
    const result = await suspended.client.rpc('register_deal', registration());
    expect(result.error?.message).toBe(
      'Your partner account is suspended. Please contact your partner manager.',
    );
  });

  it('once accepted is a lead attributed to the partner, whose contact the partner sees', async () => {
    const sent = registration();
    const registered = await alpha.client.rpc('register_deal', sent);
    const id = (registered.data as { id: string }).id;
    const accepted = await admin.client.rpc('accept_deal_registration', { p_registration_id: id });
    expect(accepted.error).toBeNull();
    const leadId = (accepted.data as { lead_id: string; status: string }).lead_id;
    expect(accepted.data).toMatchObject({ status: 'accepted' });
    const { rows } = await server.db.query<{ partner_id: string; source: string; email: string }>(
      `select partner_id, source, email from public.leads where id = $1`,
      [leadId],
    );
    expect(rows[0]).toEqual({
      partner_id: alpha.partnerId,
      source: 'partner_registration',
      email: sent.contact_email,
    });
    const { rows: mails } = await server.db.query<{ recipient: string; body_text: string }>(
      `select recipient, body_text from public.outbox_messages
       where template = 'deal_registration_accepted' and metadata ->> 'deal_registration_id' = $1`,
      [id],
    );
    expect(mails).toEqual([
      {
        recipient: alpha.email,
        body_text: expect.stringContaining(
          `${sent.company} is now in our pipeline as your referral.`,
        ),
      },
    ]);
    const twice = await admin.client.rpc('accept_deal_registration', { p_registration_id: id });
    expect(twice.status).toBe(409);
    expect(twice.error!.message).toBe('This registration was already accepted.');

    const referrals = await alpha.client.rpc('partner_referrals', {});
    const row = (referrals.data as { id: string; contact_email: string | null }[]).find(
      (referral) => referral.id === leadId,
    );
    expect(row).toMatchObject({ contact_name: 'Hank Scorpio', contact_email: sent.contact_email });
  });

  it('is not accepted when the prospect became a lead meanwhile, and a rejection needs a reason', async () => {
    const tag = suffix();
    const registered = await beta.client.rpc(
      'register_deal',
      registration({ company: `Hooli ${tag}`, contact_email: `gavin@hooli-${tag}.test` }),
    );
    const id = (registered.data as { id: string }).id;
    await leadFromForm({ company: `Hooli ${tag}`, email: `richard@hooli-${tag}.test` });
    const accepted = await admin.client.rpc('accept_deal_registration', { p_registration_id: id });
    expect(accepted.status).toBe(409);
    expect(accepted.error!.message).toMatch(
      /^This prospect became a lead after the partner registered it/,
    );

    expectRefusal(
      await admin.client.rpc('reject_deal_registration', { p_registration_id: id, p_reason: '' }),
      400,
      'reason',
    );
    const rejected = await admin.client.rpc('reject_deal_registration', {
      p_registration_id: id,
      p_reason: 'The prospect contacted us directly first.',
    });
    expect(rejected.data).toMatchObject({
      status: 'rejected',
      decision_reason: 'The prospect contacted us directly first.',
    });
    const { rows } = await server.db.query<{ body_text: string }>(
      `select body_text from public.outbox_messages
       where recipient = $1 and template = 'deal_registration_rejected'`,
      [beta.email],
    );
    expect(rows[0]!.body_text).toContain('The reason: The prospect contacted us directly first.');
  });
});

describe('what a partner sees', () => {
  it('referrals: their own leads and bookings, company and status, no contact they did not register', async () => {
    const tag = suffix();
    const leadId = await leadFromForm({ company: `Alpha Lead ${tag}`, referral_code: alpha.code });
    const bookingId = await bookDemo(`Alpha Demo ${tag}`, alpha.code);
    const betaLead = await leadFromForm({ company: `Beta Lead ${tag}`, referral_code: beta.code });

    const mine = await alpha.client.rpc('partner_referrals', { p_limit: 100 });
    expect(mine.error).toBeNull();
    const rows = mine.data as Record<string, unknown>[];
    expect(rows.find((row) => row.id === leadId)).toEqual({
      kind: 'lead',
      id: leadId,
      company: `Alpha Lead ${tag}`,
      status: 'new',
      created_at: expect.any(String),
      starts_at: null,
      contact_name: null,
      contact_email: null,
      commission_status: null,
    });
    expect(rows.find((row) => row.id === bookingId)).toMatchObject({
      kind: 'booking',
      company: `Alpha Demo ${tag}`,
      status: 'upcoming',
      contact_email: null,
    });
    expect(rows.some((row) => row.id === betaLead)).toBe(false);
    // Newest first, a page at a time.
    const page = await alpha.client.rpc('partner_referrals', { p_limit: 1 });
    const first = (page.data as { id: string; created_at: string }[])[0]!;
    const next = await alpha.client.rpc('partner_referrals', {
      p_limit: 1,
      p_before: first.created_at,
      p_before_id: first.id,
    });
    expect((next.data as { id: string }[])[0]!.id).not.toBe(first.id);
    expectRefusal(await alpha.client.rpc('partner_referrals', { p_limit: 1000 }), 400, 'limit');
  });

  it('another partner’s commissions, payouts, registrations and referrals: none of them', async () => {
    const tag = suffix();
    const alphaLead = await leadFromForm({
      company: `Alpha Won ${tag}`,
      referral_code: alpha.code,
    });
    await winLead(alphaLead, 1_000_000);
    const { rows } = await server.db.query<{ id: string }>(
      `select id from public.commissions where lead_id = $1`,
      [alphaLead],
    );
    expect(
      (await admin.client.rpc('approve_commission', { p_commission_id: rows[0]!.id })).error,
    ).toBeNull();
    expect(
      (
        await admin.client.rpc('create_payout', {
          p_partner_id: alpha.partnerId,
          p_currency: 'USD',
        })
      ).error,
    ).toBeNull();

    const counts = async (client: SupabaseClient) => {
      const result: Record<string, number | string> = {};
      for (const table of ['commissions', 'payouts', 'deal_registrations']) {
        const { data, error } = await client.from(table).select('partner_id');
        result[table] = error
          ? error.code
          : (data as { partner_id: string }[]).filter((row) => row.partner_id === alpha.partnerId)
              .length;
      }
      return result;
    };
    expect(await counts(alpha.client)).toMatchObject({
      commissions: 1,
      payouts: 1,
      deal_registrations: expect.any(Number),
    });
    expect((await counts(alpha.client)).deal_registrations).toBeGreaterThan(0);
    expect(await counts(beta.client)).toEqual({
      commissions: 0,
      payouts: 0,
      deal_registrations: 0,
    });
    expect(await counts(customer.client)).toEqual({
      commissions: 0,
      payouts: 0,
      deal_registrations: 0,
    });
    // Reading by id changes nothing.
    const byId = await beta.client.from('commissions').select('*').eq('id', rows[0]!.id);
    expect(byId.data).toEqual([]);
    // Visitors have no access at all.
    for (const table of ['commissions', 'payouts', 'deal_registrations']) {
      const { error } = await anon.from(table).select('id');
      expect(error?.code).toBe('42501');
    }
    // Nor beta's referrals nor summary show alpha's.
    const betaReferrals = await beta.client.rpc('partner_referrals', { p_limit: 100 });
    expect((betaReferrals.data as { id: string }[]).some((row) => row.id === alphaLead)).toBe(
      false,
    );
    // Each partner reads their own partner record only.
    const records = await beta.client.from('partners').select('id');
    expect(records.data).toEqual([{ id: beta.partnerId }]);
    // Leads and bookings stay the admins' tables.
    expect((await alpha.client.from('leads').select('id').eq('id', alphaLead)).data).toEqual([]);
    expect((await alpha.client.from('demo_bookings').select('id')).data).toEqual([]);
  });

  it('customers and visitors have no referrals, summary or partner record', async () => {
    for (const client of [customer.client, anon]) {
      expect((await client.rpc('partner_referrals', {})).error?.code).toBe('42501');
      expect(
        (
          await client.rpc('partner_summary', {
            p_from: '2026-01-01T00:00:00Z',
            p_to: '2026-02-01T00:00:00Z',
          })
        ).error?.code,
      ).toBe('42501');
    }
    const partners = await customer.client.from('partners').select('id');
    expect(partners.data).toEqual([]);
    expect((await customer.client.rpc('current_partner_id')).data).toBeNull();
  });

  it('the summary counts the period’s visits, leads, bookings and won deals', async () => {
    const fresh = await partner('Sam Summary', 'Summary Co');
    const from = new Date(Date.now() - 60_000).toISOString();
    expect((await anon.rpc('record_referral_click', { code: fresh.code })).data).toBe(true);
    const tag = suffix();
    const leadId = await leadFromForm({ company: `Sum Lead ${tag}`, referral_code: fresh.code });
    await leadFromForm({ company: `Sum Lead Two ${tag}`, referral_code: fresh.code });
    await bookDemo(`Sum Demo ${tag}`, fresh.code);
    await winLead(leadId, 200_000);
    const to = new Date(Date.now() + 60_000).toISOString();
    const summary = await fresh.client.rpc('partner_summary', { p_from: from, p_to: to });
    expect(summary.error).toBeNull();
    expect(summary.data).toMatchObject({
      partner: { referral_code: fresh.code, tier: 'registered', company: 'Summary Co' },
      period: { clicks: 1, leads: 2, bookings: 1, won: 1 },
      commissions: [
        {
          currency: 'USD',
          pending_cents: 30_000,
          approved_cents: 0,
          paid_cents: 0,
          declined_count: 0,
        },
      ],
      standing: { won_deals: 1, tier: 'registered', next_tier: { tier: 'silver', deals_to_go: 4 } },
    });
    expectRefusal(
      await fresh.client.rpc('partner_summary', { p_from: to, p_to: from }),
      400,
      'period',
    );
  });
});

describe('leads written directly', () => {
  it('are still written by the service role and by admins (the index on company names runs as them)', async () => {
    const lead = {
      full_name: 'Ivy Index',
      email: uniqueEmail('index'),
      team_size: '6-20',
      monthly_call_volume: '500-2000',
      consent_at: new Date().toISOString(),
    };
    const service = clientFor(server, { key: server.serviceRoleKey });
    const byService = await service.from('leads').insert({ ...lead, company: `Index ${suffix()}` });
    expect(byService.error).toBeNull();
    const byAdmin = await admin.client.from('leads').insert({
      ...lead,
      email: uniqueEmail('index'),
      company: `Index ${suffix()}`,
      source: 'admin',
    });
    expect(byAdmin.error).toBeNull();
  });
});

describe('the co-branded demo link', () => {
  it('names the active partner behind a code, to anyone, and nothing for an unknown or suspended one', async () => {
    expect((await anon.rpc('referral_partner', { code: alpha.code.toLowerCase() })).data).toEqual({
      company: 'Alpha Advisory',
      referral_code: alpha.code,
    });
    expect((await anon.rpc('referral_partner', { code: 'NOSUCHCODE' })).data).toBeNull();
    expect((await anon.rpc('referral_partner', { code: 'x'.repeat(5000) })).data).toBeNull();
    const suspended = await partner('Gone Quiet', 'Quiet Partners');
    await server.db.query(`update public.partners set status = 'suspended' where id = $1`, [
      suspended.partnerId,
    ]);
    expect((await anon.rpc('referral_partner', { code: suspended.code })).data).toBeNull();
    // And its code attributes nothing.
    const booking = await bookDemo(`Quiet Demo ${suffix()}`, suspended.code);
    const { rows } = await server.db.query<{ partner_id: string | null }>(
      `select partner_id from public.demo_bookings where id = $1`,
      [booking],
    );
    expect(rows[0]!.partner_id).toBeNull();
  });
});
