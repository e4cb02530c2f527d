import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Abuse limits and the audit trail. The server trusts X-Forwarded-For here, so
 * each client can stand for a different IP address.
 */

let server: TestServer;
const PASSWORD = 'a long and unusual passphrase 7';
let ipCounter = 0;

beforeAll(async () => {
  server = await startTestServer({
    env: {
      TRUST_PROXY: 'true',
      MAILER_AUTOCONFIRM: 'true',
      MAILER_MAX_FREQUENCY: '0',
      RATE_LIMIT_FAILED_SIGN_INS: '3',
      RATE_LIMIT_EMAIL_SENT: '2',
    },
  });
});
afterAll(() => server?.close());

/** A client whose requests come from their own IP address. */
function clientFrom(ip = `198.51.100.${(ipCounter += 1)}`) {
  return clientFor(server, { global: { headers: { 'x-forwarded-for': ip } } });
}

async function account() {
  const email = uniqueEmail('limits');
  const { error } = await clientFrom().auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  return email;
}

describe('failed sign-ins per account', () => {
  it('stop guessing from anywhere new once over the limit, but let the owner in from a known address', async () => {
    const email = await account();
    const home = '203.0.113.10';
    const owner = await clientFrom(home).auth.signInWithPassword({ email, password: PASSWORD });
    expect(owner.error).toBeNull();

    // Three wrong guesses, each from another address (per-IP limits never trigger).
    for (let guess = 0; guess < 3; guess += 1) {
      const wrong = await clientFrom().auth.signInWithPassword({
        email,
        password: `guess number ${guess} is wrong`,
      });
      expect(wrong.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
    }

    // Now even the right password from a new address is refused, without saying whether it was right…
    const elsewhere = await clientFrom().auth.signInWithPassword({ email, password: PASSWORD });
    expect(elsewhere.error).toMatchObject({
      status: 429,
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    });
    // …and an address with no account gets the same answer once over the limit.
    const nobody = uniqueEmail('nobody');
    for (let guess = 0; guess < 3; guess += 1) {
      await clientFrom().auth.signInWithPassword({ email: nobody, password: 'x'.repeat(12) });
    }
    const unknown = await clientFrom().auth.signInWithPassword({
      email: nobody,
      password: PASSWORD,
    });
    expect(unknown.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });

    // The owner, from where they signed in before, still gets in.
    const again = await clientFrom(home).auth.signInWithPassword({ email, password: PASSWORD });
    expect(again.error).toBeNull();
    expect(again.data.user?.email).toBe(email);
  });
});

describe('emails per IP address', () => {
  it('answer over_email_send_rate_limit past the hourly limit', async () => {
    const email = await account();
    const supabase = clientFrom('192.0.2.77');
    expect((await supabase.auth.resetPasswordForEmail(email)).error).toBeNull();
    expect((await supabase.auth.signInWithOtp({ email })).error).toBeNull();
    const third = await supabase.auth.resetPasswordForEmail(email);
    expect(third.error).toMatchObject({
      status: 429,
      code: 'over_email_send_rate_limit',
      message: 'email rate limit exceeded',
    });
    // Another address is unaffected.
    expect((await clientFrom().auth.resetPasswordForEmail(email)).error).toBeNull();
  });
});

describe('audit log', () => {
  it('records sign-up, sign-in, password change, sign-out and admin actions with the IP address', async () => {
    const email = await account();
    const ip = '203.0.113.55';
    const supabase = clientFrom(ip);
    const signedIn = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    const userId = signedIn.data.user!.id;
    expect(
      (await supabase.auth.updateUser({ password: 'another unusual passphrase 8' })).error,
    ).toBeNull();
    expect((await supabase.auth.signOut()).error).toBeNull();
    const admin = clientFor(server, { key: server.serviceRoleKey });
    expect(
      (await admin.auth.admin.updateUserById(userId, { user_metadata: { plan: 'pro' } })).error,
    ).toBeNull();

    const { rows } = await server.db.query<{
      action: string;
      log_type: string;
      ip_address: string;
    }>(
      `select payload ->> 'action' as action, payload ->> 'log_type' as log_type, ip_address
       from auth.audit_log_entries
       where payload ->> 'actor_id' = $1 or payload -> 'traits' ->> 'user_id' = $1
       order by created_at, id`,
      [userId],
    );
    const actions = rows.map((row) => row.action);
    expect(actions).toEqual(
      expect.arrayContaining(['user_signedup', 'login', 'user_updated_password', 'logout']),
    );
    expect(rows.find((row) => row.action === 'user_signedup')?.log_type).toBe('team');
    expect(rows.find((row) => row.action === 'login')?.log_type).toBe('account');
    for (const action of ['user_updated_password', 'logout']) {
      expect(rows.find((row) => row.action === action)?.ip_address).toBe(ip);
    }
    const { rows: adminRows } = await server.db.query<{ action: string; actor: string }>(
      `select payload ->> 'action' as action, payload ->> 'actor_username' as actor
       from auth.audit_log_entries where payload -> 'traits' ->> 'user_id' = $1`,
      [userId],
    );
    expect(adminRows).toContainEqual({ action: 'user_modified', actor: 'service_role' });
  });
});
