import { expect, type Page } from '@playwright/test';

/** The spec's viewports for the landing page. */
export const viewports = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'tablet', width: 1024, height: 768 },
  { name: 'small laptop', width: 1280, height: 800 },
  { name: 'laptop', width: 1440, height: 900 },
  { name: 'large', width: 1920, height: 1080 },
  { name: 'short laptop', width: 1400, height: 650 },
] as const;

export const phoneAndDesktop = [viewports[0], viewports[3]] as const;

/** Desktop navigation shows from 1024 px; below, the menu toggle. */
export const hasDesktopNav = (width: number) => width >= 1024;

/**
 * Chromium's note that the admin email preview's `sandbox=""` frame refused a
 * script: the sandbox doing its job (it shows up when the test tooling reaches
 * into that frame), never an error of the page.
 */
const SANDBOX_REFUSAL =
  /^Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/;

/** Console errors include CSP violations: a page must produce none. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !SANDBOX_REFUSAL.test(message.text())) {
      errors.push(message.text());
    }
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Waits until the element's top sits just below the fixed header, i.e. the page scrolled to it. */
export async function expectScrolledTo(page: Page, selector: string): Promise<void> {
  await expect
    .poll(
      async () =>
        page
          .locator(selector)
          .evaluate((element) => Math.round(element.getBoundingClientRect().top)),
      {
        timeout: 5000,
      },
    )
    .toBeGreaterThanOrEqual(0);
  await expect
    .poll(
      async () =>
        page
          .locator(selector)
          .evaluate((element) => Math.round(element.getBoundingClientRect().top)),
      {
        timeout: 5000,
      },
    )
    .toBeLessThanOrEqual(100);
}

/** Scrolls through the page so every on-demand section loads and hydrates. */
export async function scrollThrough(page: Page): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 500) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(30);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/**
 * Follows a link of the signed-in area's menu: a column beside the page from
 * 1024 px, behind the Menu button below (opened first when it is there).
 */
export async function followPortalLink(page: Page, name: string): Promise<void> {
  const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
  const menu = page.getByRole('navigation', { name: 'Account areas' });
  // Whichever the page shows once the portal's frame is there.
  await expect(menuButton.or(menu)).toBeVisible();
  if (await menuButton.isVisible()) {
    await menuButton.click();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
  }
  await menu.getByRole('link', { name }).click();
}
