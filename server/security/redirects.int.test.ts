import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, codeIn, latestMessage, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Security issue 22, finding 4: with a wildcard allow list, a `redirect_to`
 * whose allowed-looking suffix sat in the query, fragment or userinfo was
 * accepted, and the emailed link sent the session to another host. Every flow
 * that mails a link is driven here through the official client, and the link
 * is followed over HTTP: it must land on the site URL.
 */

let server: TestServer;
const PASSWORD = 'a long and unusual passphrase 7';
const ALLOWED = 'https://app.cervana-app.com/welcome';
const HOSTILE = [
  'https://evil.example?.cervana-app.com/x',
  'https://evil.example#.cervana-app.com/',
  'https://a.cervana-app.com@evil.example/',
  'https://evil.example\\.cervana-app.com/',
  'https://evil.example\t.cervana-app.com/',
  'https://evil.com/.cervana-app.com/',
  'https://EVIL.example%2e.cervana-app.com/',
];

beforeAll(async () => {
  server = await startTestServer({
    env: {
      URI_ALLOW_LIST: 'https://*.cervana-app.com/**',
      MAILER_MAX_FREQUENCY: '0',
      RATE_LIMIT_EMAIL_SENT: '1000',
      RATE_LIMIT_VERIFY: '1000',
      RATE_LIMIT_OTP: '1000',
      RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000',
    },
  });
});
afterAll(() => server?.close());

function admin(): SupabaseClient['auth']['admin'] {
  return clientFor(server, { key: server.serviceRoleKey }).auth.admin;
}

async function confirmedUser(email = uniqueEmail('redirect')) {
  const supabase = clientFor(server);
  await supabase.auth.signUp({ email, password: PASSWORD });
  const verified = await supabase.auth.verifyOtp({
    email,
    token: codeIn(await latestMessage(server.db, email)),
    type: 'email',
  });
  expect(verified.error).toBeNull();
  return { supabase, email };
}

/** Where following an emailed (or generated) link takes the browser. */
async function landing(link: string): Promise<string> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  return response.headers.get('location') ?? '';
}

function expectSite(location: string, context: string) {
  expect(location, context).toMatch(new RegExp(`^${server.config.siteUrl}/?#`));
  expect(location, context).not.toContain('evil');
}

describe('emailed links never redirect off the site or its allow list', () => {
  it('a magic link for a hostile redirect_to lands on the site (with the session), an allowed one there', async () => {
    const { email } = await confirmedUser();
    for (const hostile of HOSTILE) {
      const sent = await clientFor(server).auth.signInWithOtp({
        email,
        options: { emailRedirectTo: hostile },
      });
      expect(sent.error, hostile).toBeNull();
      const mail = await latestMessage(server.db, email, 'auth.magic_link');
      expect(new URL(mail.metadata.link!).searchParams.get('redirect_to'), hostile).toBe(
        server.config.siteUrl,
      );
      const location = await landing(mail.metadata.link!);
      expectSite(location, hostile);
      expect(new URLSearchParams(location.split('#')[1]).get('access_token')).toBeTruthy();
    }
    // An allowed subdomain still works.
    await clientFor(server).auth.signInWithOtp({ email, options: { emailRedirectTo: ALLOWED } });
    const mail = await latestMessage(server.db, email, 'auth.magic_link');
    expect((await landing(mail.metadata.link!)).startsWith(`${ALLOWED}#access_token=`)).toBe(true);
  });

  it('an allowed redirect_to with its own fragment gets the session as the only fragment', async () => {
    const { email } = await confirmedUser();
    await clientFor(server).auth.signInWithOtp({
      email,
      options: { emailRedirectTo: `${ALLOWED}#section` },
    });
    const location = await landing(
      (await latestMessage(server.db, email, 'auth.magic_link')).metadata.link!,
    );
    expect(location.startsWith(`${ALLOWED}#access_token=`), location).toBe(true);
    expect(location.split('#')).toHaveLength(2);
  });

  it('a link whose redirect_to was edited afterwards is checked again at /verify', async () => {
    const { email } = await confirmedUser();
    await clientFor(server).auth.signInWithOtp({ email, options: { emailRedirectTo: ALLOWED } });
    const link = new URL((await latestMessage(server.db, email, 'auth.magic_link')).metadata.link!);
    link.searchParams.set('redirect_to', HOSTILE[0]!);
    expectSite(await landing(link.toString()), 'edited link');
  });

  it('sign-up confirmation, resend, recovery and email change fall back to the site', async () => {
    const hostile = HOSTILE[0]!;
    const email = uniqueEmail('redirect-signup');
    const supabase = clientFor(server);
    await supabase.auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: hostile },
    });
    await supabase.auth.resend({ type: 'signup', email, options: { emailRedirectTo: hostile } });
    const confirmation = await latestMessage(server.db, email, 'auth.confirm_signup');
    expectSite(await landing(confirmation.metadata.link!), 'signup');

    const { email: member } = await confirmedUser();
    await supabase.auth.resetPasswordForEmail(member, { redirectTo: HOSTILE[2]! });
    const recovery = await latestMessage(server.db, member, 'auth.recovery');
    expectSite(await landing(recovery.metadata.link!), 'recovery');

    const signedIn = clientFor(server);
    expect(
      (await signedIn.auth.signInWithPassword({ email: member, password: PASSWORD })).error,
    ).toBeNull();
    const newEmail = uniqueEmail('redirect-new');
    const changed = await signedIn.auth.updateUser(
      { email: newEmail },
      { emailRedirectTo: HOSTILE[1]! },
    );
    expect(changed.error).toBeNull();
    const change = await latestMessage(server.db, newEmail);
    expect(new URL(change.metadata.link!).searchParams.get('redirect_to')).toBe(
      server.config.siteUrl,
    );
  });

  it('admin invitations and generated links fall back to the site', async () => {
    const invited = uniqueEmail('redirect-invite');
    const invite = await admin().inviteUserByEmail(invited, { redirectTo: HOSTILE[0]! });
    expect(invite.error).toBeNull();
    const mail = await latestMessage(server.db, invited, 'auth.invite');
    expectSite(await landing(mail.metadata.link!), 'invite');

    const { email } = await confirmedUser();
    for (const hostile of HOSTILE) {
      const { data, error } = await admin().generateLink({
        type: 'magiclink',
        email,
        options: { redirectTo: hostile },
      });
      expect(error, hostile).toBeNull();
      expect(data.properties?.redirect_to, hostile).toBe(server.config.siteUrl);
    }
    const { data } = await admin().generateLink({
      type: 'magiclink',
      email,
      options: { redirectTo: ALLOWED },
    });
    expect(data.properties?.redirect_to).toBe(ALLOWED);
  });
});
