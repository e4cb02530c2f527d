import type { SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  application,
  emailsFor,
  expectRefusal,
  signedInClient,
  snapshot,
  startFormsServer,
  type SignedIn,
} from '../forms/forms-testing';
import { PASSWORD } from '../schema/test-world';
import { clientFor, codeIn, latestMessage, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * Partner applications and partners in the admin area (issue 17, decision
 * 024): admins list applications and partners a page at a time, approve an
 * application (the applicant's confirmed account becomes a partner at once,
 * or when it appears), reject one with a reason, and change a partner's
 * terms from the version they saw. Everything is in the audit log, every
 * email goes through the outbox, and nobody but an admin gets any of it.
 */

let server: TestServer;
let admin: SignedIn;
let secondAdmin: SignedIn;
let customer: SignedIn;
let partner: SignedIn;
let anon: SupabaseClient;

const TABLES = [
  'public.partner_applications',
  'public.partners',
  'public.outbox_messages',
  'public.admin_audit_log',
];

/** A confirmed (pending) application from `email`, as the emailed link leaves it. */
async function pendingApplication(
  email: string,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const submitted = await anon.rpc(
    'submit_partner_application',
    application({ email, ...overrides }),
  );
  expect(submitted.error).toBeNull();
  const message = await latestMessage(server.db, email, 'partner_application_confirm');
  const token = /\/partner\?confirm=([0-9a-f]{64})\b/.exec(message.body_text)?.[1];
  const confirmed = await anon.rpc('confirm_partner_application', { token });
  expect(confirmed.data).toMatchObject({ status: 'confirmed' });
  const { rows } = await server.db.query<{ id: string }>(
    `select id from public.partner_applications where email = $1 and status = 'pending'`,
    [email.toLowerCase()],
  );
  return rows[0]!.id;
}

/** A confirmed account made through the auth admin API (no role). */
async function confirmedAccount(email: string): Promise<string> {
  const service = clientFor(server, { key: server.serviceRoleKey });
  const created = await service.auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  expect(created.error).toBeNull();
  return created.data.user!.id;
}

/** Signs in afresh: the token's app_metadata as stored now. */
async function freshSignIn(email: string) {
  const client = clientFor(server);
  const { data, error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  expect(error).toBeNull();
  const claims = decodeJwt(data.session!.access_token) as { app_metadata?: { role?: string } };
  return { client, role: claims.app_metadata?.role };
}

async function auditFor(table: string, id: string) {
  const { rows } = await server.db.query<{
    actor_id: string | null;
    actor_email: string | null;
    action: string;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  }>(
    `select actor_id, actor_email, action, before, after
     from public.admin_audit_log where target_table = $1 and target_id = $2 order by id`,
    [table, id],
  );
  return rows;
}

beforeAll(async () => {
  server = await startFormsServer({
    MAILER_AUTOCONFIRM: 'false',
    MAILER_MAX_FREQUENCY: '0',
    RATE_LIMIT_SIGN_IN_SIGN_UPS: '10000',
    RATE_LIMIT_EMAIL_SENT: '10000',
    RATE_LIMIT_VERIFY: '10000',
    RATE_LIMIT_OTP: '10000',
  });
  admin = await signedInClient(server, { fullName: 'Ada Admin', role: 'admin' });
  secondAdmin = await signedInClient(server, { fullName: 'Abe Admin', role: 'admin' });
  customer = await signedInClient(server, { fullName: 'Cal Customer', company: 'Cal Co' });
  partner = await signedInClient(server, { fullName: 'Pia Partner', role: 'partner' });
  anon = clientFor(server);
});
afterAll(() => server?.close());

describe('who may call the partner functions', () => {
  it('refuses customers, partners and anonymous callers, storing and sending nothing', async () => {
    const applicationId = await pendingApplication(uniqueEmail('refused'));
    const { rows } = await server.db.query<{ id: string; version: number }>(
      `select id, version from public.partners where user_id = $1`,
      [partner.id],
    );
    const partnerRow = rows[0]!;
    const before = await snapshot(server, TABLES);
    const calls: [string, Record<string, unknown>][] = [
      ['admin_partner_applications', {}],
      ['admin_partners', {}],
      ['approve_partner_application', { p_application_id: applicationId }],
      ['reject_partner_application', { p_application_id: applicationId, p_reason: 'No.' }],
      [
        'update_partner',
        {
          p_partner_id: partnerRow.id,
          p_changes: { commission_rate: 0.5 },
          p_expected_version: partnerRow.version,
        },
      ],
    ];
    for (const [fn, args] of calls) {
      for (const [who, client] of [
        ['customer', customer.client],
        ['partner', partner.client],
      ] as const) {
        const result = await client.rpc(fn, args);
        expect(result.status, `${fn} as ${who}`).toBe(403);
        expect(result.error?.code, `${fn} as ${who}`).toBe('42501');
        expect(result.error?.message).toMatch(/^Only Cervana admins can .+\.$/);
      }
      // Anonymous callers cannot execute the functions at all.
      const asAnon = await anon.rpc(fn, args);
      expect(asAnon.status, `${fn} as anon`).toBe(401);
      expect(asAnon.error?.code, `${fn} as anon`).toBe('42501');
      expect(asAnon.data, `${fn} as anon`).toBeNull();
    }
    expect(await snapshot(server, TABLES)).toEqual(before);
    const { rows: stillPending } = await server.db.query(
      `select status from public.partner_applications where id = $1`,
      [applicationId],
    );
    expect(stillPending).toEqual([{ status: 'pending' }]);
  });

  it('refuses an admin a direct write to applications and partners (the functions decide)', async () => {
    const applicationId = await pendingApplication(uniqueEmail('patch'));
    const patched = await admin.client
      .from('partner_applications')
      .update({ status: 'approved' })
      .eq('id', applicationId)
      .select('id');
    expect(patched.error?.code).toBe('42501');
    const raised = await admin.client
      .from('partners')
      .update({ commission_rate: 0.5 })
      .eq('user_id', partner.id)
      .select('id');
    expect(raised.error?.code).toBe('42501');
  });
});

describe('approve_partner_application', () => {
  it('makes the applicant’s confirmed account a partner, once, and emails their code', async () => {
    const email = uniqueEmail('approved');
    const accountId = await confirmedAccount(email);
    const applicationId = await pendingApplication(email, { company: 'Brightpath Advisors' });
    const before = await freshSignIn(email);
    expect(before.role).toBeUndefined();

    const approved = await admin.client.rpc('approve_partner_application', {
      p_application_id: applicationId,
    });
    expect(approved.error).toBeNull();
    const answer = approved.data as { status: string; partner_id: string; referral_code: string };
    expect(answer).toMatchObject({ status: 'approved', has_account: true });
    expect(answer.referral_code).toMatch(/^[A-Z0-9]{4,24}$/);

    const partners = await server.db.query<{
      id: string;
      company: string;
      referral_code: string;
      status: string;
    }>(`select id, company, referral_code, status from public.partners where user_id = $1`, [
      accountId,
    ]);
    expect(partners.rows).toEqual([
      {
        id: answer.partner_id,
        company: 'Brightpath Advisors',
        referral_code: answer.referral_code,
        status: 'active',
      },
    ]);
    const stored = await server.db.query(
      `select status, partner_id, user_id, reviewed_by from public.partner_applications where id = $1`,
      [applicationId],
    );
    expect(stored.rows).toEqual([
      {
        status: 'approved',
        partner_id: answer.partner_id,
        user_id: accountId,
        reviewed_by: admin.id,
      },
    ]);

    // A fresh token carries the role, and the database sees a partner.
    const after = await freshSignIn(email);
    expect(after.role).toBe('partner');
    const isPartner = await after.client.rpc('is_partner');
    expect(isPartner.data).toBe(true);
    const own = await after.client.from('partners').select('referral_code');
    expect(own.data).toEqual([{ referral_code: answer.referral_code }]);
    // Other app_metadata keys are kept.
    const meta = await server.db.query<{ meta: Record<string, unknown> }>(
      `select raw_app_meta_data as meta from auth.users where id = $1`,
      [accountId],
    );
    expect(meta.rows[0]!.meta).toMatchObject({ role: 'partner', provider: 'email' });

    const welcome = (await emailsFor(server, 'application_id', applicationId)).filter(
      (message) => message.template === 'partner_application_approved',
    );
    expect(welcome).toHaveLength(1);
    expect(welcome[0]!.recipient).toBe(email.toLowerCase());
    expect(welcome[0]!.body_text).toContain(answer.referral_code);
    expect(welcome[0]!.body_text).toContain('/?ref=' + answer.referral_code);
    expect(welcome[0]!.body_text).toContain('/auth?next=%2Fpartner-portal');

    // The decision, the partner record and the role are in the audit log.
    expect(await auditFor('partner_applications', applicationId)).toEqual([
      expect.objectContaining({
        actor_id: admin.id,
        actor_email: admin.email,
        action: 'update',
        before: expect.objectContaining({ status: 'pending', partner_id: null }),
        after: expect.objectContaining({ status: 'approved', partner_id: answer.partner_id }),
      }),
    ]);
    expect(await auditFor('partners', answer.partner_id)).toEqual([
      expect.objectContaining({ actor_id: admin.id, action: 'insert' }),
    ]);
    expect(await auditFor('users', accountId)).toEqual([
      {
        actor_id: admin.id,
        actor_email: admin.email,
        action: 'update',
        before: { role: null, application_id: applicationId },
        after: { role: 'partner', application_id: applicationId },
      },
    ]);

    // A second time (or by another admin) is refused, and changes nothing.
    const snap = await snapshot(server, TABLES);
    const again = await secondAdmin.client.rpc('approve_partner_application', {
      p_application_id: applicationId,
    });
    expectRefusal(again, 409, 'status');
    expect(again.error!.message).toMatch(/already approved/);
    const reject = await secondAdmin.client.rpc('reject_partner_application', {
      p_application_id: applicationId,
      p_reason: 'Changed my mind',
    });
    expectRefusal(reject, 409, 'status');
    expect(await snapshot(server, TABLES)).toEqual(snap);
    const count = await server.db.query(
      `select count(*)::int as n from public.partners where user_id = $1`,
      [accountId],
    );
    expect(count.rows).toEqual([{ n: 1 }]);
  });

  it('before the account exists, grants the role when an account confirms that address', async () => {
    const email = uniqueEmail('later');
    const applicationId = await pendingApplication(email, { company: 'Later Partners' });
    const approved = await admin.client.rpc('approve_partner_application', {
      p_application_id: applicationId,
    });
    expect(approved.error).toBeNull();
    expect(approved.data).toMatchObject({
      status: 'approved',
      has_account: false,
      partner_id: null,
      referral_code: null,
    });
    const welcome = (await emailsFor(server, 'application_id', applicationId)).find(
      (message) => message.template === 'partner_application_approved',
    );
    expect(welcome?.body_text).toContain('/auth?mode=sign-up&next=%2Fpartner-portal');

    // Someone signs up with the address: nothing until it is confirmed.
    const client = clientFor(server);
    const signedUp = await client.auth.signUp({ email, password: PASSWORD });
    expect(signedUp.error).toBeNull();
    const userId = signedUp.data.user!.id;
    const unconfirmed = await server.db.query(
      `select raw_app_meta_data ->> 'role' as role,
         (select count(*)::int from public.partners where user_id = $1) as partners
       from auth.users where id = $1`,
      [userId],
    );
    expect(unconfirmed.rows).toEqual([{ role: null, partners: 0 }]);

    const verified = await client.auth.verifyOtp({
      email,
      token: codeIn(await latestMessage(server.db, email, 'auth.confirm_signup')),
      type: 'email',
    });
    expect(verified.error).toBeNull();

    const after = await freshSignIn(email);
    expect(after.role).toBe('partner');
    expect((await after.client.rpc('is_partner')).data).toBe(true);
    const own = await after.client.from('partners').select('id, company, referral_code');
    expect(own.data).toEqual([
      { id: expect.any(String), company: 'Later Partners', referral_code: expect.any(String) },
    ]);
    const linked = await server.db.query(
      `select user_id, partner_id from public.partner_applications where id = $1`,
      [applicationId],
    );
    expect(linked.rows).toEqual([{ user_id: userId, partner_id: own.data![0]!.id }]);
  });

  it('refuses an unknown, missing or unconfirmed application, and an admin’s account', async () => {
    const unknown = await admin.client.rpc('approve_partner_application', {
      p_application_id: '00000000-0000-4000-8000-000000000000',
    });
    expectRefusal(unknown, 404, 'application_id');
    const missing = await admin.client.rpc('approve_partner_application', {
      p_application_id: null,
    });
    expectRefusal(missing, 400, 'application_id');
    const malformed = await admin.client.rpc('approve_partner_application', {
      p_application_id: 'not-a-uuid',
    });
    expect(malformed.status).toBe(400);

    const email = uniqueEmail('unconfirmed');
    await anon.rpc('submit_partner_application', application({ email }));
    const { rows } = await server.db.query<{ id: string }>(
      `select id from public.partner_applications where email = $1`,
      [email.toLowerCase()],
    );
    const notYet = await admin.client.rpc('approve_partner_application', {
      p_application_id: rows[0]!.id,
    });
    expectRefusal(notYet, 409, 'status');
    expect(notYet.error!.message).toMatch(/not confirmed their email address/);

    // An admin's own address applied: approving would take away their admin role.
    const adminApplication = await pendingApplication(secondAdmin.email);
    const own = await admin.client.rpc('approve_partner_application', {
      p_application_id: adminApplication,
    });
    expectRefusal(own, 409, 'application_id');
    const role = await server.db.query(
      `select raw_app_meta_data ->> 'role' as role from auth.users where id = $1`,
      [secondAdmin.id],
    );
    expect(role.rows).toEqual([{ role: 'admin' }]);
  });
});

describe('reject_partner_application', () => {
  it('needs a reason, and emails it to the applicant', async () => {
    const email = uniqueEmail('rejected');
    const applicationId = await pendingApplication(email);
    const before = await snapshot(server, TABLES);
    for (const reason of [null, '', '   ']) {
      const refused = await admin.client.rpc('reject_partner_application', {
        p_application_id: applicationId,
        p_reason: reason,
      });
      expectRefusal(refused, 400, 'reason');
    }
    const long = await admin.client.rpc('reject_partner_application', {
      p_application_id: applicationId,
      p_reason: 'x'.repeat(1001),
    });
    expectRefusal(long, 400, 'reason');
    const control = await admin.client.rpc('reject_partner_application', {
      p_application_id: applicationId,
      p_reason: 'Bad\u0007bell',
    });
    expectRefusal(control, 400, 'reason');
    expect(await snapshot(server, TABLES)).toEqual(before);

    const rejected = await admin.client.rpc('reject_partner_application', {
      p_application_id: applicationId,
      p_reason: '  We only work with CX consultancies for now.\nTry again next year.  ',
    });
    expect(rejected.error).toBeNull();
    expect(rejected.data).toMatchObject({
      status: 'rejected',
      decision_reason: 'We only work with CX consultancies for now.\nTry again next year.',
    });
    const sent = (await emailsFor(server, 'application_id', applicationId)).filter(
      (message) => message.template === 'partner_application_rejected',
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.recipient).toBe(email.toLowerCase());
    expect(sent[0]!.body_text).toContain('We only work with CX consultancies for now.');
    expect(await auditFor('partner_applications', applicationId)).toEqual([
      expect.objectContaining({
        actor_id: admin.id,
        before: expect.objectContaining({ status: 'pending', decision_reason: null }),
        after: expect.objectContaining({
          status: 'rejected',
          decision_reason: 'We only work with CX consultancies for now.\nTry again next year.',
        }),
      }),
    ]);
    // No partner role or record.
    const partners = await server.db.query(
      `select count(*)::int as n from public.partners p join auth.users u on u.id = p.user_id
       where lower(u.email) = $1`,
      [email.toLowerCase()],
    );
    expect(partners.rows).toEqual([{ n: 0 }]);
    const again = await admin.client.rpc('approve_partner_application', {
      p_application_id: applicationId,
    });
    expectRefusal(again, 409, 'status');
  });
});

describe('update_partner', () => {
  async function partnerRow() {
    const { rows } = await server.db.query<{
      id: string;
      version: number;
      tier: string;
      commission_rate: string;
      status: string;
      referral_code: string;
    }>(
      `select id, version, tier, commission_rate::text, status, referral_code
       from public.partners where user_id = $1`,
      [partner.id],
    );
    return rows[0]!;
  }

  it('changes tier, rate and status from the version seen, refusing stale or bad changes', async () => {
    const start = await partnerRow();
    const before = await snapshot(server, TABLES);
    const bad: [Record<string, unknown>, string][] = [
      [{ tier: 'platinum' }, 'tier'],
      [{ tier: null }, 'tier'],
      [{ commission_rate: 0.51 }, 'commission_rate'],
      [{ commission_rate: -0.01 }, 'commission_rate'],
      [{ commission_rate: '0.2' }, 'commission_rate'],
      [{ commission_rate: 0.1234 }, 'commission_rate'],
      [{ commission_rate: 1e300 }, 'commission_rate'],
      [{ status: 'deleted' }, 'status'],
      [{ referral_code: 'STOLEN' }, 'referral_code'],
      [{ user_id: admin.id }, 'user_id'],
      [{ ['x'.repeat(5000)]: 1 }, 'x'.repeat(5000)],
    ];
    for (const [changes, field] of bad) {
      const result = await admin.client.rpc('update_partner', {
        p_partner_id: start.id,
        p_changes: changes,
        p_expected_version: start.version,
      });
      expect(result.status, JSON.stringify(changes).slice(0, 80)).toBe(400);
      if (field.length < 100) expectRefusal(result, 400, field);
    }
    const notObject = await admin.client.rpc('update_partner', {
      p_partner_id: start.id,
      p_changes: ['tier'],
      p_expected_version: start.version,
    });
    expectRefusal(notObject, 400, 'changes');
    const unknown = await admin.client.rpc('update_partner', {
      p_partner_id: '00000000-0000-4000-8000-000000000000',
      p_changes: { tier: 'gold' },
      p_expected_version: 1,
    });
    expectRefusal(unknown, 404, 'partner_id');
    expect(await snapshot(server, TABLES)).toEqual(before);

    const saved = await admin.client.rpc('update_partner', {
      p_partner_id: start.id,
      p_changes: { tier: 'silver', commission_rate: 0.175 },
      p_expected_version: start.version,
    });
    expect(saved.error).toBeNull();
    expect(saved.data).toMatchObject({
      tier: 'silver',
      commission_rate: 0.175,
      version: start.version + 1,
    });

    // Another admin, from the version before: refused, nothing changed.
    const stale = await secondAdmin.client.rpc('update_partner', {
      p_partner_id: start.id,
      p_changes: { tier: 'gold' },
      p_expected_version: start.version,
    });
    expectRefusal(stale, 409, 'version');
    expect(await partnerRow()).toMatchObject({ tier: 'silver', commission_rate: '0.175' });

    const audit = await auditFor('partners', start.id);
    expect(audit.at(-1)).toEqual({
      actor_id: admin.id,
      actor_email: admin.email,
      action: 'update',
      before: { tier: start.tier, commission_rate: Number(start.commission_rate) },
      after: { tier: 'silver', commission_rate: 0.175 },
    });
  });

  it('suspending a partner stops their code from attributing; reactivating restores it', async () => {
    const start = await partnerRow();
    const suspended = await admin.client.rpc('update_partner', {
      p_partner_id: start.id,
      p_changes: { status: 'suspended' },
      p_expected_version: start.version,
    });
    expect(suspended.data).toMatchObject({ status: 'suspended' });
    const click = await anon.rpc('record_referral_click', { code: start.referral_code });
    expect(click.data).toBe(false);

    const activated = await admin.client.rpc('update_partner', {
      p_partner_id: start.id,
      p_changes: { status: 'active' },
      p_expected_version: start.version + 1,
    });
    expect(activated.data).toMatchObject({ status: 'active' });
    const clickAgain = await anon.rpc('record_referral_click', { code: start.referral_code });
    expect(clickAgain.data).toBe(true);
    const audit = await auditFor('partners', start.id);
    expect(audit.slice(-2).map((entry) => [entry.before, entry.after])).toEqual([
      [{ status: 'active' }, { status: 'suspended' }],
      [{ status: 'suspended' }, { status: 'active' }],
    ]);
  });
});

describe('the lists', () => {
  it('pages applications by key, newest first, one status or all, with whether an account exists', async () => {
    const withAccount = uniqueEmail('listed');
    await confirmedAccount(withAccount);
    const ids: string[] = [];
    for (const [index, email] of [
      withAccount,
      uniqueEmail('listed'),
      uniqueEmail('listed'),
    ].entries()) {
      ids.push(await pendingApplication(email, { company: `Listed ${index}` }));
    }
    const seen: { id: string; has_account: boolean; company: string; status: string }[] = [];
    let before: { created_at: string; id: string } | null = null;
    let pages = 0;
    do {
      const result = await admin.client.rpc('admin_partner_applications', {
        p_status: 'pending',
        p_before_created_at: before?.created_at ?? null,
        p_before_id: before?.id ?? null,
        p_limit: 2,
      });
      expect(result.error).toBeNull();
      const page = result.data as {
        rows: typeof seen;
        next: { created_at: string; id: string } | null;
        pending: number;
      };
      expect(page.rows.length).toBeLessThanOrEqual(2);
      expect(page.pending).toBeGreaterThanOrEqual(3);
      seen.push(...page.rows);
      before = page.next;
      pages += 1;
    } while (before && pages < 50);
    expect(seen.every((row) => row.status === 'pending')).toBe(true);
    expect(new Set(seen.map((row) => row.id)).size).toBe(seen.length);
    const mine = seen.filter((row) => ids.includes(row.id));
    expect(mine.map((row) => [row.company, row.has_account])).toEqual([
      ['Listed 2', false],
      ['Listed 1', false],
      ['Listed 0', true],
    ]);

    const all = await admin.client.rpc('admin_partner_applications', { p_limit: 100 });
    const statuses = new Set(
      (all.data as { rows: { status: string }[] }).rows.map((r) => r.status),
    );
    expect(statuses.has('approved') && statuses.has('rejected')).toBe(true);

    for (const [args, field] of [
      [{ p_status: 'maybe' }, 'status'],
      [{ p_limit: 0 }, 'limit'],
      [{ p_limit: 101 }, 'limit'],
      [{ p_before_created_at: new Date().toISOString() }, 'before'],
    ] as const) {
      expectRefusal(await admin.client.rpc('admin_partner_applications', args), 400, field);
    }
  });

  it('pages partners by key with their email and counts, and searches them', async () => {
    const result = await admin.client.rpc('admin_partners', { p_search: partner.email });
    expect(result.error).toBeNull();
    const page = result.data as {
      rows: { id: string; email: string; clicks: number; leads: number; version: number }[];
      next: unknown;
    };
    expect(page.rows).toEqual([
      expect.objectContaining({ email: partner.email, clicks: expect.any(Number), leads: 0 }),
    ]);
    expect(page.rows[0]!.clicks).toBeGreaterThanOrEqual(1);
    expect(page.next).toBeNull();

    // LIKE's wildcards are taken literally.
    const wildcard = await admin.client.rpc('admin_partners', { p_search: '%' });
    expect((wildcard.data as { rows: unknown[] }).rows).toEqual([]);

    type Cursor = { created_at: string; id: string } | null;
    const ids: string[] = [];
    let before: Cursor = null;
    do {
      const next = await admin.client.rpc('admin_partners', {
        p_before_created_at: before?.created_at ?? null,
        p_before_id: before?.id ?? null,
        p_limit: 1,
      });
      const data = next.data as { rows: { id: string }[]; next: Cursor };
      ids.push(...data.rows.map((row) => row.id));
      before = data.next;
    } while (before && ids.length < 100);
    const total = await server.db.query(`select count(*)::int as n from public.partners`);
    expect(ids.length).toBe((total.rows[0] as { n: number }).n);
    expect(new Set(ids).size).toBe(ids.length);

    const suspended = await admin.client.rpc('admin_partners', { p_status: 'suspended' });
    expect(suspended.error).toBeNull();
    expectRefusal(
      await admin.client.rpc('admin_partners', { p_search: 'y'.repeat(101) }),
      400,
      'search',
    );
    expectRefusal(await admin.client.rpc('admin_partners', { p_status: 'gone' }), 400, 'status');
  });
});
