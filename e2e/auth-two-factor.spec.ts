import { expect, test } from '@playwright/test';
import { anonClient, createUser, totpCode, uniqueEmail } from './auth-support';
import {
  accountMenu,
  enterAuthenticationCode,
  expectDashboard,
  signIn,
  signInUrlFor,
  signOutWithMenu,
  storedSession,
  submitSignIn,
} from './auth-pages';

/** Two-factor authentication with an authenticator app: turning it on, and the second step it adds. */

test('an authenticator app turned on in settings is asked for at the next sign-in, which ends at aal2', async ({
  page,
}) => {
  const profile = { fullName: 'Hedy Lamarr', company: 'Frequency Hopping Ltd' };
  const user = await createUser({ email: uniqueEmail('totp-enrol'), ...profile });
  await signIn(page, user);
  await expectDashboard(page, profile);
  expect((await storedSession(page))?.claims.aal).toBe('aal1');

  await page.goto('/dashboard/settings');
  const section = page.getByRole('region', { name: 'Two-factor authentication' });
  await expect(section.getByText('Two-factor authentication is off.')).toBeVisible();
  await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = (await section.getByLabel('Setup key').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expect(section.getByRole('img', { name: /QR code/ })).toBeVisible();

  // A wrong code is refused in words, and the app stays off.
  const wrong = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0');
  await section.getByLabel('Code from the app').fill(wrong);
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(section.getByText(/That code is not right/)).toBeVisible();

  await section.getByLabel('Code from the app').fill(totpCode(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Two-factor authentication is on.')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Remove' })).toBeVisible();
  await expect(section.getByText(/^On since /)).toBeVisible();
  // Verifying the first code raised this session to aal2.
  await expect.poll(async () => (await storedSession(page))?.claims.aal).toBe('aal2');

  await signOutWithMenu(page, profile.fullName);
  await expect(page).toHaveURL(/\/auth\?notice=signed-out$/);
  await submitSignIn(page, user);
  // The password alone is not enough: the second step, and nothing of the dashboard yet.
  await expect(
    page.getByRole('heading', { level: 1, name: 'Enter your authentication code' }),
  ).toBeVisible();
  expect((await storedSession(page))?.claims.aal).toBe('aal1');
  await page.goto('/dashboard');
  await enterAuthenticationCode(page, secret);
  await expectDashboard(page, profile);
  await expect(accountMenu(page, profile.fullName)).toBeVisible();

  const session = await storedSession(page);
  expect(session?.claims.aal).toBe('aal2');
  expect(session?.claims.amr).toEqual(
    expect.arrayContaining([expect.objectContaining({ method: 'totp' })]),
  );
});

test('a signed-out visit to /dashboard of an account with an app asks for the code after the password', async ({
  page,
}) => {
  const user = await createUser({ email: uniqueEmail('totp-visit') });
  // The app was set up earlier, on another device.
  const supabase = await anonClient();
  const { error } = await supabase.auth.signInWithPassword(user);
  expect(error).toBeNull();
  const { data: factor } = await supabase.auth.mfa.enroll({ factorType: 'totp' });
  const secret = factor!.totp.secret;
  const { error: verifyError } = await supabase.auth.mfa.challengeAndVerify({
    factorId: factor!.id,
    code: totpCode(secret),
  });
  expect(verifyError).toBeNull();

  await page.goto('/dashboard');
  await expect(page).toHaveURL(signInUrlFor('/dashboard'));
  await submitSignIn(page, user);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Enter your authentication code' }),
  ).toBeVisible();
  await expect(page).toHaveURL(signInUrlFor('/dashboard'));

  // A wrong code is refused in words.
  const wrong = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0');
  await page.getByLabel('Authentication code').fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(/That code is not right/)).toBeVisible();

  await enterAuthenticationCode(page, secret);
  await expectDashboard(page);
  expect((await storedSession(page))?.claims.aal).toBe('aal2');
});

test('turning the app off in settings brings back password-only sign-in', async ({ page }) => {
  const profile = { fullName: 'Joan Clarke', company: 'Hut Eight' };
  const user = await createUser({ email: uniqueEmail('totp-remove'), ...profile });
  const supabase = await anonClient();
  await supabase.auth.signInWithPassword(user);
  const { data: factor } = await supabase.auth.mfa.enroll({ factorType: 'totp' });
  await supabase.auth.mfa.challengeAndVerify({
    factorId: factor!.id,
    code: totpCode(factor!.totp.secret),
  });

  await signIn(page, user);
  await enterAuthenticationCode(page, factor!.totp.secret);
  await expectDashboard(page, profile);
  await page.goto('/dashboard/settings');
  const section = page.getByRole('region', { name: 'Two-factor authentication' });
  await section.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('dialog', { name: 'Turn off two-factor authentication?' });
  await dialog.getByRole('button', { name: 'Turn it off' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Two-factor authentication is off.').first()).toBeVisible();
  await expect(section.getByRole('button', { name: 'Set up an authenticator app' })).toBeVisible();

  await signOutWithMenu(page, profile.fullName);
  await submitSignIn(page, user);
  await expectDashboard(page, profile);
});
