import { expect, test, type Page } from '@playwright/test';
import { createUser, uniqueEmail } from './auth-support';
import { expectDashboard, signIn, submitSignIn } from './auth-pages';
import { collectErrors, followPortalLink, phoneAndDesktop } from './support';

/**
 * Security issue 24, finding 8: a crafted `?next=` must not send a signed-in
 * visitor off the site nor blank the app, and no failing page leaves a blank
 * one: the error page shows instead, with a way on.
 */

/** Written into the link as an attacker would, not re-encoded by the test. */
const hostileNext = [
  '/%09/evil.example', // a tab the URL parser drops: `//evil.example`
  '/%0A/evil.example',
  '/%0D%0A/evil.example',
  '/%5C/evil.example', // `/\evil.example`
  '%5C%5Cevil.example',
  '/%255C/evil.example', // an encoded backslash, once decoded
  '/.//evil.example', // dot segments that leave `//evil.example`
  '//evil.example',
  'https://evil.example',
  'javascript:alert(document.domain)',
  '/%00/evil.example',
];

/** The error page a failed page is replaced with. */
async function expectErrorPage(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reload the page' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute(
    'href',
    '/',
  );
}

/** Fails the request for one on-demand page's code, as a deploy that replaced it or a dropped connection would. */
async function failPageCode(page: Page, chunk: string): Promise<void> {
  await page.route(new RegExp(`/assets/${chunk}-[A-Za-z0-9_-]{8}\\.js$`), (route) =>
    route.abort('failed'),
  );
}

test.describe('a hostile ?next=', () => {
  for (const next of hostileNext) {
    test(`/auth?next=${next} signs in to the dashboard, not elsewhere and not a blank page`, async ({
      page,
    }) => {
      const errors = collectErrors(page);
      const user = await createUser({ email: uniqueEmail('hostile-next') });
      const requestedHosts = new Set<string>();
      page.on('request', (request) => requestedHosts.add(new URL(request.url()).hostname));

      await signIn(page, user, `/auth?next=${next}`);
      await expectDashboard(page);
      await expect(page.getByRole('heading', { name: 'Something went wrong' })).toHaveCount(0);
      expect(requestedHosts).not.toContain('evil.example');
      expect(errors).toEqual([]);
    });
  }

  test('an already signed-in visitor opening the link stays on the site too', async ({ page }) => {
    const errors = collectErrors(page);
    const user = await createUser({ email: uniqueEmail('hostile-next-signed-in') });
    await signIn(page, user);
    await expectDashboard(page);
    await page.goto('/auth?next=/%09/evil.example');
    await expectDashboard(page);
    expect(errors).toEqual([]);
  });

  test('a safe ?next= with a query and a fragment is followed as given', async ({ page }) => {
    const user = await createUser({ email: uniqueEmail('safe-next'), role: 'admin' });
    await page.goto(`/auth?next=${encodeURIComponent('/admin?tab=leads#top')}`);
    await submitSignIn(page, user);
    await expect(page).toHaveURL('/admin?tab=leads#top');
    await expect(page.getByRole('heading', { level: 1, name: 'Cervana admin' })).toBeVisible();
  });
});

test.describe('a page that fails', () => {
  test('a public page whose code cannot load shows the error page under the site header, then loads on reload', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.locator('html[data-ready]')).toBeAttached();
    await failPageCode(page, 'talk-to-sales');
    await page
      .getByRole('banner')
      .getByRole('link', { name: 'Talk to Sales', exact: true })
      .click();

    await expectErrorPage(page);
    await expect(
      page.getByRole('banner').getByRole('link', { name: /Cervana.*home/ }),
    ).toBeVisible();

    // The connection is back: the reload button brings the page.
    await page.unrouteAll();
    await page.getByRole('button', { name: 'Reload the page' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: /talk to our sales team/i }),
    ).toBeVisible();
  });

  test('a signed-in page whose code cannot load keeps the portal navigation, and the next page works', async ({
    page,
  }) => {
    const user = await createUser({ email: uniqueEmail('failing-page') });
    await signIn(page, user);
    await expectDashboard(page);
    await failPageCode(page, 'account-settings');
    await followPortalLink(page, 'Account settings');

    await expectErrorPage(page);
    await expect(page).toHaveURL('/dashboard/settings');
    await followPortalLink(page, 'Overview');
    await expectDashboard(page);
  });

  for (const viewport of phoneAndDesktop) {
    test(`opened directly at ${viewport.width}px, a page whose code cannot load is never blank`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await failPageCode(page, 'privacy-policy');
      await page.goto('/privacy-policy');
      await expectErrorPage(page);
      await expect(page.getByRole('banner')).toBeVisible();
    });
  }
});
