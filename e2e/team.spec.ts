import { expect, test, type Page } from '@playwright/test';
import { signIn } from './auth-pages';
import { STRONG_PASSWORD, createUser, linkIn, uniqueEmail, waitForMail } from './auth-support';
import { collectErrors } from './support';

/**
 * The team (issue 16), end to end at a desktop and a phone size: the owner
 * invites a teammate by email; the teammate opens the link in the email, sets
 * a password, joins and sees the owner's calls; the owner removes them and
 * the teammate's calls are gone after a reload. A refused invitation is shown
 * as a sentence under the field.
 */

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

async function openTeamPage(page: Page): Promise<void> {
  await page.goto('/dashboard/team');
  await expect(page.getByRole('heading', { name: 'Team and workspace', level: 1 })).toBeVisible();
}

for (const size of sizes) {
  test.describe(`at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('an invited teammate joins, sees the calls, and loses them when removed', async ({
      browser,
      page,
    }) => {
      test.setTimeout(90_000);
      const errors = collectErrors(page);
      const company = `Harbor ${size.name} ${Date.now().toString(36)}`;
      const owner = await createUser({ fullName: 'Olive Owner', company });
      const teammateEmail = uniqueEmail('teammate');

      // The owner invites.
      await signIn(page, owner);
      await expect(page).toHaveURL(/\/dashboard$/);
      await openTeamPage(page);
      const invite = page.getByRole('form', { name: 'Invite a teammate' });
      await invite.getByLabel('Email address').fill(teammateEmail);
      await invite.getByLabel('Role').selectOption('member');
      await invite.getByRole('button', { name: 'Send invitation' }).click();
      await expect(page.getByText(`Invitation sent to ${teammateEmail}.`)).toBeVisible();
      const pending = page.getByRole('list', { name: 'Pending invitations' });
      await expect(
        pending.getByRole('listitem', { name: `Invitation to ${teammateEmail}` }),
      ).toBeVisible();
      await page.screenshot({ path: `test-results/team-owner-${size.name}.png`, fullPage: true });

      // The teammate opens the email in a browser of their own.
      const mail = await waitForMail(teammateEmail, { subject: /invited/i });
      const teammateContext = await browser.newContext({
        viewport: { width: size.width, height: size.height },
      });
      // The team page's code arrives late, as on a slow link: the Supabase client, which starts
      // while the page's code loads, takes the session out of the URL before the app renders,
      // and the invitation must still ask for a password.
      await teammateContext.route(/\/assets\/dashboard-team-[^/]*\.js$/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      const teammate = await teammateContext.newPage();
      const teammateErrors = collectErrors(teammate);
      await teammate.goto(linkIn(mail));
      await expect(teammate.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
      await teammate.getByLabel('New password', { exact: true }).fill(STRONG_PASSWORD);
      await teammate.getByLabel('New password, again').fill(STRONG_PASSWORD);
      await teammate.getByRole('button', { name: 'Save new password' }).click();

      await expect(teammate).toHaveURL(/\/dashboard\/team\?invitation=[0-9a-f-]{36}$/);
      await expect(
        teammate.getByRole('heading', { name: `Join ${company} as a member` }),
      ).toBeVisible();
      await teammate.screenshot({
        path: `test-results/team-invitee-${size.name}.png`,
        fullPage: true,
      });
      await teammate.getByRole('button', { name: 'Accept invitation' }).click();
      await expect(teammate.getByText(`You joined ${company}.`)).toBeVisible();
      const members = teammate.getByRole('list', { name: 'Members' });
      await expect(members.getByRole('listitem', { name: 'Olive Owner' })).toBeVisible();
      await expect(members.getByRole('listitem', { name: teammateEmail })).toContainText('Member');
      // A member sees the team read-only: no invitations, no role controls.
      await expect(teammate.getByRole('form', { name: 'Invite a teammate' })).toHaveCount(0);
      await expect(teammate.getByRole('combobox')).toHaveCount(0);

      // The owner's (sample) calls.
      await teammate.goto('/dashboard/calls');
      await expect(teammate.getByText(/\d+ calls? in /).first()).toBeVisible();
      await expect(teammate.locator('a[href^="/dashboard/calls/"]:visible').first()).toBeVisible();

      // The owner removes them.
      await page.reload();
      const row = page
        .getByRole('list', { name: 'Members' })
        .getByRole('listitem', { name: teammateEmail });
      await row.getByRole('button', { name: 'Remove' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove from workspace' }).click();
      await expect(page.getByText(`${teammateEmail} no longer has access`)).toBeVisible();
      await expect(row).toHaveCount(0);

      // After a reload the teammate sees no calls.
      await teammate.reload();
      await expect(
        teammate.getByRole('heading', { name: 'No workspace on this account' }),
      ).toBeVisible();
      await expect(teammate.locator('a[href^="/dashboard/calls/"]')).toHaveCount(0);

      expect(errors).toEqual([]);
      expect(teammateErrors).toEqual([]);
      await teammateContext.close();
    });

    test('a refused invitation is explained under the field', async ({ page }) => {
      const owner = await createUser({
        fullName: 'Rita Refused',
        company: `Refusals ${size.name}`,
      });
      await signIn(page, owner);
      await expect(page).toHaveURL(/\/dashboard$/);
      await openTeamPage(page);
      const invite = page.getByRole('form', { name: 'Invite a teammate' });
      const email = invite.getByLabel('Email address');

      // The browser's check.
      await email.fill('not an address');
      await invite.getByRole('button', { name: 'Send invitation' }).click();
      await expect(
        invite.getByText('Please enter a valid email address, like jane@company.com.'),
      ).toBeVisible();

      // The database's: the owner is a member already.
      await email.fill(owner.email.toUpperCase());
      await invite.getByRole('button', { name: 'Send invitation' }).click();
      const sentence = `There is already a member with the address ${owner.email} in this workspace.`;
      await expect(invite.getByText(sentence)).toBeVisible();
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(email).toHaveAccessibleDescription(sentence);
      await expect(page.getByRole('list', { name: 'Pending invitations' })).toHaveCount(0);
    });
  });
}
