import { expect, test, type Browser, type Page } from '@playwright/test';
import { createUser, uniqueEmail, type CreatedUser } from './auth-support';
import { accountMenu, expectDashboard, signIn, signInUrlFor, storedSession } from './auth-pages';
import { followPortalLink, phoneAndDesktop } from './support';

/** /dashboard/settings: the profile, the password, and signing out of this device, the others, or all. */

async function openSettings(page: Page, user: CreatedUser): Promise<void> {
  await signIn(page, user);
  await expectDashboard(page);
  await page.goto('/dashboard/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
}

/** A second browser (another device) signed in as the same user, on the dashboard. */
async function otherDevice(browser: Browser, user: CreatedUser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, user);
  await expectDashboard(page);
  return { context, page };
}

for (const viewport of phoneAndDesktop) {
  test.describe(`account settings at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('a changed name and company are saved and shown on the dashboard', async ({ page }) => {
      const user = await createUser({
        email: uniqueEmail(`profile-${viewport.name}`),
        fullName: 'Annie Easley',
        company: 'Centaur Rockets',
      });
      await openSettings(page, user);
      const profile = page.getByRole('region', { name: 'Profile' });
      await expect(profile.getByLabel('Full name')).toHaveValue('Annie Easley');
      await expect(profile.getByLabel('Company')).toHaveValue('Centaur Rockets');

      // An empty name is refused by the form.
      await profile.getByLabel('Full name').fill('  ');
      await profile.getByRole('button', { name: 'Save profile' }).click();
      await expect(profile.getByText('Enter your full name.')).toBeVisible();

      await profile.getByLabel('Full name').fill('Annie J. Easley');
      await profile.getByLabel('Company').fill('Glenn Research');
      await profile.getByRole('button', { name: 'Save profile' }).click();
      await expect(page.getByText('Profile saved.')).toBeVisible();
      await expect(accountMenu(page, 'Annie J. Easley')).toBeVisible();

      await followPortalLink(page, 'Overview');
      await expectDashboard(page, { fullName: 'Annie J. Easley', company: 'Glenn Research' });
      // Saved on the server, not just in this tab.
      await page.reload();
      await expectDashboard(page, { fullName: 'Annie J. Easley', company: 'Glenn Research' });
    });
  });
}

test.describe('sessions', () => {
  test('"Sign out everywhere else" keeps this browser signed in and ends the other device’s session', async ({
    page,
    browser,
  }) => {
    const user = await createUser({
      email: uniqueEmail('sign-out-others'),
      fullName: 'Ida Rhodes',
    });
    const other = await otherDevice(browser, user);
    try {
      await openSettings(page, user);
      const sessions = page.getByRole('region', { name: 'Sessions' });
      // Held until the button has been seen waiting, so its pending state is observable.
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/auth/v1/logout?scope=others', async (route) => {
        await released;
        await route.continue();
      });
      await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
      await expect(sessions.getByRole('button', { name: 'Signing out...' })).toBeDisabled();
      await expect(
        sessions.getByRole('button', { name: 'Sign out of this device' }),
      ).toBeDisabled();
      release();
      await expect(sessions.getByRole('status')).toHaveText(
        'Signed out of every other device and browser.',
      );
      await expect(
        sessions.getByRole('button', { name: 'Sign out everywhere else' }),
      ).toBeEnabled();

      // This device: still in, also after a reload.
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
      await expect(accountMenu(page, 'Ida Rhodes')).toBeVisible();

      // The other device: its session is over at its next load, refresh token included.
      await other.page.goto('/dashboard');
      await expect(other.page).toHaveURL(signInUrlFor('/dashboard'));
      await expect(
        other.page.getByRole('heading', { level: 1, name: 'Sign in to Cervana' }),
      ).toBeVisible();
      expect(await storedSession(other.page)).toBeNull();
    } finally {
      await other.context.close();
    }
  });

  test('"Sign out everywhere else" says so when it fails, and the other device stays signed in', async ({
    page,
    browser,
  }) => {
    const user = await createUser({
      email: uniqueEmail('sign-out-others-fails'),
      fullName: 'Edith Clarke',
    });
    const other = await otherDevice(browser, user);
    try {
      await openSettings(page, user);
      const sessions = page.getByRole('region', { name: 'Sessions' });
      await page.route('**/auth/v1/logout?scope=others', (route) => route.abort('failed'));
      await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
      await expect(sessions.getByRole('alert')).toBeVisible();
      await expect(sessions.getByRole('alert')).not.toBeEmpty();
      await expect(sessions.getByText('Signed out of every other device and browser.')).toHaveCount(
        0,
      );
      await expect(
        sessions.getByRole('button', { name: 'Sign out everywhere else' }),
      ).toBeEnabled();

      await other.page.reload();
      await expectDashboard(other.page);
    } finally {
      await other.context.close();
    }
  });

  test('a password change says the other sessions are over, and they are', async ({
    page,
    browser,
  }) => {
    const user = await createUser({
      email: uniqueEmail('password-ends-others'),
      fullName: 'Katherine Johnson',
    });
    const other = await otherDevice(browser, user);
    try {
      await openSettings(page, user);
      const password = page.getByRole('region', { name: 'Password' });
      const newPassword = 'Cervana-e2e-Meridian-Orchard-47!';
      await password.getByLabel('New password', { exact: true }).fill(newPassword);
      await password.getByLabel('New password, again').fill(newPassword);
      await password.getByRole('button', { name: 'Change password' }).click();
      await expect(password.getByRole('status')).toHaveText(
        'Your password is changed. Every other session has been signed out.',
      );

      // This device: still in.
      await page.reload();
      await expect(accountMenu(page, 'Katherine Johnson')).toBeVisible();

      // The other device: signed out at its next load.
      await other.page.goto('/dashboard');
      await expect(other.page).toHaveURL(signInUrlFor('/dashboard'));
      expect(await storedSession(other.page)).toBeNull();
    } finally {
      await other.context.close();
    }
  });

  test('"Sign out of this device" signs out only this one', async ({ page, browser }) => {
    const user = await createUser({
      email: uniqueEmail('sign-out-local'),
      fullName: 'Evelyn Boyd',
    });
    const other = await otherDevice(browser, user);
    try {
      await openSettings(page, user);
      await page
        .getByRole('region', { name: 'Sessions' })
        .getByRole('button', { name: 'Sign out of this device' })
        .click();
      await expect(page).toHaveURL(/\/auth\?notice=signed-out$/);
      await expect(page.getByText('You are signed out.')).toBeVisible();
      expect(await storedSession(page)).toBeNull();

      await other.page.reload();
      await expectDashboard(other.page);
      await expect(accountMenu(other.page, 'Evelyn Boyd')).toBeVisible();
    } finally {
      await other.context.close();
    }
  });

  test('"Sign out everywhere else" on a device whose own session already ended says nothing false: it signs in again', async ({
    page,
    browser,
  }) => {
    const user = await createUser({
      email: uniqueEmail('sign-out-stale'),
      fullName: 'Kay McNulty',
    });
    const other = await otherDevice(browser, user);
    try {
      await openSettings(page, user);
      // The other device ends every session, this one's included; this page still holds its token.
      await other.page.goto('/dashboard/settings');
      const otherSessions = other.page.getByRole('region', { name: 'Sessions' });
      await otherSessions.getByRole('button', { name: 'Sign out everywhere', exact: true }).click();
      await other.page
        .getByRole('dialog', { name: 'Sign out everywhere?' })
        .getByRole('button', { name: 'Sign out everywhere', exact: true })
        .click();
      await expect(other.page).toHaveURL(/\/auth\?notice=signed-out$/);

      const sessions = page.getByRole('region', { name: 'Sessions' });
      await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
      await expect(page).toHaveURL(signInUrlFor('/dashboard/settings'));
      await expect(page.getByText('Signed out of every other device and browser.')).toHaveCount(0);
      expect(await storedSession(page)).toBeNull();
    } finally {
      await other.context.close();
    }
  });

  test('"Sign out everywhere" asks first, then signs out this device and the others', async ({
    page,
    browser,
  }) => {
    const user = await createUser({
      email: uniqueEmail('sign-out-global'),
      fullName: 'Dana Ulery',
    });
    const other = await otherDevice(browser, user);
    try {
      await openSettings(page, user);
      const sessions = page.getByRole('region', { name: 'Sessions' });
      await sessions.getByRole('button', { name: 'Sign out everywhere', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/\/dashboard\/settings$/);

      await sessions.getByRole('button', { name: 'Sign out everywhere', exact: true }).click();
      await dialog.getByRole('button', { name: 'Sign out everywhere', exact: true }).click();
      await expect(page).toHaveURL(/\/auth\?notice=signed-out$/);
      expect(await storedSession(page)).toBeNull();

      await other.page.reload();
      await expect(other.page).toHaveURL(signInUrlFor('/dashboard'));
      expect(await storedSession(other.page)).toBeNull();
    } finally {
      await other.context.close();
    }
  });
});
