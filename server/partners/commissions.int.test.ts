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
import { clientFor } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * Commissions, tiers and payouts (issue 18, decision 028), through the data
 * API as the app calls it: a referred lead won creates one pending commission
 * at the rate of the partner's tier (the deal reaching a threshold moves the
 * partner up first), an admin approves or declines it with a reason, approved
 * commissions are paid through a payout with a reference and date, and the
 * lead cannot leave won under a commission already approved. Nothing here is
 * written by a test behind the API's back but the set-up of leads.
 */

let server: TestServer;
let admin: SignedIn;
let anon: SupabaseClient;

interface Commission {
  id: string;
  partner_id: string;
  lead_id: string;
  status: string;
  tier: string;
  rate: number;
  deal_value_cents: number;
  amount_cents: number;
  currency: string;
  decline_reason: string | null;
  payout_id: string | null;
  version: number;
}

interface Partner {
  id: string;
  referral_code: string;
  tier: string;
  commission_rate: number;
  version: number;
}

const MONEY_TABLES = ['public.commissions', 'public.payouts', 'public.outbox_messages'];

/** A new partner (role, partner row by trigger) signed in, with their record. */
async function newPartner(name: string): Promise<SignedIn & { partner: Partner }> {
  const signedIn = await signedInClient(server, {
    fullName: name,
    company: `${name} Advisory`,
    role: 'partner',
  });
  return { ...signedIn, partner: await partnerOf(signedIn.id) };
}

async function partnerOf(userId: string): Promise<Partner> {
  const { rows } = await server.db.query<Partner>(
    `select id, referral_code, tier, commission_rate::float8 as commission_rate, version
     from public.partners where user_id = $1`,
    [userId],
  );
  return rows[0]!;
}

/** A lead through the public form, referred by `code` when given. */
async function lead(company: string, code?: string): Promise<string> {
  const result = await anon.rpc('submit_sales_inquiry', inquiry({ company, referral_code: code }));
  expect(result.error).toBeNull();
  return (result.data as { id: string }).id;
}

async function leadVersion(id: string): Promise<number> {
  const { rows } = await server.db.query<{ version: number }>(
    `select version from public.leads where id = $1`,
    [id],
  );
  return rows[0]!.version;
}

/** The admin changes a lead as the lead page does. */
async function updateLead(id: string, changes: Record<string, unknown>) {
  return admin.client.rpc('update_lead', {
    p_lead_id: id,
    p_changes: changes,
    p_expected_version: await leadVersion(id),
  });
}

async function win(id: string, cents: number, currency = 'USD') {
  const result = await updateLead(id, { status: 'won', deal_value_cents: cents, currency });
  expect(result.error).toBeNull();
}

async function commissionsOf(leadId: string): Promise<Commission[]> {
  const { rows } = await server.db.query<Commission>(
    `select id, partner_id, lead_id, status, tier, rate::float8 as rate, deal_value_cents,
            amount_cents, currency, decline_reason, payout_id, version
     from public.commissions where lead_id = $1 order by created_at`,
    [leadId],
  );
  return rows;
}

async function liveCommission(leadId: string): Promise<Commission> {
  const live = (await commissionsOf(leadId)).filter((c) => c.status !== 'declined');
  expect(live).toHaveLength(1);
  return live[0]!;
}

async function templatesTo(email: string): Promise<string[]> {
  const { rows } = await server.db.query<{ template: string }>(
    `select template from public.outbox_messages where recipient = $1 order by created_at`,
    [email],
  );
  return rows.map((row) => row.template);
}

const company = (label: string) => `${label} ${randomBytes(3).toString('hex')}`;

beforeAll(async () => {
  server = await startFormsServer();
  admin = await signedInClient(server, { fullName: 'Ada Admin', role: 'admin' });
  anon = clientFor(server);
});

afterAll(async () => {
  await server?.close();
});

