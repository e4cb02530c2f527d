import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../schema/test-world';
import { clientFor, codeIn, latestMessage, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';
import { application, signedInClient, startFormsServer } from './forms-testing';

/**
 * Issue 13: an application made signed out is linked to the account with its
 * address once that address is confirmed on the account (and only then), so
 * the applicant who creates the account the form's answer suggests sees the
 * application in the partner portal. Through the official client and real
 * HTTP, as the app calls it; the portal reads the table through row-level
 * security (fetchMyApplication).
 */

let server: TestServer;
let anon: SupabaseClient;

beforeAll(async () => {
  server = await startFormsServer({
    // Sign-up is confirmed through the emailed code, as in production.
    MAILER_AUTOCONFIRM: 'false',
    MAILER_MAX_FREQUENCY: '0',
    // Every request of this file comes from 127.0.0.1.
    RATE_LIMIT_SIGN_IN_SIGN_UPS: '10000',
    RATE_LIMIT_EMAIL_SENT: '10000',
    RATE_LIMIT_VERIFY: '10000',
    RATE_LIMIT_OTP: '10000',
  });
  anon = clientFor(server);
});
afterAll(() => server?.close());

/** Applies signed out (or as `client`) with `email`; the answer never differs. */
async function apply(
  email: string,
  client: SupabaseClient = anon,
  overrides: Record<string, unknown> = {},
): Promise<void> {
  const result = await client.rpc(
    'submit_partner_application',
    application({ email, ...overrides }),
  );
  expect(result.error).toBeNull();
}

/** The owner (user_id) and status of the applications from an address, as stored. */
async function stored(email: string): Promise<{ user_id: string | null; status: string }[]> {
  const { rows } = await server.db.query<{ user_id: string | null; status: string }>(
    `select user_id, status from public.partner_applications where email = $1 order by created_at`,
    [email.toLowerCase()],
  );
  return rows;
}

/** What the partner portal reads for the signed-in user (fetchMyApplication). */
async function portalApplications(client: SupabaseClient) {
  const { data, error } = await client
    .from('partner_applications')
    .select('company, status')
    .order('created_at', { ascending: false });
  expect(error).toBeNull();
  return data;
}

/** Signs up through the auth API; the address stays unconfirmed until `confirm`. */
async function signUp(email: string) {
  const client = clientFor(server);
  const { data, error } = await client.auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  const userId = data.user!.id;
  return {
    client,
    userId,
    /** Follows the emailed code, as the confirmation link does; the client is then signed in. */
    async confirm(): Promise<void> {
      const verified = await client.auth.verifyOtp({
        email,
        token: codeIn(await latestMessage(server.db, email, 'auth.confirm_signup')),
        type: 'email',
      });
      expect(verified.error).toBeNull();
      expect(verified.data.user?.id).toBe(userId);
    },
  };
}

/** The token of the newest confirmation link emailed for an application. */
async function applicationToken(email: string): Promise<string> {
  const message = await latestMessage(server.db, email, 'partner_application_confirm');
  const token = /\/partner\?confirm=([0-9a-f]{64})\b/.exec(message.body_text)?.[1];
  if (!token) throw new Error(`no confirmation link in: ${message.body_text}`);
  return token;
}

describe('an application made signed out, then an account with its address', () => {
  it('is linked once the account’s address is confirmed, and the portal shows it', async () => {
    const email = uniqueEmail('apply-first');
    await apply(email, anon, { company: 'First Applied Ltd' });
    expect(await stored(email)).toEqual([{ user_id: null, status: 'unconfirmed' }]);

    const account = await signUp(email);
    await account.confirm();
    expect(await stored(email)).toEqual([{ user_id: account.userId, status: 'unconfirmed' }]);
    // Linking does not confirm the application: only its own emailed link does.
    expect(await portalApplications(account.client)).toEqual([
      { company: 'First Applied Ltd', status: 'unconfirmed' },
    ]);

    const confirmed = await anon.rpc('confirm_partner_application', {
      token: await applicationToken(email),
    });
    expect(confirmed.data).toMatchObject({ status: 'confirmed' });
    expect(await portalApplications(account.client)).toEqual([
      { company: 'First Applied Ltd', status: 'pending' },
    ]);
  });

  it('is linked when the application was confirmed before the account', async () => {
    const email = uniqueEmail('confirm-first');
    await apply(email);
    await anon.rpc('confirm_partner_application', { token: await applicationToken(email) });
    const account = await signUp(email);
    await account.confirm();
    expect(await stored(email)).toEqual([{ user_id: account.userId, status: 'pending' }]);
    expect(await portalApplications(account.client)).toEqual([
      { company: 'Brightpath Advisors', status: 'pending' },
    ]);
  });

  it('is not linked while the account’s address is unconfirmed', async () => {
    const email = uniqueEmail('unconfirmed');
    await apply(email);
    const account = await signUp(email);
    expect(await stored(email)).toEqual([{ user_id: null, status: 'unconfirmed' }]);
    // Nor by applying again: the account does not count until its address is confirmed.
    await apply(email);
    expect(await stored(email)).toEqual([{ user_id: null, status: 'unconfirmed' }]);
    // Nor by asking for another code.
    expect((await account.client.auth.resend({ type: 'signup', email })).error).toBeNull();
    expect(await stored(email)).toEqual([{ user_id: null, status: 'unconfirmed' }]);
    // An unconfirmed account cannot sign in to read it either.
    const signIn = await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).not.toBeNull();

    await account.confirm();
    expect(await stored(email)).toEqual([{ user_id: account.userId, status: 'unconfirmed' }]);
  });

  it('is linked when an admin creates the account already confirmed', async () => {
    const email = uniqueEmail('admin-made');
    await apply(email);
    const admin = clientFor(server, { key: server.serviceRoleKey });
    const unconfirmed = await admin.auth.admin.createUser({ email, password: PASSWORD });
    expect(unconfirmed.error).toBeNull();
    expect(await stored(email)).toEqual([{ user_id: null, status: 'unconfirmed' }]);
    const confirmed = await admin.auth.admin.updateUserById(unconfirmed.data.user!.id, {
      email_confirm: true,
    });
    expect(confirmed.error).toBeNull();
    expect(await stored(email)).toEqual([
      { user_id: unconfirmed.data.user!.id, status: 'unconfirmed' },
    ]);

    const other = uniqueEmail('admin-made-confirmed');
    await apply(other);
    const created = await admin.auth.admin.createUser({
      email: other,
      password: PASSWORD,
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    expect(await stored(other)).toEqual([
      { user_id: created.data.user!.id, status: 'unconfirmed' },
    ]);
  });

  it('matches the address in any case', async () => {
    const email = uniqueEmail('mixed-case');
    const [local, domain] = email.split('@') as [string, string];
    await apply(`${local.toUpperCase()}@${domain}`);
    const account = await signUp(`${local}@${domain.toUpperCase()}`);
    await account.confirm();
    expect(await stored(email)).toEqual([{ user_id: account.userId, status: 'unconfirmed' }]);
    expect(await portalApplications(account.client)).toHaveLength(1);
  });
});

describe('an account with a confirmed address, then an application signed out', () => {
  it('links the application to the account at once, in any case', async () => {
    const user = await signedInClient(server, { fullName: 'Rita Reversed', company: 'Rita Co' });
    expect(await portalApplications(user.client)).toEqual([]);
    await apply(user.email.toUpperCase(), anon, { company: 'Rita Co' });
    expect(await stored(user.email)).toEqual([{ user_id: user.id, status: 'unconfirmed' }]);
    expect(await portalApplications(user.client)).toEqual([
      { company: 'Rita Co', status: 'unconfirmed' },
    ]);
    await anon.rpc('confirm_partner_application', { token: await applicationToken(user.email) });
    expect(await portalApplications(user.client)).toEqual([
      { company: 'Rita Co', status: 'pending' },
    ]);
  });

  it('does not link to an account whose address is unconfirmed', async () => {
    const email = uniqueEmail('reversed-unconfirmed');
    const account = await signUp(email);
    await apply(email);
    expect(await stored(email)).toEqual([{ user_id: null, status: 'unconfirmed' }]);
    await account.confirm();
    expect(await stored(email)).toEqual([{ user_id: account.userId, status: 'unconfirmed' }]);
  });
});

describe('no one else’s account', () => {
  it('shows an application only to the account with its address, never to another', async () => {
    const applicant = await signedInClient(server, { fullName: 'Amy Applicant' });
    const other = await signedInClient(server, { fullName: 'Otto Other' });
    await apply(applicant.email);
    // Another signed-in user who applies with the applicant's address does not get it either.
    await apply(applicant.email, other.client, { company: 'Otto Typed This' });
    expect(await stored(applicant.email)).toEqual([
      { user_id: applicant.id, status: 'unconfirmed' },
    ]);
    expect(await portalApplications(other.client)).toEqual([]);
    expect(await portalApplications(applicant.client)).toEqual([
      { company: 'Otto Typed This', status: 'unconfirmed' },
    ]);
  });

  it('does not link to an account that only asked to change its address to the application’s', async () => {
    const email = uniqueEmail('claimed');
    await apply(email);
    const claimant = await signedInClient(server, { fullName: 'Carl Claimant' });
    const requested = await claimant.client.auth.updateUser({ email });
    expect(requested.error).toBeNull();
    expect(requested.data.user?.new_email).toBe(email);
    expect(await stored(email)).toEqual([{ user_id: null, status: 'unconfirmed' }]);
    expect(await portalApplications(claimant.client)).toEqual([]);

    // Confirming the current address alone is not enough (secure email change: both legs).
    const currentLeg = await claimant.client.auth.verifyOtp({
      email: claimant.email,
      token: codeIn(await latestMessage(server.db, claimant.email, 'auth.email_change_current')),
      type: 'email_change',
    });
    expect(currentLeg.error).toBeNull();
    expect(await stored(email)).toEqual([{ user_id: null, status: 'unconfirmed' }]);

    // Once the new address is confirmed too, the account proves it reads the address.
    const newLeg = await claimant.client.auth.verifyOtp({
      email,
      token: codeIn(await latestMessage(server.db, email, 'auth.email_change_new')),
      type: 'email_change',
    });
    expect(newLeg.error).toBeNull();
    expect(newLeg.data.user?.email).toBe(email);
    expect(await stored(email)).toEqual([{ user_id: claimant.id, status: 'unconfirmed' }]);
  });

  it('never moves an application that already follows an account', async () => {
    // A signed-in user applies with an address no account has: it follows them, as before.
    const applicant = await signedInClient(server, { fullName: 'Petra Phone' });
    const email = uniqueEmail('someone-else');
    await apply(email, applicant.client);
    expect(await stored(email)).toEqual([{ user_id: applicant.id, status: 'unconfirmed' }]);
    // The address's owner later makes an account: the application stays where it is.
    const owner = await signUp(email);
    await owner.confirm();
    expect(await stored(email)).toEqual([{ user_id: applicant.id, status: 'unconfirmed' }]);
    expect(await portalApplications(owner.client)).toEqual([]);
  });

  it('leaves the address’s applications with the account after it moves to another address', async () => {
    const email = uniqueEmail('moved-away');
    await apply(email);
    const first = await signUp(email);
    await first.confirm();
    expect(await stored(email)).toEqual([{ user_id: first.userId, status: 'unconfirmed' }]);
    // The first account leaves the address (an admin's change), and a second account takes it.
    const admin = clientFor(server, { key: server.serviceRoleKey });
    const moved = await admin.auth.admin.updateUserById(first.userId, {
      email: uniqueEmail('moved-to'),
    });
    expect(moved.error).toBeNull();
    const second = await signUp(email);
    await second.confirm();
    expect(await stored(email)).toEqual([{ user_id: first.userId, status: 'unconfirmed' }]);
    expect(await portalApplications(second.client)).toEqual([]);
  });
});
