import { expect, test, type Browser, type Page } from '@playwright/test';
import { createUser, uniqueEmail, type CreatedUser } from './auth-support';
import { accountMenu, expectDashboard, signIn, signInUrlFor, storedSession } from './auth-pages';
import { phoneAndDesktop } from './support';

/** /dashboard/settings: the profile, and signing out of this device, the others, or all. */

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

      await page
        .getByRole('navigation', { name: 'Account areas' })
        .getByRole('link', { name: 'Dashboard' })
        .click();
      await expectDashboard(page, { fullName: 'Annie J. Easley', company: 'Glenn Research' });
      // Saved on the server, not just in this tab.
      await page.reload();
      await expectDashboard(page, { fullName: 'Annie J. Easley', company: 'Glenn Research' });
    });
  });
}

test.describe('where you are signed in', () => {
  test('"Sign out of other devices" keeps this one signed in and ends the other device’s session', async ({
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
      const sessions = page.getByRole('region', { name: 'Where you are signed in' });
      await sessions.getByRole('button', { name: 'Sign out of other devices' }).click();
      await expect(page.getByText('Your other devices are signed out.')).toBeVisible();

      // This device: still in, also after a reload.
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
      await expect(accountMenu(page, 'Ida Rhodes')).toBeVisible();

      // The other device: its session is over at its next load.
      await other.page.reload();
      await expect(other.page).toHaveURL(signInUrlFor('/dashboard'));
      await expect(
        other.page.getByRole('heading', { level: 1, name: 'Sign in to Cervana' }),
      ).toBeVisible();
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
        .getByRole('region', { name: 'Where you are signed in' })
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
      const sessions = page.getByRole('region', { name: 'Where you are signed in' });
      await sessions.getByRole('button', { name: 'Sign out everywhere' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/\/dashboard\/settings$/);

      await sessions.getByRole('button', { name: 'Sign out everywhere' }).click();
      await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
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
