import { expect, test } from '@playwright/test';
import { createUser, uniqueEmail } from './auth-support';
import { accountMenu, expectDashboard, signIn, signInUrlFor, submitSignIn } from './auth-pages';
import { collectErrors, phoneAndDesktop } from './support';

/**
 * Where a sign-in lands: the page the visitor was going to (?next=), else the
 * home of their role; and what each role sees on the pages of the others.
 */

const homes = [
  {
    role: 'customer',
    path: '/dashboard',
    heading: 'Your phone agent at a glance',
  },
  {
    role: 'partner',
    path: '/partner-portal',
    heading: 'Your referrals, commissions and assets',
  },
  { role: 'admin', path: '/admin', heading: 'Cervana admin' },
] as const;

for (const viewport of phoneAndDesktop) {
  test.describe(`role routing at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const home of homes) {
      test(`a ${home.role} signing in from /auth lands on ${home.path}`, async ({ page }) => {
        const errors = collectErrors(page);
        const fullName = `Grace ${home.role}`;
        const user = await createUser({
          email: uniqueEmail(`${home.role}-${viewport.name}`),
          fullName,
          company: 'Harbour Freight',
          ...(home.role !== 'customer' && { role: home.role }),
        });
        await signIn(page, user);
        await expect(page).toHaveURL(home.path);
        await expect(page.getByRole('heading', { level: 1, name: home.heading })).toBeVisible();
        await expect(accountMenu(page, fullName)).toBeVisible();
        expect(errors).toEqual([]);
      });
    }
  });
}

test.describe('returning to where the visitor was going', () => {
  test('a signed-out visit to /dashboard signs in and comes back to it', async ({ page }) => {
    const profile = { fullName: 'Alan Turing', company: 'Bletchley Support' };
    const user = await createUser({ email: uniqueEmail('next-dashboard'), ...profile });
    await page.goto('/dashboard');
    await expect(page).toHaveURL(signInUrlFor('/dashboard'));
    await submitSignIn(page, user);
    await expectDashboard(page, profile);
  });

  test('a signed-out visit to /admin signs in an admin and comes back to it', async ({ page }) => {
    const user = await createUser({ email: uniqueEmail('next-admin'), role: 'admin' });
    await page.goto('/admin?tab=leads');
    await expect(page).toHaveURL(signInUrlFor('/admin?tab=leads'));
    await submitSignIn(page, user);
    await expect(page).toHaveURL('/admin?tab=leads');
    await expect(page.getByRole('heading', { level: 1, name: 'Cervana admin' })).toBeVisible();
  });

  test('a next= pointing off the site is ignored: the sign-in lands on the role’s home', async ({
    page,
  }) => {
    const user = await createUser({ email: uniqueEmail('next-offsite'), role: 'partner' });
    await page.goto(`/auth?next=${encodeURIComponent('//evil.example/steal')}`);
    await submitSignIn(page, user);
    await expect(page).toHaveURL('/partner-portal');
  });
});

test.describe('pages of another role', () => {
  test('a customer opening /admin is told it is not for them, with a way home', async ({
    page,
  }) => {
    const user = await createUser({ email: uniqueEmail('customer-admin') });
    await signIn(page, user);
    await expectDashboard(page);
    await page.goto('/admin');
    await expect(
      page.getByRole('heading', { level: 1, name: 'This area is for the Cervana team' }),
    ).toBeVisible();
    await expect(page.getByText('Leads, bookings, partners and users')).toHaveCount(0);
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await expectDashboard(page);
  });

  test('a partner opening /admin is offered the partner portal', async ({ page }) => {
    const user = await createUser({ email: uniqueEmail('partner-admin'), role: 'partner' });
    await signIn(page, user);
    await expect(page).toHaveURL('/partner-portal');
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Go to the partner portal' }).click();
    await expect(page).toHaveURL('/partner-portal');
  });

  test('a customer opening /partner-portal learns how to join the program', async ({ page }) => {
    const user = await createUser({ email: uniqueEmail('customer-portal') });
    await signIn(page, user);
    await expectDashboard(page);
    await page.goto('/partner-portal');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Join the Cervana partner program' }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Referrals' })).toHaveCount(0);
    await expect(page.getByText('You have not applied yet.')).toBeVisible();
    await page.getByRole('link', { name: 'See the program and apply' }).click();
    // Straight to the application form.
    await expect(page).toHaveURL('/partner#apply');
    await expect(page.getByRole('heading', { name: 'Apply to become a partner' })).toBeInViewport();
  });
});
