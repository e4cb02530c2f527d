import { expect, test } from '@playwright/test';
import { collectErrors, phoneAndDesktop } from './support';

/** Public pages. The signed-in pages are in e2e/auth-routing.spec.ts. */
const pages = [
  { path: '/', heading: /AI phone system for customer success/i },
  { path: '/partner', heading: /partner program/i },
  { path: '/auth', heading: /sign in to cervana/i },
  { path: '/demo', heading: /see cervana answer/i },
  { path: '/talk-to-sales', heading: /talk to our sales team/i },
  { path: '/privacy-policy', heading: /privacy policy/i },
];

function holdUntilReleased(): { hold: Promise<void>; release: () => void } {
  let release!: () => void;
  const hold = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { hold, release };
}

for (const viewport of phoneAndDesktop) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    for (const { path, heading } of pages) {
      test(`${path} renders its page`, async ({ page }) => {
        const errors = collectErrors(page);
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await page.waitForSelector('html[data-ready="true"]');
        expect(errors).toEqual([]);
      });
    }

    for (const path of ['/dashboard', '/partner-portal', '/admin']) {
      test(`${path} sends a signed-out visitor to sign in`, async ({ page }) => {
        const errors = collectErrors(page);
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        await expect(page).toHaveURL(`/auth?next=${encodeURIComponent(path)}`);
        await expect(
          page.getByRole('heading', { level: 1, name: /sign in to cervana/i }),
        ).toBeVisible();
        expect(errors).toEqual([]);
      });
    }
  });
}

test('an unknown path answers 404 with the not-found page', async ({ page }) => {
  const errors = collectErrors(page);
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(
    page.getByRole('heading', { level: 1, name: /could not find that page/i }),
  ).toBeVisible();
  await page.waitForSelector('html[data-ready="true"]');
  await page.getByRole('link', { name: /go to the home page/i }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1, name: /customer success/i })).toBeVisible();
  // Chromium logs the document's own (intended) 404; anything else is a real error.
  expect(errors.filter((error) => !error.includes('status of 404'))).toEqual([]);
  expect(errors.length).toBeLessThanOrEqual(1);
});

test("a page whose code is slow to arrive shows 'Loading...' meanwhile", async ({ page }) => {
  // The page's code arrives only once 'Loading...' has been seen, however slow the machine.
  const { hold, release } = holdUntilReleased();
  await page.route('**/assets/talk-to-sales-*.js', async (route) => {
    await hold;
    await route.continue();
  });
  await page.goto('/');
  await page.waitForSelector('html[data-ready="true"]');
  await page.locator('header').getByRole('link', { name: 'Talk to Sales' }).click();
  await expect(page.getByText('Loading...')).toBeVisible();
  release();
  await expect(
    page.getByRole('heading', { level: 1, name: /talk to our sales team/i }),
  ).toBeVisible();
  await expect(page.getByText('Loading...')).toBeHidden();
});

test("a direct visit to a page that is not prerendered shows 'Loading...' until its code arrives", async ({
  page,
}) => {
  const { hold, release } = holdUntilReleased();
  await page.route('**/assets/auth-*.js', async (route) => {
    await hold;
    await route.continue();
  });
  await page.goto('/auth', { waitUntil: 'commit' });
  await expect(page.getByText('Loading...')).toBeVisible();
  release();
  await expect(page.getByRole('heading', { level: 1, name: /sign in to cervana/i })).toBeVisible();
  await expect(page.getByText('Loading...')).toBeHidden();
});

test('the browser gets the API URL and anon key at run time', async ({ page, baseURL }) => {
  const response = await page.request.get('/config.json');
  expect(response.ok()).toBe(true);
  const config = (await response.json()) as { url: string; anonKey: string };
  expect(config.url).toBe(baseURL);
  expect(config.anonKey.split('.')).toHaveLength(3);
});
