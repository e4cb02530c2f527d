import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';
import {
  DEMO_ACCOUNTS,
  formatDemoAccounts,
  generateDemoPassword,
  seedDemoAccounts,
  type DemoAccount,
} from './demo-accounts';

let server: TestServer;
const logged: string[] = [];
const log = { info: (message: string) => logged.push(message) };

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function demoUserCount(): Promise<number> {
  const { rows } = await server.db.query<{ count: number }>(
    `select count(*)::int as count from auth.users where email like '%@demo.cervana.ai'`,
  );
  return rows[0]!.count;
}

describe('demo accounts', () => {
  let accounts: DemoAccount[];

  it('does nothing when SEED_DEMO is false', async () => {
    const off = await seedDemoAccounts(
      server.db,
      { ...server.config.auth, seedDemoAccounts: false },
      log,
    );
    expect(off).toEqual([]);
    expect(await demoUserCount()).toBe(0);
  });

  it('creates a customer, a partner and an admin, each with a strong random password', async () => {
    accounts = await seedDemoAccounts(server.db, server.config.auth, log);
    expect(accounts.map((account) => [account.label, account.email, account.role])).toEqual([
      ['customer', 'customer@demo.cervana.ai', undefined],
      ['partner', 'partner@demo.cervana.ai', 'partner'],
      ['admin', 'admin@demo.cervana.ai', 'admin'],
    ]);
    const passwords = accounts.map((account) => account.password);
    expect(new Set(passwords).size).toBe(3);
    for (const password of passwords)
      expect(password).toMatch(/^[A-Za-z2-9]{5}(-[A-Za-z2-9]{5}){3}$/);
    expect(await demoUserCount()).toBe(3);
    expect(logged.join('\n')).toContain('customer@demo.cervana.ai');
    // Only hashes are stored.
    const { rows } = await server.db.query<{ encrypted_password: string }>(
      `select encrypted_password from auth.users where email like '%@demo.cervana.ai'`,
    );
    for (const row of rows) {
      expect(row.encrypted_password).toMatch(/^\$2[aby]\$10\$/);
      expect(passwords).not.toContain(row.encrypted_password);
    }
  });

  it('signs each account in with its password, confirmed and with its metadata', async () => {
    const expected = {
      'customer@demo.cervana.ai': {
        user_metadata: { full_name: 'Casey Customer', company: 'Northwind Logistics' },
        role: undefined,
      },
      'partner@demo.cervana.ai': {
        user_metadata: { company: 'Brightpath Advisors' },
        role: 'partner',
      },
      'admin@demo.cervana.ai': { user_metadata: {}, role: 'admin' },
    } as const;
    for (const account of accounts) {
      const { data, error } = await clientFor(server).auth.signInWithPassword({
        email: account.email,
        password: account.password,
      });
      expect(error).toBeNull();
      const user = data.user!;
      const want = expected[account.email as keyof typeof expected];
      expect(user.email).toBe(account.email);
      expect(user.email_confirmed_at).toEqual(expect.any(String));
      expect(user.user_metadata).toMatchObject(want.user_metadata);
      expect(user.app_metadata).toMatchObject({ provider: 'email', providers: ['email'] });
      expect(user.app_metadata.role).toBe(want.role);
      expect(user.role).toBe('authenticated');
    }

    const wrong = await clientFor(server).auth.signInWithPassword({
      email: 'admin@demo.cervana.ai',
      password: 'not-the-password',
    });
    expect(wrong.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
  });

  it('opens the demo partner’s portal on labelled sample referrals and commissions', async () => {
    const partner = accounts.find((account) => account.label === 'partner')!;
    const client = clientFor(server);
    const { error } = await client.auth.signInWithPassword({
      email: partner.email,
      password: partner.password,
    });
    expect(error).toBeNull();
    const summary = await client.rpc('partner_summary', {
      p_from: new Date(Date.now() - 30 * 86_400_000).toISOString(),
      p_to: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(summary.error).toBeNull();
    const data = summary.data as {
      period: { clicks: number; leads: number };
      commissions: {
        currency: string;
        pending_cents: number;
        approved_cents: number;
        paid_cents: number;
      }[];
    };
    expect(data.period.clicks).toBeGreaterThan(0);
    expect(data.period.leads).toBeGreaterThan(0);
    // 15 % of each won deal: one pending, one approved, one paid.
    expect(data.commissions).toEqual([
      expect.objectContaining({
        currency: 'USD',
        pending_cents: 1_440_000,
        approved_cents: 360_000,
        paid_cents: 720_000,
      }),
    ]);
    const referrals = await client.rpc('partner_referrals', { p_limit: 100 });
    const companies = (referrals.data as { company: string }[]).map((row) => row.company);
    expect(companies.length).toBe(7);
    expect(companies.every((company) => company.endsWith('(sample)'))).toBe(true);
    const payouts = await client.from('payouts').select('reference, status');
    expect(payouts.data).toEqual([{ reference: 'SAMPLE-PAYOUT-001', status: 'paid' }]);
  });

  it('puts the admin role in the access token, where policies read it', async () => {
    const admin = accounts.find((account) => account.label === 'admin')!;
    const { data } = await clientFor(server).auth.signInWithPassword({
      email: admin.email,
      password: admin.password,
    });
    const payload = JSON.parse(
      Buffer.from(data.session!.access_token.split('.')[1]!, 'base64url').toString(),
    ) as { app_metadata: { role?: string } };
    expect(payload.app_metadata.role).toBe('admin');
  });

  it('creates nothing on a second call, and keeps the first passwords', async () => {
    expect(await seedDemoAccounts(server.db, server.config.auth, log)).toEqual([]);
    expect(await demoUserCount()).toBe(3);
    const customer = accounts[0]!;
    const { error } = await clientFor(server).auth.signInWithPassword({
      email: customer.email,
      password: customer.password,
    });
    expect(error).toBeNull();
  });

  it('prints the credentials in a box with the site URL', () => {
    const box = formatDemoAccounts(accounts, server.config.siteUrl);
    const lines = box.split('\n');
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
    expect(box).toContain(`${server.config.siteUrl}/auth`);
    expect(box).toMatch(/shown ONCE/);
    for (const account of accounts) {
      expect(box).toContain(account.email);
      expect(box).toContain(account.password);
    }
  });
});

describe('demo passwords', () => {
  it('meet the configured rules, including required character sets', () => {
    const rules = {
      minLength: 8,
      requiredCharacterSets: ['abcdefghijklmnopqrstuvwxyz', '0123456789', '!@#$%^&*'],
      rejectCommon: true,
    };
    for (let index = 0; index < 50; index += 1) {
      const password = generateDemoPassword(rules);
      expect(password).toMatch(/[!@#$%^&*]/);
      expect(password).toMatch(/[0-9]/);
    }
    expect(DEMO_ACCOUNTS).toHaveLength(3);
  });
});