describe('a commission', () => {
  it('is created pending when a referred lead is won, at the rate of the partner’s tier, once', async () => {
    const partner = await newPartner('Rita Referrer');
    const id = await lead(company('Northwind'), partner.partner.referral_code.toLowerCase());
    expect(await commissionsOf(id)).toEqual([]);

    await win(id, 1_234_567);
    const commission = await liveCommission(id);
    expect(commission).toMatchObject({
      partner_id: partner.partner.id,
      status: 'pending',
      tier: 'registered',
      rate: 0.15,
      deal_value_cents: 1_234_567,
      // 15 % of 12,345.67, rounded to the cent.
      amount_cents: 185_185,
      currency: 'USD',
    });

    // Saving the won lead again, or its owner, makes no second one.
    const again = await updateLead(id, { status: 'won', owner_id: admin.id });
    expect(again.error).toBeNull();
    expect(await commissionsOf(id)).toHaveLength(1);
  });

  it('follows the deal value while pending, in the lead’s currency', async () => {
    const partner = await newPartner('Vic Value');
    const id = await lead(company('Contoso'), partner.partner.referral_code);
    await win(id, 1_000_000);
    expect(
      (await updateLead(id, { deal_value_cents: 2_000_000, currency: 'EUR' })).error,
    ).toBeNull();
    expect(await liveCommission(id)).toMatchObject({
      deal_value_cents: 2_000_000,
      currency: 'EUR',
      amount_cents: 300_000,
      status: 'pending',
    });
  });

  it('is not created for a lead no partner referred, nor for one that is lost', async () => {
    const unattributed = await lead(company('Orphan'));
    await win(unattributed, 500_000);
    expect(await commissionsOf(unattributed)).toEqual([]);

    const partner = await newPartner('Lou Lost');
    const lost = await lead(company('Fabrikam'), partner.partner.referral_code);
    expect((await updateLead(lost, { status: 'lost' })).error).toBeNull();
    expect(await commissionsOf(lost)).toEqual([]);
    // Nor from an unknown or suspended partner's code: the lead has no partner.
    const unknown = await lead(company('Nobody'), 'NOSUCHCODE');
    await win(unknown, 100_000);
    expect(await commissionsOf(unknown)).toEqual([]);
  });

  it('needs the deal value to win the lead', async () => {
    const partner = await newPartner('Nia Novalue');
    const id = await lead(company('Tailspin'), partner.partner.referral_code);
    expectRefusal(await updateLead(id, { status: 'won' }), 400, 'deal_value_cents');
    expect(await commissionsOf(id)).toEqual([]);
  });

  it('is declined with a sentence when its lead leaves won while pending, and a new one comes when it is won again', async () => {
    const partner = await newPartner('Bo Bounce');
    const id = await lead(company('Woodgrove'), partner.partner.referral_code);
    await win(id, 800_000);
    expect((await updateLead(id, { status: 'qualified' })).error).toBeNull();
    const [declined] = await commissionsOf(id);
    expect(declined).toMatchObject({
      status: 'declined',
      decline_reason: 'The deal was moved from won to qualified.',
    });
    await win(id, 900_000);
    const all = await commissionsOf(id);
    expect(all.map((c) => c.status)).toEqual(['declined', 'pending']);
    expect(all[1]!.amount_cents).toBe(135_000);
  });

  it('holds its lead at won once approved, and its value with it', async () => {
    const partner = await newPartner('Hal Hold');
    const id = await lead(company('Litware'), partner.partner.referral_code);
    await win(id, 600_000);
    const commission = await liveCommission(id);
    const approved = await admin.client.rpc('approve_commission', {
      p_commission_id: commission.id,
      p_expected_version: commission.version,
    });
    expect(approved.error).toBeNull();
    expect(approved.data).toMatchObject({ status: 'approved' });

    const before = await snapshot(server, MONEY_TABLES);
    const moved = await updateLead(id, { status: 'lost' });
    expect(moved.status).toBe(409);
    expect(moved.error!.message).toMatch(
      /already approved, so the lead stays won\. Decline the commission first\.$/,
    );
    const revalued = await updateLead(id, { deal_value_cents: 1 });
    expect(revalued.status).toBe(409);
    expect(revalued.error!.details).toBe('deal_value_cents');
    expect(await snapshot(server, MONEY_TABLES)).toEqual(before);
    expect(await liveCommission(id)).toMatchObject({
      status: 'approved',
      deal_value_cents: 600_000,
    });
  });
});

