import { expect, test } from '@playwright/test';
import { decodeJwt } from 'jose';
import {
  STRONG_PASSWORD,
  anonClient,
  appUrl,
  codeIn,
  createUser,
  linkIn,
  mailServerUrl,
  totpCode,
  uniqueEmail,
  waitForMail,
} from './auth-support';

/**
 * The harness the auth specs rely on, proved through the real servers without
 * the UI: auth emails are delivered over SMTP into the sink, their links and
 * codes work, and the short-lifetime server issues 100-second tokens.
 */

const CONFIRM_SUBJECT = /^Confirm your Cervana account$/;

test('a sign-up is confirmed through the link in the email the sink received', async () => {
  const email = uniqueEmail('mail-link');
  const before = new Date();
  const supabase = await anonClient();
  const { data, error } = await supabase.auth.signUp({ email, password: STRONG_PASSWORD });
  expect(error).toBeNull();
  // Confirmations are on: no session until the address is confirmed.
  expect(data.session).toBeNull();
  expect(data.user?.email).toBe(email);

  const mail = await waitForMail(email, { subject: CONFIRM_SUBJECT, after: before });
  expect(mail.to).toBe(email);
  expect(mail.from).toContain('no-reply@cervana.ai');
  expect(mail.html).toContain('Confirm my email');
  expect(codeIn(mail)).toMatch(/^\d{6}$/);
  const link = linkIn(mail);
  expect(link.startsWith(`${appUrl()}/auth/v1/verify?`)).toBe(true);

  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('location') ?? '');
  expect(location.origin).toBe(appUrl());
  const fragment = new URLSearchParams(location.hash.slice(1));
  expect(fragment.get('type')).toBe('signup');
  const accessToken = fragment.get('access_token');
  expect(accessToken).toBeTruthy();

  const { data: signedIn, error: userError } = await supabase.auth.getUser(accessToken!);
  expect(userError).toBeNull();
  expect(signedIn.user?.email).toBe(email);
  expect(signedIn.user?.email_confirmed_at).toBeTruthy();
});

test('a sign-up is confirmed with the code in the email', async () => {
  const email = uniqueEmail('mail-code');
  const supabase = await anonClient();
  const { error } = await supabase.auth.signUp({ email, password: STRONG_PASSWORD });
  expect(error).toBeNull();
  const mail = await waitForMail(email, { subject: CONFIRM_SUBJECT });
  const { data, error: verifyError } = await supabase.auth.verifyOtp({
    email,
    token: codeIn(mail),
    type: 'signup',
  });
  expect(verifyError).toBeNull();
  expect(data.session?.user.email).toBe(email);
});

test('the mail API lists only the messages to the address asked for', async () => {
  const response = await fetch(
    `${mailServerUrl()}/messages?to=${encodeURIComponent(uniqueEmail('nobody'))}`,
  );
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual([]);
});

test('waitForMail names what did arrive when the expected email does not', async () => {
  await expect(
    waitForMail(uniqueEmail('nobody'), { subject: /never/, timeout: 300 }),
  ).rejects.toThrow(/No email to .* within 300 ms.*received: none/);
});

test('createUser makes confirmed users by default, and unconfirmed ones on request', async () => {
  const supabase = await anonClient();
  const confirmed = await createUser({ fullName: 'Ada Admin', company: 'Acme', role: 'admin' });
  const { data, error } = await supabase.auth.signInWithPassword(confirmed);
  expect(error).toBeNull();
  expect(data.user?.id).toBe(confirmed.id);
  expect(data.user?.user_metadata).toMatchObject({ full_name: 'Ada Admin', company: 'Acme' });
  expect(data.user?.app_metadata.role).toBe('admin');

  const unconfirmed = await createUser({ confirmed: false });
  const { error: refused } = await supabase.auth.signInWithPassword(unconfirmed);
  expect(refused?.code).toBe('email_not_confirmed');
});

test('the short-lifetime server issues access tokens that live 100 seconds', async () => {
  const user = await createUser({ server: 'short', role: 'partner' });
  const supabase = await anonClient('short');
  const { data, error } = await supabase.auth.signInWithPassword(user);
  expect(error).toBeNull();
  expect(data.session?.expires_in).toBe(100);
  const claims = decodeJwt(data.session!.access_token);
  expect(claims.exp! - claims.iat!).toBe(100);
  expect(claims.iss).toBe(`${appUrl('short')}/auth/v1`);
  expect((claims.app_metadata as { role?: string }).role).toBe('partner');

  // The servers keep separate users: the main one does not know this account.
  const { error: unknown } = await (await anonClient('main')).auth.signInWithPassword(user);
  expect(unknown?.code).toBe('invalid_credentials');
});

test('totpCode answers a TOTP challenge the server accepts', async () => {
  const user = await createUser();
  const supabase = await anonClient();
  const { error } = await supabase.auth.signInWithPassword(user);
  expect(error).toBeNull();
  const { data: factor, error: enrollError } = await supabase.auth.mfa.enroll({
    factorType: 'totp',
  });
  expect(enrollError).toBeNull();
  const { error: verifyError } = await supabase.auth.mfa.challengeAndVerify({
    factorId: factor!.id,
    code: totpCode(factor!.totp.secret),
  });
  expect(verifyError).toBeNull();
  const { data: level } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
  expect(level?.currentLevel).toBe('aal2');
});
