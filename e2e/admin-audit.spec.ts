import { expect, test } from '@playwright/test';
import { signIn } from './auth-pages';
import { createUser, signedInClient } from './auth-support';
import { collectErrors, followPortalLink } from './support';

/**
 * The audit log (issue 17) at a desktop and a phone size: an admin's changes
 * (a blackout day added, changed and removed) are listed newest first with
 * the values before and after, filtered by record and action; a customer
 * never gets the page.
 */

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

for (const size of sizes) {
  test.describe(`at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('an admin’s changes are in the audit log, before and after, filterable', async ({
      page,
    }) => {
      const errors = collectErrors(page);
      const admin = await createUser({ fullName: 'Ada Audit', role: 'admin' });
      const client = await signedInClient(admin);
      // A blackout day far in the future, unique to this run.
      const day = `${2100 + Math.floor(Math.random() * 800)}-0${size.name === 'phone' ? 2 : 3}-1${Math.floor(Math.random() * 9)}`;
      expect(
        (await client.from('blackout_dates').insert({ day, reason: 'Offsite' })).error,
      ).toBeNull();
      expect(
        (await client.from('blackout_dates').update({ reason: 'Team offsite' }).eq('day', day))
          .error,
      ).toBeNull();
      expect((await client.from('blackout_dates').delete().eq('day', day)).error).toBeNull();

      await signIn(page, admin);
      await expect(page).toHaveURL(/\/admin$/);
      await followPortalLink(page, 'Audit log');
      await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
      const form = page.getByRole('form', { name: 'Filter the audit log' });
      await form.getByLabel('Record id').fill(day);
      await form.getByRole('button', { name: 'Search' }).click();
      await expect(page).toHaveURL(new RegExp(`target=${day}`));
      const entries = page.getByRole('list', { name: 'Audit log entries' }).getByRole('listitem');
      await expect(entries).toHaveCount(3);
      await expect(entries.nth(0)).toContainText(`${admin.email} · removed blackout dates`);
      await expect(entries.nth(1)).toContainText(`${admin.email} · changed blackout dates`);
      await entries.nth(1).getByText('1 field').click();
      await expect(entries.nth(1)).toContainText('Offsite → Team offsite');
      await expect(entries.nth(2)).toContainText(`${admin.email} · added blackout dates`);

      await form.getByLabel('Action').selectOption('delete');
      await expect(entries).toHaveCount(1);
      await expect(page).toHaveURL(/action=delete/);
      await page.screenshot({ path: `test-results/admin-audit-${size.name}.png`, fullPage: true });
      expect(errors).toEqual([]);
    });
  });
}
