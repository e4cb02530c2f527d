import { expect, test } from '@playwright/test';
import { axeViolations } from './axe';
import { phoneAndDesktop, scrollThrough } from './support';

const publicPages = [
  '/',
  '/partner',
  '/demo',
  '/talk-to-sales',
  '/privacy-policy',
  '/no-such-page',
];

for (const viewport of phoneAndDesktop) {
  test.describe(`accessibility at ${viewport.width}×${viewport.height}`, () => {
    // axe is injected as an inline script, which the site's CSP (rightly) forbids.
    test.use({ viewport: { width: viewport.width, height: viewport.height }, bypassCSP: true });

    for (const path of publicPages) {
      test(`axe finds no violations on ${path}`, async ({ page }) => {
        await page.goto(path);
        await page.waitForSelector('html[data-ready="true"]');
        await scrollThrough(page);
        const violations = await axeViolations(page);
        expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
      });
    }
  });
}

test('every control on the landing page is reachable by keyboard, with a visible focus ring', async ({
  page,
}) => {
  await page.goto('/');
  await page.waitForSelector('html[data-ready="true"]');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  for (let step = 0; step < 8; step += 1) {
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const style = getComputedStyle(element);
      return {
        tag: element.tagName,
        outline: style.outlineStyle,
        width: parseFloat(style.outlineWidth),
      };
    });
    expect(['A', 'BUTTON', 'INPUT']).toContain(outline.tag);
    expect(outline.outline).not.toBe('none');
    expect(outline.width).toBeGreaterThan(0);
  }
});
