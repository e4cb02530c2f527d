import type { AuthChangeEvent } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, codeIn, latestMessage, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

let server: TestServer;
const PASSWORD = 'a long and unusual passphrase 7';

beforeAll(async () => {
  server = await startTestServer({
    env: {
      MAILER_MAX_FREQUENCY: '0',
      SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION: 'true',
      URI_ALLOW_LIST: 'https://partners.example.com/**',
      // Phone sign-in needs an SMS provider; `log` is the explicit test one.
      SMS_PROVIDER: 'log',
    },
  });
});
afterAll(() => server?.close());

async function confirmedUser(email = uniqueEmail('flows')) {
  const supabase = clientFor(server);
  await supabase.auth.signUp({ email, password: PASSWORD });
  const verified = await supabase.auth.verifyOtp({
    email,
    token: codeIn(await latestMessage(server.db, email)),
    type: 'email',
  });
  expect(verified.error).toBeNull();
  return { supabase, email, userId: verified.data.user!.id };
}

describe('magic links', () => {
  it('sign in through the emailed link, which redirects with the session in the fragment', async () => {
    const { email } = await confirmedUser();
    const supabase = clientFor(server);
    const sent = await supabase.auth.signInWithOtp({
      email,
      options: { emailRedirectTo: 'https://partners.example.com/welcome' },
    });
    expect(sent.error).toBeNull();
    const mail = await latestMessage(server.db, email, 'auth.magic_link');
    expect(mail.subject).toBe('Your Cervana sign-in link');
    expect(mail.body_html).toContain('Sign in');
    const response = await fetch(mail.metadata.link!, { redirect: 'manual' });
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    expect(location.startsWith('https://partners.example.com/welcome#')).toBe(true);
    const fragment = new URLSearchParams(location.split('#')[1]);
    expect(fragment.get('token_type')).toBe('bearer');
    expect(fragment.get('type')).toBe('magiclink');
    const user = await supabase.auth.getUser(fragment.get('access_token')!);
    expect(user.data.user?.email).toBe(email);

    // Used once: the second visit lands with GoTrue's error fragment.
    const reuse = await fetch(mail.metadata.link!, { redirect: 'manual' });
    const error = new URLSearchParams(reuse.headers.get('location')!.split('#')[1]);
    expect(error.get('error_code')).toBe('otp_expired');
    expect(error.get('error_description')).toBe('Email link is invalid or has expired');
  });

  it('never redirects outside the site or its allow-list', async () => {
    const { email } = await confirmedUser();
    await clientFor(server).auth.signInWithOtp({
      email,
      options: { emailRedirectTo: 'https://evil.example.net/steal' },
    });
    const mail = await latestMessage(server.db, email, 'auth.magic_link');
    const response = await fetch(mail.metadata.link!, { redirect: 'manual' });
    expect(response.headers.get('location')).toMatch(new RegExp(`^${server.config.siteUrl}/?#`));
  });

  it('creates the account on first use unless told not to', async () => {
    const email = uniqueEmail('otp-new');
    const refused = await clientFor(server).auth.signInWithOtp({
      email,
      options: { shouldCreateUser: false },
    });
    expect(refused.error).toMatchObject({
      status: 422,
      code: 'otp_disabled',
      message: 'Signups not allowed for otp',
    });
    const created = await clientFor(server).auth.signInWithOtp({
      email,
      options: { data: { company: 'Acme' } },
    });
    expect(created.error).toBeNull();
    const verified = await clientFor(server).auth.verifyOtp({
      email,
      token: codeIn(await latestMessage(server.db, email, 'auth.confirm_signup')),
      type: 'email',
    });
    expect(verified.data.user?.user_metadata).toMatchObject({ company: 'Acme' });
  });

  it('refuses a wrong code, and verification requests that are malformed', async () => {
    const { email } = await confirmedUser();
    const supabase = clientFor(server);
    await supabase.auth.signInWithOtp({ email });
    const wrong = await supabase.auth.verifyOtp({ email, token: '000000', type: 'email' });
    expect(wrong.error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Token has expired or is invalid',
    });
    const post = (body: unknown) =>
      fetch(`${server.url}/auth/v1/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
        body: JSON.stringify(body),
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    expect(await post({ token: '1' })).toMatchObject({
      status: 400,
      body: { message: 'Verify requires a verification type' },
    });
    expect(await post({ type: 'email' })).toMatchObject({
      body: { message: 'Verify requires either a token or a token hash' },
    });
    expect(await post({ type: 'bogus', token: '1' })).toMatchObject({
      body: { message: 'Unsupported verification type' },
    });
    expect(await post({ type: 'email', token_hash: 'abc', email })).toMatchObject({
      body: { message: 'Only the token_hash and type should be provided' },
    });
  });
});

describe('password recovery', () => {
  it('mails a reset code, raises PASSWORD_RECOVERY, and lets the user set a new password', async () => {
    const { email } = await confirmedUser();
    const supabase = clientFor(server);
    const events: AuthChangeEvent[] = [];
    supabase.auth.onAuthStateChange((event) => void events.push(event));
    expect((await supabase.auth.resetPasswordForEmail(email)).error).toBeNull();
    const mail = await latestMessage(server.db, email, 'auth.recovery');
    const verified = await supabase.auth.verifyOtp({
      email,
      token: codeIn(mail),
      type: 'recovery',
    });
    expect(verified.error).toBeNull();
    await expect.poll(() => events).toContain('PASSWORD_RECOVERY');
    const updated = await supabase.auth.updateUser({ password: 'a brand new passphrase 8' });
    expect(updated.error).toBeNull();
    const signIn = await clientFor(server).auth.signInWithPassword({
      email,
      password: 'a brand new passphrase 8',
    });
    expect(signIn.error).toBeNull();
  });

  it('answers 200 for unknown addresses and sends nothing', async () => {
    const email = uniqueEmail('ghost');
    expect((await clientFor(server).auth.resetPasswordForEmail(email)).error).toBeNull();
    await expect(latestMessage(server.db, email)).rejects.toThrow(/no message/);
  });
});

describe('resend', () => {
  it('sends the sign-up confirmation again with a new code; the old one no longer works', async () => {
    const email = uniqueEmail('resend');
    const supabase = clientFor(server);
    await supabase.auth.signUp({ email, password: PASSWORD });
    const first = codeIn(await latestMessage(server.db, email));
    expect((await supabase.auth.resend({ type: 'signup', email })).error).toBeNull();
    const second = codeIn(await latestMessage(server.db, email));
    const stale = await supabase.auth.verifyOtp({ email, token: first, type: 'signup' });
    if (first !== second) expect(stale.error?.code).toBe('otp_expired');
    expect(
      (await supabase.auth.verifyOtp({ email, token: second, type: 'signup' })).error,
    ).toBeNull();
  });

  it('validates its parameters', async () => {
    const supabase = clientFor(server);
    const missingType = await supabase.auth.resend({
      type: 'bogus' as 'signup',
      email: 'a@example.com',
    });
    expect(missingType.error?.message).toBe(
      'Missing one of these types: signup, email_change, sms, phone_change',
    );
  });
});

describe('changing the email address', () => {
  it('needs both the current and the new address to confirm', async () => {
    const { supabase, email } = await confirmedUser();
    const newEmail = uniqueEmail('moved');
    const requested = await supabase.auth.updateUser({ email: newEmail });
    expect(requested.error).toBeNull();
    expect(requested.data.user?.new_email).toBe(newEmail);
    expect(requested.data.user?.email_change_sent_at).toEqual(expect.any(String));
    const toNew = await latestMessage(server.db, newEmail, 'auth.email_change_new');
    const toCurrent = await latestMessage(server.db, email, 'auth.email_change_current');

    const firstLeg = await supabase.auth.verifyOtp({
      email: newEmail,
      token: codeIn(toNew),
      type: 'email_change',
    });
    expect(firstLeg.error).toBeNull();
    expect(firstLeg.data.session).toBeNull();
    const secondLeg = await supabase.auth.verifyOtp({
      email,
      token: codeIn(toCurrent),
      type: 'email_change',
    });
    expect(secondLeg.error).toBeNull();
    expect(secondLeg.data.user?.email).toBe(newEmail);
    const signIn = await clientFor(server).auth.signInWithPassword({
      email: newEmail,
      password: PASSWORD,
    });
    expect(signIn.error).toBeNull();
  });

  it('refuses an address another account has', async () => {
    const { supabase } = await confirmedUser();
    const { email: taken } = await confirmedUser();
    const result = await supabase.auth.updateUser({ email: taken });
    expect(result.error).toMatchObject({ status: 422, code: 'email_exists' });
  });
});

describe('changing the password', () => {
  it('requires a reauthentication nonce when the session is old, and refuses the same password', async () => {
    const { supabase, email, userId } = await confirmedUser();
    const same = await supabase.auth.updateUser({ password: PASSWORD });
    expect(same.error).toMatchObject({ status: 422, code: 'same_password' });

    await server.db.query(
      `update auth.sessions set created_at = now() - interval '25 hours' where user_id = $1`,
      [userId],
    );
    const needsNonce = await supabase.auth.updateUser({ password: 'another passphrase for me 9' });
    expect(needsNonce.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
    expect((await supabase.auth.reauthenticate()).error).toBeNull();
    const nonce = codeIn(await latestMessage(server.db, email, 'auth.reauthentication'));
    const wrongNonce = await supabase.auth.updateUser({
      password: 'another passphrase for me 9',
      nonce: '000000',
    });
    expect(wrongNonce.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    const changed = await supabase.auth.updateUser({
      password: 'another passphrase for me 9',
      nonce,
    });
    expect(changed.error).toBeNull();
  });

  it('checks the current password when given, and password strength', async () => {
    const { supabase } = await confirmedUser();
    const wrong = await supabase.auth.updateUser({
      password: 'yet another long one 10',
      current_password: 'not it at all',
    });
    expect(wrong.error).toMatchObject({ status: 400, code: 'current_password_invalid' });
    const weak = await supabase.auth.updateUser({ password: 'abc' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' });
    const tooLong = await supabase.auth.updateUser({ password: 'x'.repeat(73) });
    expect(tooLong.error?.message).toBe('Password cannot be longer than 72 characters');
  });

  it('merges user metadata, removing keys set to null, and refuses app_metadata', async () => {
    const { supabase } = await confirmedUser();
    await supabase.auth.updateUser({ data: { full_name: 'Grace Hopper', company: 'Navy' } });
    const merged = await supabase.auth.updateUser({
      data: { company: null, title: 'Rear Admiral' },
    });
    // email_verified was set by the confirmation, as GoTrue does.
    expect(merged.data.user?.user_metadata).toEqual({
      email_verified: true,
      full_name: 'Grace Hopper',
      title: 'Rear Admiral',
    });
    const { data } = await supabase.auth.getSession();
    const response = await fetch(`${server.url}/auth/v1/user`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${data.session!.access_token}`,
        'content-type': 'application/json',
        'x-supabase-api-version': '2024-01-01',
      },
      body: JSON.stringify({ app_metadata: { role: 'admin' } }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      code: 'not_admin',
      message: 'Updating app_metadata requires admin privileges',
    });
  });
});

