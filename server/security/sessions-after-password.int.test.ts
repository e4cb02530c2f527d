import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, codeIn, latestMessage, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Security issue 24, finding 1: a password change or reset ends every other
 * session and voids every pending link and code, as GoTrue's UpdatePassword
 * does; and "sign out everywhere else" (scope=others) ends the rest on demand.
 */

const PASSWORD = 'a long and unusual passphrase 7';
const NEW_PASSWORD = 'another long passphrase, 8';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: {
      MAILER_AUTOCONFIRM: 'true',
      MAILER_MAX_FREQUENCY: '0',
      RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000',
      RATE_LIMIT_EMAIL_SENT: '1000',
    },
  });
});
afterAll(() => server?.close());

interface Signed {
  supabase: SupabaseClient;
  accessToken: string;
  refreshToken: string;
}

async function account(): Promise<string> {
  const email = uniqueEmail('password-sessions');
  const { error } = await clientFor(server).auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  return email;
}

async function signIn(email: string, password = PASSWORD): Promise<Signed> {
  const supabase = clientFor(server);
  const { data, error } = await supabase.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  return {
    supabase,
    accessToken: data.session!.access_token,
    refreshToken: data.session!.refresh_token,
  };
}

/** Whether a session still works: its refresh token rotates, and its access token reads the user. */
async function stillWorks(session: Pick<Signed, 'accessToken' | 'refreshToken'>) {
  const refreshed = await clientFor(server).auth.refreshSession({
    refresh_token: session.refreshToken,
  });
  const user = await clientFor(server).auth.getUser(session.accessToken);
  return { refresh: !refreshed.error, user: !user.error, userError: user.error };
}

describe('a password change', () => {
  it('ends every other session of the account and keeps the one that changed it', async () => {
    const email = await account();
    const other = await signIn(email);
    const current = await signIn(email);

    const { error } = await current.supabase.auth.updateUser({ password: NEW_PASSWORD });
    expect(error).toBeNull();

    const ended = await stillWorks(other);
    expect(ended).toMatchObject({ refresh: false, user: false });
    // The server's session_not_found, which the client reports as a missing session.
    expect(ended.userError?.name).toBe('AuthSessionMissingError');
    const raw = await fetch(`${server.url}/auth/v1/user`, {
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${other.accessToken}`,
        'x-supabase-api-version': '2024-01-01',
      },
    });
    expect(raw.status).toBe(403);
    expect(await raw.json()).toMatchObject({ code: 'session_not_found' });
    // The other session's access token is refused wherever a session is checked.
    expect((await other.supabase.auth.mfa.listFactors()).error).not.toBeNull();
    expect((await current.supabase.auth.getUser()).error).toBeNull();
    expect((await current.supabase.auth.refreshSession()).error).toBeNull();
    await signIn(email, NEW_PASSWORD);
  });

  it('through the emailed reset link ends the sessions opened before it', async () => {
    const email = await account();
    const before = await signIn(email);

    const owner = clientFor(server);
    expect((await owner.auth.resetPasswordForEmail(email)).error).toBeNull();
    const mail = await latestMessage(server.db, email, 'auth.recovery');
    const recovered = await owner.auth.verifyOtp({ email, token: codeIn(mail), type: 'recovery' });
    expect(recovered.error).toBeNull();
    expect((await owner.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull();

    expect(await stillWorks(before)).toMatchObject({ refresh: false, user: false });
    expect((await owner.auth.getUser()).error).toBeNull();
    const { error } = await clientFor(server).auth.signInWithPassword({
      email,
      password: PASSWORD,
    });
    expect(error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('voids the links and codes sent before it: recovery, email change, reauthentication', async () => {
    const email = await account();
    const current = await signIn(email);
    const stranger = clientFor(server);

    // A reset link, as a thief with the mailbox (or an old tab) would hold it.
    await stranger.auth.resetPasswordForEmail(email);
    const recovery = await latestMessage(server.db, email, 'auth.recovery');
    // A pending email change (its link to the new address) and a reauthentication code.
    const newEmail = uniqueEmail('moved');
    expect((await current.supabase.auth.updateUser({ email: newEmail })).error).toBeNull();
    const change = await latestMessage(server.db, newEmail, 'auth.email_change_new');
    expect((await current.supabase.auth.reauthenticate()).error).toBeNull();
    const nonce = codeIn(await latestMessage(server.db, email, 'auth.reauthentication'));

    expect((await current.supabase.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull();

    const byCode = await clientFor(server).auth.verifyOtp({
      email,
      token: codeIn(recovery),
      type: 'recovery',
    });
    expect(byCode.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const byLink = await fetch(recovery.metadata.link!, { redirect: 'manual' });
    expect(byLink.status).toBe(303);
    expect(byLink.headers.get('location')).toContain('error_code=otp_expired');
    expect(byLink.headers.get('location')).not.toContain('access_token');
    const changed = await clientFor(server).auth.verifyOtp({
      email: newEmail,
      token: codeIn(change),
      type: 'email_change',
    });
    expect(changed.error).toMatchObject({ code: 'otp_expired' });
    const again = await current.supabase.auth.updateUser({ password: PASSWORD, nonce });
    expect(again.error).toMatchObject({ code: 'reauthentication_not_valid' });
  });

  it('that is refused (the same password again) ends no session', async () => {
    const email = await account();
    const other = await signIn(email);
    const current = await signIn(email);
    const same = await current.supabase.auth.updateUser({ password: PASSWORD });
    expect(same.error).toMatchObject({ code: 'same_password' });
    expect(await stillWorks(other)).toMatchObject({ refresh: true, user: true });
  });
});

describe('sign out everywhere else', () => {
  it("ends the account's other sessions (refresh and access tokens) and keeps this one", async () => {
    const email = await account();
    const [first, second, mine] = [await signIn(email), await signIn(email), await signIn(email)];
    expect((await mine.supabase.auth.signOut({ scope: 'others' })).error).toBeNull();
    for (const other of [first, second]) {
      expect(await stillWorks(other)).toMatchObject({ refresh: false, user: false });
    }
    expect((await mine.supabase.auth.getSession()).data.session).not.toBeNull();
    expect((await mine.supabase.auth.getUser()).error).toBeNull();
    expect((await mine.supabase.auth.refreshSession()).error).toBeNull();
  });
});
