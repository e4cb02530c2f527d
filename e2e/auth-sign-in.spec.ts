import { expect, test } from '@playwright/test';
import { codeIn, createUser, linkIn, uniqueEmail, waitForMail } from './auth-support';
import {
  accountMenu,
  expectDashboard,
  signIn,
  signInUrlFor,
  signOutWithMenu,
  storedSession,
  submitSignIn,
} from './auth-pages';
import { collectErrors, phoneAndDesktop } from './support';

/** Signing in and out with a password, what a wrong or missing one shows, and a forgotten one. */

const RESET_SUBJECT = /^Reset your Cervana password$/;

for (const viewport of phoneAndDesktop) {
  test.describe(`sign-in at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('signs in to the dashboard and out again through the account menu', async ({ page }) => {
      const errors = collectErrors(page);
      const profile = { fullName: 'Ada Lovelace', company: `Analytical Engines ${viewport.name}` };
      const user = await createUser({ email: uniqueEmail(`sign-in-${viewport.name}`), ...profile });

      await signIn(page, user);
      await expectDashboard(page, profile);
      const menu = accountMenu(page, profile.fullName);
      await expect(menu).toBeVisible();
      if (viewport.width < 640) await expect(menu).toHaveAccessibleName(/Account menu for Ada/);
      expect((await storedSession(page))?.claims.email).toBe(user.email);

      await signOutWithMenu(page, profile.fullName);
      await expect(page).toHaveURL(/\/auth\?notice=signed-out$/);
      await expect(
        page.getByRole('status').filter({ hasText: 'You are signed out.' }),
      ).toBeVisible();
      await expect(
        page.getByRole('heading', { level: 1, name: 'Sign in to Cervana' }),
      ).toBeVisible();
      expect(await storedSession(page)).toBeNull();

      // Signed out for real: the dashboard asks to sign in again.
      await page.goto('/dashboard');
      await expect(page).toHaveURL(signInUrlFor('/dashboard'));
      await expect(
        page.getByRole('heading', { level: 1, name: 'Sign in to Cervana' }),
      ).toBeVisible();
      expect(errors).toEqual([]);
    });
  });
}

test.describe('sign-in form', () => {
  test('a wrong password says the two do not match, and keeps the visitor signed out', async ({
    page,
  }) => {
    const user = await createUser({ email: uniqueEmail('wrong-password') });
    await signIn(page, { email: user.email, password: `${user.password}-wrong` });
    const password = page.getByLabel('Password', { exact: true });
    await expect(
      page.getByText('That email or phone number and password do not match an account.'),
    ).toBeVisible();
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await expect(password).toBeFocused();
    await expect(page).toHaveURL(/\/auth$/);
    expect(await storedSession(page)).toBeNull();

    // The right one then works from the same form.
    await password.fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectDashboard(page);
  });

  test('without an email or phone number the spec’s sentence says what is missing', async ({
    page,
  }) => {
    await signIn(page, { email: '', password: 'anything-at-all' });
    const contact = page.getByLabel('Email or phone number');
    await expect(
      page.getByText('You must provide either an email or phone number and a password'),
    ).toBeVisible();
    await expect(contact).toHaveAttribute('aria-invalid', 'true');
    await expect(contact).toBeFocused();
  });

  test('an account not confirmed yet is asked for its confirmation code', async ({ page }) => {
    const user = await createUser({ email: uniqueEmail('unconfirmed'), confirmed: false });
    await signIn(page, user);
    await expect(page.getByRole('heading', { level: 1, name: 'Confirm your email' })).toBeVisible();
    await expect(page.getByText(`${user.email} is not confirmed yet.`)).toBeVisible();
    expect(await storedSession(page)).toBeNull();
  });
});

test('a forgotten password is reset through the emailed link; the new one works, the old does not', async ({
  page,
}) => {
  const profile = { fullName: 'Katherine Johnson', company: 'Trajectory Works' };
  const user = await createUser({ email: uniqueEmail('forgot'), ...profile });
  const newPassword = 'Lighthouse-Orbit-Meadow-47!';

  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible();
  const before = new Date();
  await page.getByLabel('Email address').fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible();
  await expect(page.getByLabel('Reset code')).toBeVisible();

  const mail = await waitForMail(user.email, { subject: RESET_SUBJECT, after: before });
  await page.goto(linkIn(mail));
  await expect(
    page.getByRole('heading', { level: 1, name: 'Choose a new password' }),
  ).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('New password, again').fill(newPassword);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Your password is changed.')).toBeVisible();
  await expectDashboard(page, profile);

  await signOutWithMenu(page, profile.fullName);
  await expect(page).toHaveURL(/\/auth\?notice=signed-out$/);
  await submitSignIn(page, user);
  await expect(
    page.getByText('That email or phone number and password do not match an account.'),
  ).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expectDashboard(page, profile);
});

test('a forgotten password is reset with the emailed code', async ({ page }) => {
  const user = await createUser({ email: uniqueEmail('forgot-code') });
  const newPassword = 'Copper-Kettle-Season-93!';
  await page.goto('/auth?mode=forgot');
  const before = new Date();
  await page.getByLabel('Email address').fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const mail = await waitForMail(user.email, { subject: RESET_SUBJECT, after: before });
  await page.getByLabel('Reset code').fill(codeIn(mail));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Choose a new password' }),
  ).toBeVisible();

  // The new password gets the same checks as at sign-up: the server's list of common ones.
  await page.getByLabel('New password', { exact: true }).fill('password123');
  await page.getByLabel('New password, again').fill('password123');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(
    page.getByText('Choose a stronger password: it is one of the most commonly used passwords.'),
  ).toBeVisible();

  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('New password, again').fill(newPassword);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expectDashboard(page);
});
