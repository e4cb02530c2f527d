import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../schema/test-world';
import { clientFor, latestMessage, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';
import {
  SALES_INBOX,
  application,
  emailsFor,
  expectRefusal,
  inquiry,
  signedInClient,
  snapshot,
  startFormsServer,
} from './forms-testing';

/**
 * The talk-to-sales form (submit_sales_inquiry), the partner program's
 * application (submit_partner_application), their limits, and referral
 * attribution, through the official client as a visitor would call them.
 */

let server: TestServer;
let anon: SupabaseClient;

beforeAll(async () => {
  server = await startFormsServer({ MAILER_AUTOCONFIRM: 'true' });
  anon = clientFor(server);
});
afterAll(() => server?.close());

const LEAD_TABLES = ['public.leads', 'public.outbox_messages', 'private.submission_counts'];
const APPLICATION_TABLES = [
  'public.partner_applications',
  'public.outbox_messages',
  'private.submission_counts',
];

const NEUTRAL_ANSWER =
  'Thanks. We have sent a message to that address; follow it to confirm your application.';

/** The id of the one application from an address. */
async function applicationId(email: string): Promise<string> {
  const { rows } = await server.db.query<{ id: string }>(
    `select id from public.partner_applications where email = $1`,
    [email],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!.id;
}

/** The token of the newest confirmation link emailed to an address. */
async function confirmationToken(email: string): Promise<string> {
  const message = await latestMessage(server.db, email, 'partner_application_confirm');
  const token = /\/partner\?confirm=([0-9a-f]{64})\b/.exec(message.body_text)?.[1];
  if (!token) throw new Error(`no confirmation link in: ${message.body_text}`);
  return token;
}

async function latestTemplate(email: string): Promise<string> {
  return (await latestMessage(server.db, email)).template;
}

const tooLong = (length: number) => 'x'.repeat(length);
const thirteenTools = Array.from({ length: 13 }, (_, index) => `Tool ${index + 1}`);

type Case = [label: string, overrides: Record<string, unknown>, details: string];

const NAME_EMAIL_COMPANY_CASES: Case[] = [
  ['no name', { full_name: null }, 'full_name'],
  ['a blank name', { full_name: ' \t ' }, 'full_name'],
  ['a name of 121 characters', { full_name: tooLong(121) }, 'full_name'],
  ['a line break in the name', { full_name: 'Ada\nLovelace' }, 'full_name'],
  ['a control character in the name', { full_name: 'Ada\u0007' }, 'full_name'],
  ['no email', { email: null }, 'email'],
  ['a blank email', { email: '  ' }, 'email'],
  ['an email without a domain', { email: 'jane@' }, 'email'],
  ['an email without a top-level domain', { email: 'jane@company' }, 'email'],
  ['an email with a space', { email: 'jane doe@company.com' }, 'email'],
  ['an email of 255 characters', { email: `${'a'.repeat(243)}@company.com` }, 'email'],
  ['no company', { company: null }, 'company'],
  ['a blank company', { company: '' }, 'company'],
  ['a company of 121 characters', { company: tooLong(121) }, 'company'],
  ['a tab in the company', { company: 'Acme\tInc' }, 'company'],
];

const INQUIRY_CASES: Case[] = [
  ...NAME_EMAIL_COMPANY_CASES,
  ['a role of 121 characters', { job_role: tooLong(121) }, 'job_role'],
  ['a line break in the role', { job_role: 'CS\nlead' }, 'job_role'],
  ['no team size', { team_size: null }, 'team_size'],
  ['a blank team size', { team_size: '' }, 'team_size'],
  ['a team size not in the list', { team_size: '7-12' }, 'team_size'],
  ['a team size with a trailing space', { team_size: '6-20 ' }, 'team_size'],
  ['no call volume', { monthly_call_volume: null }, 'monthly_call_volume'],
  ['a call volume not in the list', { monthly_call_volume: '1M' }, 'monthly_call_volume'],
  ['13 tools', { tools: thirteenTools }, 'tools'],
  ['a blank tool', { tools: ['Zendesk', ' '] }, 'tools'],
  ['a tool name of 41 characters', { tools: [tooLong(41)] }, 'tools'],
  ['a line break in a tool name', { tools: ['Zen\ndesk'] }, 'tools'],
  ['a message of 2,001 characters', { message: tooLong(2001) }, 'message'],
  ['a control character in the message', { message: 'Hello\u0007there' }, 'message'],
  ['a DEL character in the message', { message: 'Hello\u007fthere' }, 'message'],
  ['consent not given', { consent: false }, 'consent'],
  ['consent missing', { consent: null }, 'consent'],
  ['the honeypot filled in', { fax: '+1 555 0100' }, 'blocked'],
];

const APPLICATION_CASES: Case[] = [
  ...NAME_EMAIL_COMPANY_CASES,
  ['a website that is not an address', { website: 'not a website' }, 'website'],
  ['a website without a domain', { website: 'https://localhost' }, 'website'],
  ['a javascript: website', { website: 'javascript:alert(1)' }, 'website'],
  ['a website with another scheme', { website: 'ftp://files.example.com' }, 'website'],
  ['a website of 301 characters', { website: `https://${tooLong(289)}.com` }, 'website'],
  ['no partner type', { partner_type: null }, 'partner_type'],
  ['a partner type not in the list', { partner_type: 'affiliate' }, 'partner_type'],
  ['no expected referrals', { expected_referrals: null }, 'expected_referrals'],
  ['negative expected referrals', { expected_referrals: -1 }, 'expected_referrals'],
  ['1,001 expected referrals', { expected_referrals: 1001 }, 'expected_referrals'],
  ['a message of 2,001 characters', { message: tooLong(2001) }, 'message'],
  ['a control character in the message', { message: 'Hi\u001bthere' }, 'message'],
  ['the honeypot filled in', { fax: 'x' }, 'blocked'],
];

describe('submit_sales_inquiry', () => {
  it.each(INQUIRY_CASES)(
    'refuses %s with 400, names the field and stores nothing',
    async (_, overrides, details) => {
      const before = await snapshot(server, LEAD_TABLES);
      const result = await anon.rpc('submit_sales_inquiry', inquiry(overrides));
      expectRefusal(result, 400, details);
      expect(result.error?.code).toBe('22023');
      expect(await snapshot(server, LEAD_TABLES)).toEqual(before);
    },
  );

  it('the valid inquiry the refusals start from is accepted (the cases differ by one field)', async () => {
    const result = await anon.rpc('submit_sales_inquiry', inquiry());
    expect(result.error).toBeNull();
    expect(result.status).toBe(200);
  });

  it('stores the lead, cleaned, and queues the confirmation and the sales note together', async () => {
    const before = await snapshot(server, ['public.leads', 'public.outbox_messages']);
    const result = await anon.rpc(
      'submit_sales_inquiry',
      inquiry({
        full_name: '  Ada Lovelace ',
        email: '  Ada.Lovelace@Analytical-Engines.EXAMPLE ',
        tools: ['Zendesk', ' Zendesk ', 'HubSpot', 'Zendesk', 'Gong'],
        job_role: '   ',
        message: 'Line one\nLine two',
      }),
    );
    expect(result.error).toBeNull();
    const confirmation = result.data as { id: string; reference: string; email: string };
    expect(confirmation.email).toBe('ada.lovelace@analytical-engines.example');
    expect(confirmation.reference).toBe(confirmation.id.slice(0, 8).toUpperCase());

    const { rows } = await server.db.query(
      `select full_name, email, company, job_role, team_size, monthly_call_volume, tools, message,
         consent_at is not null as consented, partner_id, user_id, status, source
       from public.leads where id = $1`,
      [confirmation.id],
    );
    expect(rows).toEqual([
      {
        full_name: 'Ada Lovelace',
        email: 'ada.lovelace@analytical-engines.example',
        company: 'Analytical Engines',
        job_role: null,
        team_size: '6-20',
        monthly_call_volume: '500-2000',
        tools: ['Zendesk', 'HubSpot', 'Gong'],
        message: 'Line one\nLine two',
        consented: true,
        partner_id: null,
        user_id: null,
        status: 'new',
        source: 'talk_to_sales',
      },
    ]);

    const emails = await emailsFor(server, 'lead_id', confirmation.id);
    expect(emails.map(({ recipient, template }) => ({ recipient, template }))).toEqual([
      {
        recipient: 'ada.lovelace@analytical-engines.example',
        template: 'sales_inquiry_confirmation',
      },
      { recipient: SALES_INBOX, template: 'sales_inquiry_notification' },
    ]);
    // One transaction: both were queued at the same transaction time.
    expect(emails[0]!.created_at).toBe(emails[1]!.created_at);
    expect(emails[1]!.body_text).toContain('Tools: Zendesk, HubSpot, Gong.');
    expect(await snapshot(server, ['public.leads', 'public.outbox_messages'])).toEqual({
      'public.leads': before['public.leads']! + 1,
      'public.outbox_messages': before['public.outbox_messages']! + 2,
    });
  });

  it('accepts the longest values allowed: a name of 120 and a message of 2,000 characters', async () => {
    const result = await anon.rpc(
      'submit_sales_inquiry',
      inquiry({
        full_name: 'n'.repeat(120),
        message: 'm'.repeat(2000),
        tools: thirteenTools.slice(1),
      }),
    );
    expect(result.error).toBeNull();
    const { rows } = await server.db.query<{ name: number; message: number; tools: number }>(
      `select char_length(full_name) as name, char_length(message) as message,
         cardinality(tools) as tools from public.leads where id = $1`,
      [(result.data as { id: string }).id],
    );
    expect(rows[0]).toEqual({ name: 120, message: 2000, tools: 12 });
  });

  it('keeps the signed-in sender as the lead’s user', async () => {
    const customer = await signedInClient(server, {
      fullName: 'Cora Customer',
      company: 'Cora Co',
    });
    const result = await customer.client.rpc('submit_sales_inquiry', inquiry());
    expect(result.error).toBeNull();
    const { rows } = await server.db.query<{ user_id: string }>(
      `select user_id from public.leads where id = $1`,
      [(result.data as { id: string }).id],
    );
    expect(rows[0]?.user_id).toBe(customer.id);
  });
});

describe('submit_partner_application', () => {
  it.each(APPLICATION_CASES)(
    'refuses %s with 400, names the field and stores nothing',
    async (_, overrides, details) => {
      const before = await snapshot(server, APPLICATION_TABLES);
      const result = await anon.rpc('submit_partner_application', application(overrides));
      expectRefusal(result, 400, details);
      expect(await snapshot(server, APPLICATION_TABLES)).toEqual(before);
    },
  );

  it('stores the application unconfirmed and emails the confirmation link, nothing more', async () => {
    const email = uniqueEmail('applicant').toUpperCase();
    const result = await anon.rpc('submit_partner_application', application({ email }));
    expect(result.error).toBeNull();
    // The same answer whatever is known about the address (security issue 22).
    expect(result.data).toEqual({ email: email.toLowerCase(), message: NEUTRAL_ANSWER });

    const { rows } = await server.db.query(
      `select full_name, email, company, website, partner_type, expected_referrals, message, status,
         user_id, referred_by, confirmed_at, confirm_expires_at > now() + interval '71 hours' as expires
       from public.partner_applications where email = $1`,
      [email.toLowerCase()],
    );
    expect(rows).toEqual([
      {
        full_name: 'Priya Patel',
        email: email.toLowerCase(),
        company: 'Brightpath Advisors',
        website: 'https://brightpath.example.com',
        partner_type: 'consultancy',
        expected_referrals: 5,
        message: 'We advise 40 CS teams.',
        status: 'unconfirmed',
        user_id: null,
        referred_by: null,
        confirmed_at: null,
        expires: true,
      },
    ]);
    const id = await applicationId(email.toLowerCase());
    const emails = await emailsFor(server, 'application_id', id);
    expect(emails.map(({ recipient, template }) => ({ recipient, template }))).toEqual([
      { recipient: email.toLowerCase(), template: 'partner_application_confirm' },
    ]);
    expect(emails[0]!.body_text).toMatch(/\/partner\?confirm=[0-9a-f]{64}\b/);
  });

  it('queues the acknowledgement and the team’s note when the applicant confirms', async () => {
    const email = uniqueEmail('confirmed');
    expect((await anon.rpc('submit_partner_application', application({ email }))).error).toBeNull();
    const id = await applicationId(email);
    const confirmed = await anon.rpc('confirm_partner_application', {
      token: await confirmationToken(email),
    });
    expect(confirmed.error).toBeNull();
    expect(confirmed.data).toMatchObject({
      status: 'confirmed',
      reference: id.slice(0, 8).toUpperCase(),
    });
    const emails = await emailsFor(server, 'application_id', id);
    // Ordered by time, then template: the notification sorts before the acknowledgement.
    expect(emails.map(({ recipient, template }) => ({ recipient, template }))).toEqual([
      { recipient: email, template: 'partner_application_confirm' },
      { recipient: SALES_INBOX, template: 'partner_application_notification' },
      { recipient: email, template: 'partner_application_received' },
    ]);
    expect(emails[1]!.created_at).toBe(emails[2]!.created_at);
    const { rows } = await server.db.query<{ status: string; confirmed: boolean }>(
      `select status, confirmed_at is not null as confirmed from public.partner_applications
       where id = $1`,
      [id],
    );
    expect(rows).toEqual([{ status: 'pending', confirmed: true }]);
  });

  it('takes one confirmed application per address: a second is answered alike, stores nothing and tells the owner', async () => {
    const email = uniqueEmail('twice');
    expect((await anon.rpc('submit_partner_application', application({ email }))).error).toBeNull();
    await anon.rpc('confirm_partner_application', { token: await confirmationToken(email) });
    const before = await snapshot(server, ['public.partner_applications']);
    const again = await anon.rpc(
      'submit_partner_application',
      application({ email: email.toUpperCase(), company: 'Another Firm' }),
    );
    expect(again.error).toBeNull();
    expect(again.data).toEqual({ email, message: NEUTRAL_ANSWER });
    expect(await snapshot(server, ['public.partner_applications'])).toEqual(before);
    expect(await latestTemplate(email)).toBe('partner_application_already_received');
  });

  it('answers an address that already belongs to a partner alike, and tells its owner', async () => {
    const partner = await signedInClient(server, {
      fullName: 'Paula Partner',
      company: 'Existing Partner Co',
      role: 'partner',
    });
    const before = await snapshot(server, ['public.partner_applications']);
    const result = await anon.rpc(
      'submit_partner_application',
      application({ email: partner.email }),
    );
    expect(result.error).toBeNull();
    expect(result.data).toEqual({ email: partner.email, message: NEUTRAL_ANSWER });
    expect(await snapshot(server, ['public.partner_applications'])).toEqual(before);
    expect(await latestTemplate(partner.email)).toBe('partner_application_existing_partner');
  });

  it('keeps a signed-in applicant as the user: they see it, another user does not', async () => {
    const applicant = await signedInClient(server, { fullName: 'Sid Signedin', company: 'Sid Co' });
    const other = await signedInClient(server, { fullName: 'Olga Other', company: 'Olga Co' });
    const result = await applicant.client.rpc(
      'submit_partner_application',
      application({ email: applicant.email }),
    );
    expect(result.error).toBeNull();
    const id = await applicationId(applicant.email);

    const { rows } = await server.db.query<{ user_id: string }>(
      `select user_id from public.partner_applications where id = $1`,
      [id],
    );
    expect(rows[0]?.user_id).toBe(applicant.id);

    const own = await applicant.client.from('partner_applications').select('id, status, email');
    expect(own.error).toBeNull();
    expect(own.data).toEqual([{ id, status: 'unconfirmed', email: applicant.email }]);

    const theirs = await other.client.from('partner_applications').select('id');
    expect(theirs.error).toBeNull();
    expect(theirs.data).toEqual([]);
    const byId = await other.client.from('partner_applications').select('id').eq('id', id);
    expect(byId.data).toEqual([]);
  });
});

describe('submission limits', () => {
  async function withLimits(
    limits: { perIp?: number; perEmail?: number },
    work: () => Promise<void>,
  ): Promise<void> {
    // Earlier tests counted hits from 127.0.0.1 this hour: start from zero.
    await server.db.query(`delete from private.submission_counts`);
    await server.db.query(
      `update public.site_settings set submissions_per_ip_per_hour = $1,
         submissions_per_email_per_hour = $2`,
      [limits.perIp ?? 100000, limits.perEmail ?? 3],
    );
    try {
      await work();
    } finally {
      await server.db.query(
        `update public.site_settings set submissions_per_ip_per_hour = 100000,
           submissions_per_email_per_hour = 3`,
      );
      await server.db.query(`delete from private.submission_counts`);
    }
  }

  async function leadsFrom(email: string): Promise<number> {
    const { rows } = await server.db.query<{ count: number }>(
      `select count(*)::int as count from public.leads where email = lower($1)`,
      [email],
    );
    return rows[0]!.count;
  }

  it('refuses a third inquiry from one address in an hour (429), whatever its case', async () => {
    await withLimits({ perEmail: 2 }, async () => {
      const email = uniqueEmail('limited');
      for (const variant of [email, email.toUpperCase()]) {
        expect(
          (await anon.rpc('submit_sales_inquiry', inquiry({ email: variant }))).error,
        ).toBeNull();
      }
      const before = await snapshot(server, ['public.leads', 'public.outbox_messages']);
      const third = await anon.rpc('submit_sales_inquiry', inquiry({ email }));
      expectRefusal(third, 429, 'rate_limited');
      expect(third.error?.message).toContain(SALES_INBOX);
      expect(await leadsFrom(email)).toBe(2);
      expect(await snapshot(server, ['public.leads', 'public.outbox_messages'])).toEqual(before);

      // Another address is not affected.
      expect((await anon.rpc('submit_sales_inquiry', inquiry())).error).toBeNull();
    });
  });

  it('does not count refused submissions against the address', async () => {
    await withLimits({ perEmail: 1 }, async () => {
      const email = uniqueEmail('retry');
      const refused = await anon.rpc('submit_sales_inquiry', inquiry({ email, consent: false }));
      expectRefusal(refused, 400, 'consent');
      expect((await anon.rpc('submit_sales_inquiry', inquiry({ email }))).error).toBeNull();
      expectRefusal(
        await anon.rpc('submit_sales_inquiry', inquiry({ email })),
        429,
        'rate_limited',
      );
    });
  });

  it('refuses a third inquiry from one network in an hour, with different addresses', async () => {
    await withLimits({ perIp: 2 }, async () => {
      const before = await snapshot(server, ['public.leads']);
      expect((await anon.rpc('submit_sales_inquiry', inquiry())).error).toBeNull();
      expect((await anon.rpc('submit_sales_inquiry', inquiry())).error).toBeNull();
      const third = await anon.rpc('submit_sales_inquiry', inquiry());
      expectRefusal(third, 429, 'rate_limited');
      expect(await snapshot(server, ['public.leads'])).toEqual({
        'public.leads': before['public.leads']! + 2,
      });
      // Each form has its own budget: the partner form still takes two.
      expect((await anon.rpc('submit_partner_application', application())).error).toBeNull();
    });
  });

  it('limits partner applications by network too', async () => {
    await withLimits({ perIp: 1 }, async () => {
      expect((await anon.rpc('submit_partner_application', application())).error).toBeNull();
      const before = await snapshot(server, APPLICATION_TABLES);
      expectRefusal(
        await anon.rpc('submit_partner_application', application()),
        429,
        'rate_limited',
      );
      expect(await snapshot(server, APPLICATION_TABLES)).toEqual(before);
    });
  });
});

describe('referral attribution', () => {
  let partner: { id: string; code: string };

  beforeAll(async () => {
    const user = await signedInClient(server, {
      fullName: 'Rita Referrer',
      company: 'Referral Partners Ltd',
      role: 'partner',
    });
    const { rows } = await server.db.query<{ id: string; referral_code: string }>(
      `select id, referral_code from public.partners where user_id = $1`,
      [user.id],
    );
    expect(rows).toHaveLength(1);
    partner = { id: rows[0]!.id, code: rows[0]!.referral_code };
  });

  async function clicksToday(): Promise<number | undefined> {
    const { rows } = await server.db.query<{ clicks: number }>(
      `select clicks from public.referral_clicks
       where partner_id = $1 and day = (now() at time zone 'UTC')::date`,
      [partner.id],
    );
    return rows[0]?.clicks;
  }

  it('gives the partner an upper-case code made from their company', () => {
    expect(partner.code).toMatch(/^(REFERRALPA|REFERRAL[0-9]{4})$/);
  });

  it('counts a click on a partner’s link for today (UTC), whatever the code’s case', async () => {
    expect(await clicksToday()).toBeUndefined();
    const first = await anon.rpc('record_referral_click', { code: partner.code });
    expect(first.error).toBeNull();
    expect(first.data).toBe(true);
    expect(await clicksToday()).toBe(1);
    const second = await anon.rpc('record_referral_click', {
      code: ` ${partner.code.toLowerCase()} `,
    });
    expect(second.data).toBe(true);
    expect(await clicksToday()).toBe(2);
  });

  it('answers false for an unknown code and stores nothing', async () => {
    const before = await snapshot(server, ['public.referral_clicks']);
    const { rows } = await server.db.query<{ total: number }>(
      `select coalesce(sum(clicks), 0)::int as total from public.referral_clicks`,
    );
    for (const code of ['NOSUCHCODE', '', 'X'.repeat(25)]) {
      const result = await anon.rpc('record_referral_click', { code });
      expect(result.error).toBeNull();
      expect(result.data).toBe(false);
    }
    expect(await snapshot(server, ['public.referral_clicks'])).toEqual(before);
    const after = await server.db.query<{ total: number }>(
      `select coalesce(sum(clicks), 0)::int as total from public.referral_clicks`,
    );
    expect(after.rows[0]!.total).toBe(rows[0]!.total);
  });

  it('attributes a lead to the partner its code names, in any case; an unknown code to nobody', async () => {
    const referred = await anon.rpc(
      'submit_sales_inquiry',
      inquiry({ referral_code: partner.code.toLowerCase() }),
    );
    expect(referred.error).toBeNull();
    const unknown = await anon.rpc(
      'submit_sales_inquiry',
      inquiry({ referral_code: 'NOSUCHCODE' }),
    );
    expect(unknown.error).toBeNull();
    const { rows } = await server.db.query<{ id: string; partner_id: string | null }>(
      `select id, partner_id from public.leads where id = any($1::uuid[])`,
      [[(referred.data as { id: string }).id, (unknown.data as { id: string }).id]],
    );
    const byId = Object.fromEntries(rows.map((row) => [row.id, row.partner_id]));
    expect(byId).toEqual({
      [(referred.data as { id: string }).id]: partner.id,
      [(unknown.data as { id: string }).id]: null,
    });
    const [, notification] = await emailsFor(
      server,
      'lead_id',
      (referred.data as { id: string }).id,
    );
    expect(notification?.body_text).toContain(`(${partner.code})`);
  });

  it('attributes a partner application to the referring partner', async () => {
    const email = uniqueEmail('referred');
    const result = await anon.rpc(
      'submit_partner_application',
      application({ email, referral_code: ` ${partner.code.toLowerCase()}` }),
    );
    expect(result.error).toBeNull();
    const { rows } = await server.db.query<{ referred_by: string | null }>(
      `select referred_by from public.partner_applications where id = $1`,
      [await applicationId(email)],
    );
    expect(rows[0]?.referred_by).toBe(partner.id);
  });

  it('does not attribute to a suspended partner', async () => {
    await server.db.query(`update public.partners set status = 'suspended' where id = $1`, [
      partner.id,
    ]);
    try {
      const lead = await anon.rpc('submit_sales_inquiry', inquiry({ referral_code: partner.code }));
      expect(lead.error).toBeNull();
      const { rows } = await server.db.query<{ partner_id: string | null }>(
        `select partner_id from public.leads where id = $1`,
        [(lead.data as { id: string }).id],
      );
      expect(rows[0]?.partner_id).toBeNull();
      expect((await anon.rpc('record_referral_click', { code: partner.code })).data).toBe(false);
    } finally {
      await server.db.query(`update public.partners set status = 'active' where id = $1`, [
        partner.id,
      ]);
    }
  });

  it('keeps the partner on the profile of a sign-up that carried the code', async () => {
    async function signUp(referralCode: string): Promise<string> {
      const { data, error } = await clientFor(server).auth.signUp({
        email: uniqueEmail('referred'),
        password: PASSWORD,
        options: {
          data: { full_name: 'Rory Referred', company: 'Referred Co', referral_code: referralCode },
        },
      });
      if (error) throw error;
      return data.user!.id;
    }
    const referred = await signUp(partner.code.toLowerCase());
    const unknown = await signUp('NOSUCHCODE');
    const { rows } = await server.db.query<{
      id: string;
      referred_by: string | null;
      full_name: string;
    }>(`select id, referred_by, full_name from public.profiles where id = any($1::uuid[])`, [
      [referred, unknown],
    ]);
    const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
    expect(byId[referred]).toMatchObject({ referred_by: partner.id, full_name: 'Rory Referred' });
    expect(byId[unknown]).toMatchObject({ referred_by: null, full_name: 'Rory Referred' });
  });
});