describe('a demo booked through a partner’s link', () => {
  it('becomes a lead of that partner when an admin adds it, once, and winning it earns the commission', async () => {
    const partner = await newPartner('Deb Demo');
    const slots = await anon.rpc('get_demo_slots');
    const slot = (slots.data as { starts_at: string }[])[0]!;
    const booked = await anon.rpc('book_demo', {
      starts_at: slot.starts_at,
      full_name: 'Vera Visitor',
      email: `vera.${randomBytes(3).toString('hex')}@visitor.example.com`,
      company: company('Booked'),
      team_size: '21-50',
      time_zone: 'Europe/Paris',
      referral_code: partner.partner.referral_code,
    });
    expect(booked.error).toBeNull();
    const bookingId = (booked.data as { id: string }).id;

    expectRefusal(
      await admin.client.rpc('admin_lead_from_booking', {
        p_booking_id: bookingId,
        p_monthly_call_volume: 'lots',
      }),
      400,
      'monthly_call_volume',
    );
    const added = await admin.client.rpc('admin_lead_from_booking', {
      p_booking_id: bookingId,
      p_monthly_call_volume: '2000-10000',
    });
    expect(added.error).toBeNull();
    const lead = added.data as { id: string; partner_id: string; source: string; owner_id: string };
    expect(lead).toMatchObject({
      partner_id: partner.partner.id,
      source: 'demo_booking',
      owner_id: admin.id,
    });
    const twice = await admin.client.rpc('admin_lead_from_booking', {
      p_booking_id: bookingId,
      p_monthly_call_volume: '2000-10000',
    });
    expect(twice.status).toBe(409);
    expect(twice.error!.details).toBe('lead');
    const byPartner = await partner.client.rpc('admin_lead_from_booking', {
      p_booking_id: bookingId,
      p_monthly_call_volume: '2000-10000',
    });
    expect(byPartner.error?.code).toBe('42501');

    await win(lead.id, 2_000_000);
    expect(await liveCommission(lead.id)).toMatchObject({
      status: 'pending',
      amount_cents: 300_000,
    });
  });
});

