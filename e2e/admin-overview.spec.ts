import { expect, test, type Page } from '@playwright/test';
import { createUser, uniqueEmail } from './auth-support';
import { signIn } from './auth-pages';
import { axeViolations } from './axe';
import { collectErrors } from './support';

/**
 * The admin overview: an admin sees the four counts of the period, each with
 * its change and its list, and switches the period in the URL. (A customer or
 * partner opening /admin is covered by auth-routing.spec.ts.)
 */

const sizes = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

const CARDS = [
  { label: 'New leads', link: 'View leads', href: '/admin/leads' },
  { label: 'Demo bookings', link: 'View bookings', href: '/admin/bookings' },
  { label: 'Partner applications', link: 'Review applications', href: '/admin/partners' },
  { label: 'Sign-ups', link: 'View users', href: '/admin/users' },
] as const;

function card(page: Page, label: string) {
  return page
    .getByRole('region', { name: 'Overview' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name: label }) });
}

for (const size of sizes) {
  test.describe(`admin overview at ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, bypassCSP: true });

    test('an admin sees the four counts and switches the period', async ({ page }) => {
      const errors = collectErrors(page);
      const user = await createUser({
        email: uniqueEmail(`admin-overview-${size.name}`),
        fullName: 'Ada Admin',
        role: 'admin',
      });
      await signIn(page, user, '/auth?next=%2Fadmin');
      await expect(page).toHaveURL('/admin');
      await expect(page.getByRole('heading', { level: 1, name: 'Cervana admin' })).toBeVisible();

      for (const { label, link, href } of CARDS) {
        const item = card(page, label);
        // The value: a whole number (the admin just signed up, so sign-ups is at least 1).
        await expect(item.getByText(/^\d[\d,]*$/)).toBeVisible();
        // The change as a sentence for screen readers (the arrow and figure are hidden from them).
        await expect(item.getByText(/^(Up \d+%|Down \d+%|No change|New:).* days\.$/)).toHaveCount(
          1,
        );
        await expect(item.getByRole('link', { name: link })).toHaveAttribute('href', href);
      }
      await expect(card(page, 'Sign-ups').getByText(/^\d[\d,]*$/)).not.toHaveText('0');
      await page.screenshot({
        path: `test-results/admin-overview-${size.name}.png`,
        fullPage: true,
      });

      const period = page.getByRole('group', { name: 'Period' });
      await expect(period.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      await period.getByRole('button', { name: 'Last 7 days' }).click();
      await expect(page).toHaveURL('/admin?period=7d');
      await expect(period.getByRole('button', { name: 'Last 7 days' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      await expect(page.getByText('What came in over the last 7 days')).toBeVisible();
      await expect(card(page, 'New leads').getByText(/vs .*the previous 7 days/)).toBeVisible();

      // The period survives a reload.
      await page.reload();
      await expect(period.getByRole('button', { name: 'Last 7 days' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      await expect(card(page, 'Sign-ups').getByText(/^\d[\d,]*$/)).toBeVisible();

      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
}