describe('phone accounts', () => {
  it('sign up with a phone and password, confirmed by a code sent by SMS', async () => {
    const phone = `+1415555${String(Date.now()).slice(-4)}`;
    const supabase = clientFor(server);
    const signedUp = await supabase.auth.signUp({ phone, password: PASSWORD });
    expect(signedUp.error).toBeNull();
    expect(signedUp.data.user?.phone).toBe(phone.slice(1));
    const sms = await latestMessage(server.db, phone, 'auth.sms_confirmation');
    expect(sms.channel).toBe('sms');
    const verified = await supabase.auth.verifyOtp({ phone, token: codeIn(sms), type: 'sms' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.phone_confirmed_at).toEqual(expect.any(String));
    const signIn = await clientFor(server).auth.signInWithPassword({ phone, password: PASSWORD });
    expect(signIn.error).toBeNull();
  });

  it('an email user who adds and confirms a phone gets a phone identity and can sign in with it', async () => {
    const { supabase, email } = await confirmedUser();
    await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    const phone = `+1415556${String(Date.now()).slice(-4)}`;
    const changed = await supabase.auth.updateUser({ phone });
    expect(changed.error).toBeNull();
    expect(changed.data.user?.new_phone).toBe(phone.slice(1));
    const sms = await latestMessage(server.db, phone, 'auth.sms_phone_change');
    const verified = await supabase.auth.verifyOtp({
      phone,
      token: codeIn(sms),
      type: 'phone_change',
    });
    expect(verified.error).toBeNull();
    const user = verified.data.user!;
    expect(user.phone).toBe(phone.slice(1));
    expect(user.identities?.map((identity) => identity.provider).sort()).toEqual([
      'email',
      'phone',
    ]);
    expect(
      user.identities?.find((identity) => identity.provider === 'phone')?.identity_data,
    ).toMatchObject({
      phone: phone.slice(1),
      phone_verified: true,
    });
    expect(user.app_metadata).toMatchObject({ provider: 'email', providers: ['email', 'phone'] });
    const byPhone = await clientFor(server).auth.signInWithPassword({ phone, password: PASSWORD });
    expect(byPhone.error).toBeNull();
    expect(byPhone.data.user?.email).toBe(email);
  });

  it('refuses a malformed phone number', async () => {
    const result = await clientFor(server).auth.signUp({ phone: '12ab', password: PASSWORD });
    expect(result.error).toMatchObject({
      status: 400,
      message: 'Invalid phone number format (E.164 required)',
    });
  });
});
