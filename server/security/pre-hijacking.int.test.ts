import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, codeIn, latestMessage, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Security issue 24, finding 4: account pre-hijacking. Someone signs up first
 * with the owner's address and a password of their own; the owner later signs
 * up, or asks for a sign-in link, and confirms through their own mailbox. The
 * password that counts is the one chosen with the confirmation the owner used,
 * never the stranger's.
 */

const STRANGER_PASSWORD = 'the stranger chose this one 1';
const OWNER_PASSWORD = 'the owner chose this one 2';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: {
      MAILER_MAX_FREQUENCY: '0',
      RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000',
      RATE_LIMIT_EMAIL_SENT: '1000',
    },
  });
});
afterAll(() => server?.close());

async function signInWorks(email: string, password: string): Promise<boolean> {
  const { error } = await clientFor(server).auth.signInWithPassword({ email, password });
  if (error) expect(error).toMatchObject({ code: 'invalid_credentials' });
  return !error;
}

async function strangerSignsUp(email: string) {
  const { data, error } = await clientFor(server).auth.signUp({
    email,
    password: STRANGER_PASSWORD,
  });
  expect(error).toBeNull();
  expect(data.session).toBeNull();
  return {
    userId: data.user!.id,
    mail: await latestMessage(server.db, email, 'auth.confirm_signup'),
  };
}

describe('a sign-up nobody confirmed', () => {
  it("is confirmed with the owner's password when the owner signs up again and confirms", async () => {
    const email = uniqueEmail('prehijack');
    const stranger = await strangerSignsUp(email);

    const owner = clientFor(server);
    const again = await owner.auth.signUp({ email, password: OWNER_PASSWORD });
    // The wire answer is GoTrue's for an unconfirmed address: the account, no session.
    expect(again.error).toBeNull();
    expect(again.data.session).toBeNull();
    expect(again.data.user).toMatchObject({ id: stranger.userId, email });
    expect(again.data.user?.email_confirmed_at).toBeUndefined();

    const mail = await latestMessage(server.db, email, 'auth.confirm_signup');
    expect(mail.id).not.toBe(stranger.mail.id);
    // The stranger's own link died with the new sign-up.
    const old = await clientFor(server).auth.verifyOtp({
      email,
      token: codeIn(stranger.mail),
      type: 'signup',
    });
    expect(old.error).toMatchObject({ code: 'otp_expired' });

    const confirmed = await owner.auth.verifyOtp({ email, token: codeIn(mail), type: 'signup' });
    expect(confirmed.error).toBeNull();
    expect(await signInWorks(email, OWNER_PASSWORD)).toBe(true);
    expect(await signInWorks(email, STRANGER_PASSWORD)).toBe(false);
  });

  it('keeps the password of the sign-up whose link is clicked, also after a resend', async () => {
    const email = uniqueEmail('prehijack-resend');
    await strangerSignsUp(email);
    const owner = clientFor(server);
    expect((await owner.auth.signUp({ email, password: OWNER_PASSWORD })).error).toBeNull();
    expect((await owner.auth.resend({ email, type: 'signup' })).error).toBeNull();
    const mail = await latestMessage(server.db, email, 'auth.confirm_signup');
    const clicked = await fetch(mail.metadata.link!, { redirect: 'manual' });
    expect(clicked.headers.get('location')).toContain('access_token=');
    expect(await signInWorks(email, OWNER_PASSWORD)).toBe(true);
    expect(await signInWorks(email, STRANGER_PASSWORD)).toBe(false);
  });

  it('keeps no password when the owner confirms with a code they asked for without one (magic link)', async () => {
    const email = uniqueEmail('prehijack-otp');
    await strangerSignsUp(email);

    const owner = clientFor(server);
    expect((await owner.auth.signInWithOtp({ email })).error).toBeNull();
    const mail = await latestMessage(server.db, email, 'auth.confirm_signup');
    const signedIn = await owner.auth.verifyOtp({ email, token: codeIn(mail), type: 'email' });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.user?.email_confirmed_at).toEqual(expect.any(String));

    expect(await signInWorks(email, STRANGER_PASSWORD)).toBe(false);
    // The owner, signed in by the link, sets a password of their own.
    expect((await owner.auth.updateUser({ password: OWNER_PASSWORD })).error).toBeNull();
    expect(await signInWorks(email, OWNER_PASSWORD)).toBe(true);
  });

  it('keeps the password of an ordinary sign-up confirmed by its own link', async () => {
    const email = uniqueEmail('prehijack-plain');
    const owner = clientFor(server);
    expect((await owner.auth.signUp({ email, password: OWNER_PASSWORD })).error).toBeNull();
    const mail = await latestMessage(server.db, email, 'auth.confirm_signup');
    expect(
      (await owner.auth.verifyOtp({ email, token: codeIn(mail), type: 'signup' })).error,
    ).toBeNull();
    expect(await signInWorks(email, OWNER_PASSWORD)).toBe(true);
  });

  it('answers a repeated sign-up of a confirmed address as before (an obfuscated user)', async () => {
    const email = uniqueEmail('prehijack-confirmed');
    const owner = clientFor(server);
    await owner.auth.signUp({ email, password: OWNER_PASSWORD });
    const mail = await latestMessage(server.db, email, 'auth.confirm_signup');
    await owner.auth.verifyOtp({ email, token: codeIn(mail), type: 'signup' });

    const again = await clientFor(server).auth.signUp({ email, password: STRANGER_PASSWORD });
    expect(again.error).toBeNull();
    expect(again.data.user).toMatchObject({ role: '', identities: [] });
    expect(await signInWorks(email, OWNER_PASSWORD)).toBe(true);
    expect(await signInWorks(email, STRANGER_PASSWORD)).toBe(false);
  });
});
