import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, codeIn, latestMessage, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: { MAILER_MAX_FREQUENCY: '0', LOG_LEVEL: 'error', LOG_FORMAT: 'json' },
  });
});
afterAll(() => server?.close());

describe('sign-up with email and password (confirmation on)', () => {
  it('creates an unconfirmed user, mails a code, and signs in once confirmed', async () => {
    const supabase = clientFor(server);
    const email = uniqueEmail('signup');
    const { data, error } = await supabase.auth.signUp({
      email,
      password: 'correct horse battery staple',
      options: {
        data: { full_name: 'Ada Lovelace', company: 'Analytical Engines' },
        emailRedirectTo: `${server.url}/`,
      },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      user_metadata: { full_name: 'Ada Lovelace', company: 'Analytical Engines' },
      app_metadata: { provider: 'email', providers: ['email'] },
      is_anonymous: false,
    });
    expect(data.user?.identities).toHaveLength(1);
    expect(data.user?.confirmation_sent_at).toEqual(expect.any(String));
    expect(data.user?.email_confirmed_at).toBeUndefined();

    const blocked = await supabase.auth.signInWithPassword({
      email,
      password: 'correct horse battery staple',
    });
    expect(blocked.error).toMatchObject({
      status: 400,
      code: 'email_not_confirmed',
      message: 'Email not confirmed',
    });

    const mail = await latestMessage(server.db, email, 'auth.confirm_signup');
    expect(mail.subject).toBe('Confirm your Cervana account');
    expect(mail.metadata.link).toContain('/auth/v1/verify?token=');
    const verified = await supabase.auth.verifyOtp({ email, token: codeIn(mail), type: 'email' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.access_token).toEqual(expect.any(String));
    expect(verified.data.user?.email_confirmed_at).toEqual(expect.any(String));

    const signedIn = await supabase.auth.signInWithPassword({
      email,
      password: 'correct horse battery staple',
    });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.user?.app_metadata.provider).toBe('email');
    expect(signedIn.data.session?.expires_in).toBe(3600);
    const me = await supabase.auth.getUser(signedIn.data.session!.access_token);
    expect(me.data.user?.id).toBe(signedIn.data.user?.id);
  });

  it('answers a repeated sign-up for a confirmed address like a new one (no enumeration)', async () => {
    const supabase = clientFor(server);
    const email = uniqueEmail('repeat');
    await supabase.auth.signUp({ email, password: 'correct horse battery staple' });
    await supabase.auth.verifyOtp({
      email,
      token: codeIn(await latestMessage(server.db, email)),
      type: 'email',
    });
    const again = await supabase.auth.signUp({ email, password: 'another long password 42' });
    expect(again.error).toBeNull();
    expect(again.data.user?.identities).toEqual([]);
    expect(again.data.user?.role).toBe('');
  });

  it('refuses weak passwords, bad emails and missing passwords with GoTrue errors', async () => {
    const supabase = clientFor(server);
    const weak = await supabase.auth.signUp({ email: uniqueEmail(), password: 'Zq9-x' });
    expect(weak.error).toMatchObject({
      status: 422,
      code: 'weak_password',
      name: 'AuthWeakPasswordError',
    });
    expect((weak.error as { reasons?: string[] }).reasons).toEqual(['length']);
    expect(weak.error?.message).toBe('Password should be at least 8 characters.');
    const common = await supabase.auth.signUp({ email: uniqueEmail(), password: 'password123' });
    expect((common.error as { reasons?: string[] }).reasons).toContain('pwned');
    const badEmail = await supabase.auth.signUp({
      email: 'not-an-email',
      password: 'correct horse battery staple',
    });
    expect(badEmail.error).toMatchObject({
      status: 400,
      message: 'Unable to validate email address: invalid format',
    });
    const noPassword = await supabase.auth.signUp({ email: uniqueEmail(), password: '' });
    expect(noPassword.error).toMatchObject({
      status: 400,
      message: 'Signup requires a valid password',
    });
  });

  it('refuses anonymous sign-ins unless enabled', async () => {
    const { error } = await clientFor(server).auth.signInAnonymously();
    expect(error).toMatchObject({
      status: 422,
      code: 'anonymous_provider_disabled',
      message: 'Anonymous sign-ins are disabled',
    });
  });
});
