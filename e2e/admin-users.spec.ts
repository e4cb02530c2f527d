import { expect, test, type Page } from '@playwright/test';
import { signIn } from './auth-pages';
import { createUser, waitForMail } from './auth-support';
import { axeViolations } from './axe';
import { collectErrors, followPortalLink } from './support';

/**
 * The admin users page (issue 17) at a desktop and a phone size: an admin
 * finds people by search, changes a role, bans someone who is signed in in
 * another browser (their next data request fails and the app sends them to
 * sign in), lifts the ban (they sign in again), sends a password reset, and
 * finds each action in the audit log.
 */

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** Opens a person's page from the users list by searching for `search`. */
async function openPerson(page: Page, search: string, name: string): Promise<void> {
  const form = page.getByRole('search', { name: 'Find people' });
  await form.getByLabel('Search').fill(search);
  await form.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name }).filter({ visible: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/** Confirms the dialog a button opened. */
async function confirm(page: Page, button: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toBeHidden();
}

for (const size of sizes) {
  test.describe(`at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, bypassCSP: true });

    test('an admin finds people, changes a role, bans and unbans, sends a reset, all audited', async ({
      page,
      browser,
    }) => {
      test.setTimeout(90_000);
      const errors = collectErrors(page);
      const tag = `u${Date.now().toString(36)}${size.name[0]}`;
      const admin = await createUser({ fullName: `Ada Users ${tag}`, role: 'admin' });
      const roleName = `Rory ${tag}`;
      const banName = `Bea ${tag}`;
      const rory = await createUser({ fullName: roleName, company: `Rory Co ${tag}` });
      const bea = await createUser({ fullName: banName, company: `Bea Co ${tag}` });

      // Bea is signed in in another browser.
      const other = await browser.newContext({
        viewport: { width: size.width, height: size.height },
      });
      const beaPage = await other.newPage();
      await signIn(beaPage, bea);
      await expect(beaPage).toHaveURL(/\/dashboard/);

      await signIn(page, admin);
      await expect(page).toHaveURL(/\/admin$/);
      // The overview's sign-ups card opens the list on a desktop; the menu on a phone.
      if (size.name === 'desktop') await page.getByRole('link', { name: 'View users' }).click();
      else await followPortalLink(page, 'Users');
      await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
      await expect(
        page.getByRole('link', { name: roleName }).filter({ visible: true }),
      ).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);

      // Invite someone new: the auth service's invitation arrives.
      const invitee = `invitee-${tag}@example.com`;
      await page.getByRole('button', { name: 'Invite someone' }).click();
      await page.getByLabel('Email address').fill(invitee);
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await expect(page.getByText(`Invitation sent to ${invitee}.`)).toBeVisible();
      await waitForMail(invitee, { subject: /invited/i });
      await expect(
        page.getByRole('link', { name: 'No name' }).filter({ visible: true }).first(),
      ).toBeVisible();

      // Find Rory by the start of their company, and make them a partner.
      await openPerson(page, `rory co ${tag}`, roleName);
      await expect(page.getByRole('region', { name: 'Workspaces' })).toContainText(
        `Rory Co ${tag}`,
      );
      expect(await axeViolations(page)).toEqual([]);
      await page.getByLabel('Role', { exact: true }).selectOption('partner');
      await page.getByRole('button', { name: 'Change role' }).click();
      await confirm(page, 'Change role');
      await expect(page.getByText(`${roleName} is now partner.`)).toBeVisible();
      await expect(page.getByLabel('Role', { exact: true })).toHaveValue('partner');
      await page.getByRole('link', { name: 'Back to users' }).click();

      // The role filter finds Rory among partners.
      await page
        .getByRole('search', { name: 'Find people' })
        .getByLabel('Role')
        .selectOption('partner');
      await expect(page).toHaveURL(/role=partner/);
      await expect(
        page.getByRole('link', { name: roleName }).filter({ visible: true }),
      ).toBeVisible();
      await page.getByRole('search', { name: 'Find people' }).getByLabel('Role').selectOption('');

      // Ban Bea for a day, by her email address.
      await openPerson(page, bea.email, banName);
      await page.getByLabel('Ban for').selectOption('24');
      await page.getByRole('button', { name: 'Ban', exact: true }).click();
      await confirm(page, 'Ban');
      await expect(page.getByText(/Banned until .+\. They cannot sign in\./)).toBeVisible();

      // Bea's next data request fails, and the app sends her to sign in.
      await followPortalLink(beaPage, 'Team');
      await expect(beaPage).toHaveURL(/\/auth\?next=/, { timeout: 15_000 });

      // Lift the ban: Bea signs in again.
      await page.getByRole('button', { name: 'Lift the ban' }).click();
      await expect(page.getByText(`${banName} can sign in again.`)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Ban', exact: true })).toBeVisible();
      await signIn(beaPage, bea);
      await expect(beaPage).toHaveURL(/\/dashboard/);
      await other.close();

      // A password reset goes to her address.
      const sentAfter = new Date();
      await page.getByRole('button', { name: 'Send password reset' }).click();
      await expect(page.getByText(`Password reset sent to ${bea.email}.`)).toBeVisible();
      await waitForMail(bea.email, { subject: /reset/i, after: sentAfter });
      await page.screenshot({ path: `test-results/admin-user-${size.name}.png`, fullPage: true });
      await page.getByRole('link', { name: 'Back to users' }).click();
      await page.getByRole('button', { name: 'Invite someone' }).click();
      await page.screenshot({ path: `test-results/admin-users-${size.name}.png` });

      // Each action is in the audit log.
      await followPortalLink(page, 'Audit log');
      const form = page.getByRole('form', { name: 'Filter the audit log' });
      await form.getByLabel('Record id').fill(bea.id);
      await form.getByRole('button', { name: 'Search' }).click();
      const entries = page.getByRole('list', { name: 'Audit log entries' }).getByRole('listitem');
      await expect(entries).toHaveCount(3);
      await expect(entries.nth(0)).toContainText(`${admin.email} · changed users`);
      await entries.nth(0).getByText('1 field').click();
      await expect(entries.nth(0)).toContainText(`password_reset_sent_to(empty) → ${bea.email}`);
      await entries.nth(1).getByText('1 field').click();
      await expect(entries.nth(1)).toContainText(/banned_until.+→ \(empty\)/);
      await entries.nth(2).getByText('1 field').click();
      await expect(entries.nth(2)).toContainText(/banned_until\(empty\) → /);

      await form.getByLabel('Record id').fill(rory.id);
      await form.getByRole('button', { name: 'Search' }).click();
      await expect(entries).toHaveCount(1);
      await entries.nth(0).getByText('1 field').click();
      await expect(entries.nth(0)).toContainText('customer → partner');
      await page.screenshot({
        path: `test-results/admin-users-audit-${size.name}.png`,
        fullPage: true,
      });
      expect(errors).toEqual([]);
    });
  });
}