describe('tiers', () => {
  it('move a partner up with the deal that reaches the threshold, which is paid at the new rate', async () => {
    const partner = await newPartner('Tia Tier');
    const { rows: tiers } = await server.db.query<{
      tier: string;
      min_won_deals: number;
      rate: number;
    }>(`select tier, min_won_deals, rate::float8 as rate from public.partner_tiers order by rank`);
    const silver = tiers.find((tier) => tier.tier === 'silver')!;
    expect(silver).toMatchObject({ min_won_deals: 5, rate: 0.2 });

    const leads: string[] = [];
    for (let i = 0; i < silver.min_won_deals; i++)
      leads.push(await lead(company(`Tier${i}`), partner.partner.referral_code));
    for (const id of leads.slice(0, -1)) await win(id, 100_000);
    expect(await partnerOf(partner.id)).toMatchObject({
      tier: 'registered',
      commission_rate: 0.15,
    });
    expect((await liveCommission(leads[0]!)).amount_cents).toBe(15_000);

    await win(leads.at(-1)!, 100_000);
    expect(await partnerOf(partner.id)).toMatchObject({ tier: 'silver', commission_rate: 0.2 });
    expect(await liveCommission(leads.at(-1)!)).toMatchObject({
      tier: 'silver',
      rate: 0.2,
      amount_cents: 20_000,
    });
    // The earlier ones keep the rate they were created at.
    expect((await liveCommission(leads[0]!)).rate).toBe(0.15);

    // The portal's standing says the same.
    const summary = await partner.client.rpc('partner_summary', {
      p_from: new Date(Date.now() - 86_400_000).toISOString(),
      p_to: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(summary.error).toBeNull();
    expect(summary.data).toMatchObject({
      partner: { tier: 'silver' },
      period: { leads: 5, won: 5 },
      standing: { won_deals: 5, tier: 'silver', next_tier: { tier: 'gold', deals_to_go: 10 } },
      commissions: [{ currency: 'USD', pending_cents: 80_000 }],
    });
  });

  it('keep a higher rate an admin agreed with the partner', async () => {
    const partner = await newPartner('Carl Custom');
    const set = await admin.client.rpc('update_partner', {
      p_partner_id: partner.partner.id,
      p_changes: { commission_rate: 0.3 },
      p_expected_version: partner.partner.version,
    });
    expect(set.error).toBeNull();
    const id = await lead(company('Custom'), partner.partner.referral_code);
    await win(id, 1_000_000);
    expect(await liveCommission(id)).toMatchObject({ rate: 0.3, amount_cents: 300_000 });
  });

  it('are the ones the pages show: the generated module holds the same rows', async () => {
    const { generatedPartnerTiers } = await import('../../src/config/partner-tiers');
    const { rows } = await server.db.query<{ tier: string; rate: number; min_won_deals: number }>(
      `select tier, rate::float8 as rate, min_won_deals from public.partner_tiers order by rank`,
    );
    expect(
      generatedPartnerTiers.map((tier) => ({
        tier: tier.id,
        rate: tier.rate,
        min_won_deals: tier.threshold,
      })),
    ).toEqual(rows);
  });
});

describe('admin decisions', () => {
  it('decline needs a reason the partner is emailed, and nothing is decided twice', async () => {
    const partner = await newPartner('Dee Decline');
    const id = await lead(company('Proseware'), partner.partner.referral_code);
    await win(id, 400_000);
    const commission = await liveCommission(id);

    const before = await snapshot(server, MONEY_TABLES);
    expectRefusal(
      await admin.client.rpc('decline_commission', {
        p_commission_id: commission.id,
        p_reason: '  ',
      }),
      400,
      'reason',
    );
    expect(await snapshot(server, MONEY_TABLES)).toEqual(before);

    const declined = await admin.client.rpc('decline_commission', {
      p_commission_id: commission.id,
      p_reason: 'The customer cancelled within the trial.',
      p_expected_version: commission.version,
    });
    expect(declined.error).toBeNull();
    expect(declined.data).toMatchObject({
      status: 'declined',
      decline_reason: 'The customer cancelled within the trial.',
    });
    const { rows } = await server.db.query<{ body_text: string }>(
      `select body_text from public.outbox_messages
       where recipient = $1 and template = 'partner_commission_declined'`,
      [partner.email],
    );
    expect(rows[0]!.body_text).toContain('The reason: The customer cancelled within the trial.');

    const approveDeclined = await admin.client.rpc('approve_commission', {
      p_commission_id: commission.id,
    });
    expect(approveDeclined.status).toBe(409);
    expect(approveDeclined.error!.message).toBe('This commission is already declined.');
    const stale = await admin.client.rpc('decline_commission', {
      p_commission_id: commission.id,
      p_reason: 'Again.',
      p_expected_version: commission.version,
    });
    expect(stale.status).toBe(409);
    expect(stale.error!.details).toBe('version');
  });

  it('are refused to partners, customers and visitors, and partners cannot write their ledger', async () => {
    const partner = await newPartner('Sly Self');
    const customer = await signedInClient(server, { fullName: 'Cy Customer', company: 'Cy Co' });
    const id = await lead(company('Selfish'), partner.partner.referral_code);
    await win(id, 100_000);
    const commission = await liveCommission(id);
    for (const client of [partner.client, customer.client, anon]) {
      const approve = await client.rpc('approve_commission', { p_commission_id: commission.id });
      expect(approve.error?.code).toBe('42501');
      const payout = await client.rpc('create_payout', {
        p_partner_id: partner.partner.id,
        p_currency: 'USD',
      });
      expect(payout.error?.code).toBe('42501');
    }
    const forged = await partner.client
      .from('commissions')
      .update({ status: 'approved' })
      .eq('id', commission.id)
      .select();
    expect(forged.error?.code).toBe('42501');
    const inserted = await partner.client.from('commissions').insert({
      partner_id: partner.partner.id,
      lead_id: id,
      company: 'X',
      deal_value_cents: 1,
      currency: 'USD',
      tier: 'gold',
      rate: 0.5,
      amount_cents: 999_999,
    });
    expect(inserted.error?.code).toBe('42501');
    expect(await liveCommission(id)).toMatchObject({ status: 'pending', amount_cents: 15_000 });
  });
});

describe('payouts', () => {
  it('gather a partner’s approved commissions in one currency, and are marked paid with a reference and date', async () => {
    const partner = await newPartner('Pay Me');
    const ids = [
      await lead(company('PayA'), partner.partner.referral_code),
      await lead(company('PayB'), partner.partner.referral_code),
      await lead(company('PayC'), partner.partner.referral_code),
    ];
    await win(ids[0]!, 1_000_000);
    await win(ids[1]!, 2_000_000);
    await win(ids[2]!, 3_000_000, 'EUR');
    for (const id of ids) {
      const approved = await admin.client.rpc('approve_commission', {
        p_commission_id: (await liveCommission(id)).id,
      });
      expect(approved.error).toBeNull();
    }

    const owed = await admin.client.rpc('admin_payable_balances');
    expect(owed.error).toBeNull();
    const mine = (
      owed.data as {
        partner_id: string;
        currency: string;
        amount_cents: number;
        commission_count: number;
      }[]
    )
      .filter((row) => row.partner_id === partner.partner.id)
      .map(({ currency, amount_cents, commission_count }) => ({
        currency,
        amount_cents,
        commission_count,
      }));
    expect(mine).toEqual(
      expect.arrayContaining([
        { currency: 'USD', amount_cents: 450_000, commission_count: 2 },
        { currency: 'EUR', amount_cents: 450_000, commission_count: 1 },
      ]),
    );

    const created = await admin.client.rpc('create_payout', {
      p_partner_id: partner.partner.id,
      p_currency: 'USD',
    });
    expect(created.error).toBeNull();
    const payout = created.data as {
      id: string;
      amount_cents: number;
      commission_count: number;
      status: string;
      version: number;
    };
    expect(payout).toMatchObject({ amount_cents: 450_000, commission_count: 2, status: 'pending' });
    const nothingLeft = await admin.client.rpc('create_payout', {
      p_partner_id: partner.partner.id,
      p_currency: 'USD',
    });
    expect(nothingLeft.status).toBe(409);
    expect(nothingLeft.error!.message).toBe(
      'This partner has no approved commissions in USD waiting for a payout.',
    );

    // A commission in a payout being prepared cannot be declined.
    const inPayout = await admin.client.rpc('decline_commission', {
      p_commission_id: (await liveCommission(ids[0]!)).id,
      p_reason: 'Second thoughts.',
    });
    expect(inPayout.status).toBe(409);
    expect(inPayout.error!.details).toBe('payout_id');

    expectRefusal(
      await admin.client.rpc('mark_payout_paid', {
        p_payout_id: payout.id,
        p_reference: '',
        p_paid_on: '2026-11-01',
      }),
      400,
      'reference',
    );
    const tomorrowPlusOne = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    expectRefusal(
      await admin.client.rpc('mark_payout_paid', {
        p_payout_id: payout.id,
        p_reference: 'WIRE-1',
        p_paid_on: tomorrowPlusOne,
      }),
      400,
      'paid_on',
    );
    const today = new Date().toISOString().slice(0, 10);
    const paid = await admin.client.rpc('mark_payout_paid', {
      p_payout_id: payout.id,
      p_reference: 'WIRE-2026-11-001',
      p_paid_on: today,
      p_expected_version: payout.version,
    });
    expect(paid.error).toBeNull();
    expect(paid.data).toMatchObject({
      status: 'paid',
      reference: 'WIRE-2026-11-001',
      paid_on: today,
    });
    expect((await liveCommission(ids[0]!)).status).toBe('paid');
    expect((await liveCommission(ids[1]!)).status).toBe('paid');
    expect((await liveCommission(ids[2]!)).status).toBe('approved');
    expect(await templatesTo(partner.email)).toEqual(
      expect.arrayContaining(['partner_commission_approved', 'partner_payout_paid']),
    );

    const twice = await admin.client.rpc('mark_payout_paid', {
      p_payout_id: payout.id,
      p_reference: 'AGAIN',
      p_paid_on: today,
    });
    expect(twice.status).toBe(409);
    const cancelPaid = await admin.client.rpc('cancel_payout', { p_payout_id: payout.id });
    expect(cancelPaid.status).toBe(409);
    const declinePaid = await admin.client.rpc('decline_commission', {
      p_commission_id: (await liveCommission(ids[0]!)).id,
      p_reason: 'Too late.',
    });
    expect(declinePaid.error!.message).toBe('This commission is paid, so it cannot be declined.');
  });

  it('cancelled before payment free their commissions for the next one', async () => {
    const partner = await newPartner('Can Cel');
    const id = await lead(company('Cancelled'), partner.partner.referral_code);
    await win(id, 100_000);
    await admin.client.rpc('approve_commission', {
      p_commission_id: (await liveCommission(id)).id,
    });
    const created = await admin.client.rpc('create_payout', {
      p_partner_id: partner.partner.id,
      p_currency: 'USD',
    });
    const payoutId = (created.data as { id: string }).id;
    expect((await admin.client.rpc('cancel_payout', { p_payout_id: payoutId })).error).toBeNull();
    expect(await liveCommission(id)).toMatchObject({ status: 'approved', payout_id: null });
    const again = await admin.client.rpc('create_payout', {
      p_partner_id: partner.partner.id,
      p_currency: 'USD',
    });
    expect(again.error).toBeNull();
  });
});
