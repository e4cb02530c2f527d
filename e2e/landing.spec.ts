import { expect, test, type Page } from '@playwright/test';
import {
  collectErrors,
  expectScrolledTo,
  hasDesktopNav,
  scrollThrough,
  viewports,
} from './support';

const sectionOrder = [
  'hero-heading',
  'cost-savings-heading',
  'how-it-works-heading',
  'industries-heading',
  'audio-demo-heading',
  'use-cases-heading',
  'why-cervana-heading',
  'partner-cta-heading',
  'social-proof-heading',
];

const anchors = [
  { label: 'How It Works', id: 'how-it-works' },
  { label: 'Industries', id: 'industries' },
  { label: 'Why Cervana', id: 'why-cervana' },
];

/** Opens the mobile menu when the window is narrow; returns the navigation to click in. */
async function navigation(page: Page, width: number) {
  if (hasDesktopNav(width)) return page.getByRole('navigation', { name: 'Main' });
  const toggle = page.getByRole('button', { name: 'Open menu' });
  await toggle.click();
  await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  return page.locator('#site-menu');
}

async function openHome(page: Page, path = '/') {
  await page.goto(path);
  await page.waitForSelector('html[data-ready="true"]');
}

for (const viewport of viewports) {
  test.describe(`landing page at ${viewport.width}×${viewport.height} (${viewport.name})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('has the spec’s sections in order, the footer last, and no console errors', async ({
      page,
    }) => {
      const errors = collectErrors(page);
      await openHome(page);
      await scrollThrough(page);
      const ids = await page
        .locator('main section[aria-labelledby]')
        .evaluateAll((sections) =>
          sections.map((section) => section.getAttribute('aria-labelledby')),
        );
      expect(ids).toEqual(sectionOrder);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        /AI phone system for customer success/,
      );
      await expect(page.locator('footer')).toBeVisible();
      await expect(
        page.locator('footer').getByRole('link', { name: 'Privacy policy' }),
      ).toHaveAttribute('href', '/privacy-policy');
      expect(errors).toEqual([]);
    });

    test('shows the hero’s shapes only at 1280×700 and up, with the laptop layout from 1280 to 1920', async ({
      page,
    }) => {
      await openHome(page);
      const shapes = page.locator('[data-hero-shapes]');
      const showsShapes = viewport.width >= 1280 && viewport.height >= 700;
      if (showsShapes) await expect(shapes).toBeVisible();
      else await expect(shapes).toBeHidden();

      const layout = await page.locator('#hero-heading').evaluate((heading) => {
        const grid = heading
          .closest('section')!
          .querySelector(':scope > div:not([data-hero-shapes])')!;
        return {
          columns: getComputedStyle(grid).gridTemplateColumns.split(' ').length,
          fontSize: parseFloat(getComputedStyle(heading).fontSize),
        };
      });
      if (viewport.width < 1280) expect(layout.columns).toBe(1);
      else expect(layout.columns).toBe(2);
      if (viewport.width >= 1280 && viewport.width < 1920)
        expect(layout.fontSize).toBeCloseTo(54.4, 0); // laptop
      if (viewport.width >= 1920) expect(layout.fontSize).toBe(72); // large screens
    });

    test('every navigation item lands on its section or page, from home and from elsewhere', async ({
      page,
    }) => {
      // Nine navigations, each a full page load: on a loaded CI machine that outgrows 30 s.
      test.setTimeout(60_000);
      for (const anchor of anchors) {
        await openHome(page);
        const nav = await navigation(page, viewport.width);
        await nav.getByRole('link', { name: anchor.label }).click();
        await expectScrolledTo(page, `#${anchor.id}`);
        if (!hasDesktopNav(viewport.width)) {
          await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute(
            'aria-expanded',
            'false',
          );
          await expect(page.locator('#site-menu')).toBeHidden();
        }

        await openHome(page, '/privacy-policy');
        const elsewhere = await navigation(page, viewport.width);
        await elsewhere.getByRole('link', { name: anchor.label }).click();
        await expect(page).toHaveURL(new RegExp(`/(#${anchor.id})?$`));
        await expectScrolledTo(page, `#${anchor.id}`);
      }

      await openHome(page);
      await (
        await navigation(page, viewport.width)
      )
        .getByRole('link', { name: 'Partner Portal' })
        .click();
      // The portal needs an account: a signed-out visitor is asked to sign in, then sent there.
      await expect(page).toHaveURL(`/auth?next=${encodeURIComponent('/partner-portal')}`);
      await expect(
        page.getByRole('heading', { level: 1, name: /sign in to cervana/i }),
      ).toBeVisible();

      await openHome(page);
      const nav = hasDesktopNav(viewport.width)
        ? page.locator('header')
        : await navigation(page, viewport.width);
      await nav.getByRole('link', { name: 'Talk to Sales' }).first().click();
      await expect(page).toHaveURL('/talk-to-sales');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(/talk to our sales team/i);
    });

    test('the demo button says it is opening the scheduler, then falls back to /demo when the widget cannot load', async ({
      page,
    }) => {
      // The widget's host fails only once the busy state has been seen, however slow the machine.
      let failTheScript!: () => void;
      const busyStateSeen = new Promise<void>((resolve) => {
        failTheScript = resolve;
      });
      await page.route('https://assets.calendly.com/**', async (route) => {
        await busyStateSeen;
        await route.abort('internetdisconnected');
      });
      await openHome(page);
      const container = hasDesktopNav(viewport.width)
        ? page.locator('header')
        : await navigation(page, viewport.width);
      const button = container.getByRole('link', { name: 'Book a 15-min demo' });
      await button.click();
      await expect(container.getByText('Opening scheduler...')).toBeVisible();
      failTheScript();
      await expect(page).toHaveURL('/demo?scheduler=unavailable');
      await expect(page.getByText('The scheduling window could not open')).toBeVisible();
    });
  });
}

test.describe('landing page behaviour (laptop)', () => {
  test('the demo button loads the widget script once and opens the 30-minute page in Cervana azure', async ({
    page,
  }) => {
    let scriptRequests = 0;
    await page.route('https://assets.calendly.com/assets/external/widget.js', async (route) => {
      scriptRequests += 1;
      await route.fulfill({
        contentType: 'application/javascript',
        body: `window.Calendly = { initPopupWidget(options) {
          window.__openedSchedules = (window.__openedSchedules || []).concat(options.url);
          const overlay = document.createElement('div');
          overlay.className = 'calendly-overlay';
          overlay.textContent = 'Scheduler open';
          document.body.append(overlay);
        } };`,
      });
    });
    await page.route('https://assets.calendly.com/assets/external/widget.css', (route) =>
      route.fulfill({ contentType: 'text/css', body: '' }),
    );
    await openHome(page);
    const button = page.locator('header').getByRole('link', { name: 'Book a 15-min demo' });
    await button.click();
    await expect(page.locator('.calendly-overlay')).toHaveCount(1);
    await button.click();
    await expect(page.locator('.calendly-overlay')).toHaveCount(2);
    const opened = await page.evaluate(
      () => (window as unknown as { __openedSchedules: string[] }).__openedSchedules,
    );
    expect(opened).toHaveLength(2);
    expect(opened[0]).toMatch(/^https:\/\/calendly\.com\/cervana\/30min\?primary_color=00a2ff$/);
    expect(scriptRequests).toBe(1);
    await expect(page).toHaveURL('/');
  });

  test('on a desktop, the section under the hero loads its code when its calculator nears, not its heading', async ({
    browser,
  }) => {
    // Lighthouse's desktop viewport: the section's heading is in the first view, its calculator 560 px below.
    const context = await browser.newContext({ viewport: { width: 1350, height: 940 } });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await openHome(page);
    const section = page.locator('[data-section="cost-savings"]');
    await expect(section.getByRole('heading', { level: 2 })).toBeInViewport();
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((url) => url.includes('cost-savings-section'))).toEqual([]);
    await expect(section).not.toHaveAttribute('data-hydrated');

    await section.locator('[data-hydrate-from]').scrollIntoViewIfNeeded();
    await expect(section).toHaveAttribute('data-hydrated', 'true');
    expect(scripts.filter((url) => url.includes('cost-savings-section'))).toHaveLength(1);
    await page.getByLabel('Customer calls per month').fill('4500');
    await expect(page).toHaveURL(/calls=4500/);
    await context.close();
  });

  test('the ROI calculator recomputes as you type, and its URL restores it', async ({ page }) => {
    await openHome(page);
    const calculator = page.locator('[data-section="cost-savings"]');
    // The section hydrates when its calculator nears the viewport, not its heading.
    await calculator.locator('[data-hydrate-from]').scrollIntoViewIfNeeded();
    await expect(calculator).toHaveAttribute('data-hydrated', 'true');
    await expect(page.getByTestId('roi-monthly')).toContainText('$10,400');

    await page.getByLabel('Customer calls per month').fill('4500');
    await page.getByLabel('Calls Cervana resolves').fill('50');
    // 4,500 × 50% × 8 min ÷ 60 = 300 h; × $65 = $19,500
    await expect(page.getByTestId('roi-hours')).toHaveText('300 h');
    await expect(page.getByTestId('roi-monthly')).toContainText('$19,500');
    await expect(page.getByTestId('roi-formula')).toContainText('4,500 calls × 50% resolved');
    await expect(page).toHaveURL(/calls=4500/);
    await expect(page).toHaveURL(/resolved=50/);

    const shared = page.url();
    await page.goto('about:blank');
    await page.goto(shared);
    const restored = page.locator('[data-section="cost-savings"]');
    await restored.locator('[data-hydrate-from]').scrollIntoViewIfNeeded();
    await expect(restored).toHaveAttribute('data-hydrated', 'true');
    await expect(page.getByLabel('Customer calls per month')).toHaveValue('4500');
    await expect(page.getByTestId('roi-monthly')).toContainText('$19,500');
  });

  test('the ROI calculator refuses a negative number at the field, with a sentence', async ({
    page,
  }) => {
    await openHome(page);
    const calculator = page.locator('[data-section="cost-savings"]');
    // The section hydrates when its calculator nears the viewport, not its heading.
    await calculator.locator('[data-hydrate-from]').scrollIntoViewIfNeeded();
    await expect(calculator).toHaveAttribute('data-hydrated', 'true');
    const calls = page.getByLabel('Customer calls per month');
    await calls.fill('-200');
    await expect(calls).toHaveAttribute('aria-invalid', 'true');
    await expect(calls).toHaveAccessibleDescription(/The calls per month cannot be negative\./);
    await expect(page.getByTestId('roi-monthly')).toContainText('$10,400');
    await expect(page.getByTestId('roi-refused')).toBeVisible();
    await calls.fill('abc');
    await expect(calls).toHaveAccessibleDescription(
      /Please enter the calls per month as a number, such as 2,000\./,
    );
    await calls.fill('3000');
    await expect(calls).not.toHaveAttribute('aria-invalid');
    await expect(page.getByTestId('roi-monthly')).toContainText('$15,600');
  });

  test('choosing an industry shows its example calls', async ({ page }) => {
    await openHome(page);
    const section = page.locator('[data-section="industries"]');
    await section.scrollIntoViewIfNeeded();
    await expect(section).toHaveAttribute('data-hydrated', 'true');
    await expect(section.getByText('“Invoice shows more seats than expected”')).toBeVisible();
    await section.getByRole('tab', { name: 'Fintech' }).click();
    await expect(section.getByText('“Payout did not arrive this morning”')).toBeVisible();
    await expect(section.getByText('“Invoice shows more seats than expected”')).toBeHidden();
    await section.getByRole('tab', { name: 'Fintech' }).press('ArrowRight');
    await expect(section.getByRole('tab', { name: 'Healthcare technology' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  test('the audio demo plays, seeks, and its transcript follows', async ({ page }) => {
    await openHome(page);
    const section = page.locator('[data-section="audio-demo"]');
    await section.scrollIntoViewIfNeeded();
    await expect(section).toHaveAttribute('data-hydrated', 'true');
    const transcript = section.getByRole('list', { name: /Transcript of/ });
    await expect(transcript.locator('[aria-current="true"]')).toHaveCount(0);

    await section.getByRole('button', { name: 'Play the call' }).click();
    await expect(section.getByRole('button', { name: 'Pause the call' })).toBeVisible();
    await expect(page.getByTestId('audio-time')).not.toHaveText('0:00', { timeout: 5000 });
    await expect(transcript.locator('[aria-current="true"]')).toHaveCount(1);

    // Jump to the fourth line: it becomes the current one and playback goes on from there.
    const fourth = transcript.getByRole('button').nth(3);
    await fourth.click();
    await expect(fourth).toHaveAttribute('aria-current', 'true');
    const current = await page.evaluate(() => document.querySelector('audio')!.currentTime);
    expect(current).toBeGreaterThan(10);
    await expect
      .poll(() => page.evaluate(() => document.querySelector('audio')!.currentTime))
      .toBeGreaterThan(current + 0.5);
    await section.getByRole('button', { name: 'Pause the call' }).click();
    await expect(section.getByRole('button', { name: 'Play the call' })).toBeVisible();

    await section.getByRole('button', { name: 'Handed to a CSM' }).click();
    await expect(section.getByRole('heading', { name: /Renewal risk/ })).toBeVisible();
  });

  test('the audio position slider steps by seconds under the keyboard', async ({ page }) => {
    await openHome(page);
    const section = page.locator('[data-section="audio-demo"]');
    await section.scrollIntoViewIfNeeded();
    await expect(section).toHaveAttribute('data-hydrated', 'true');
    const slider = section.getByRole('slider', { name: 'Position in the call' });
    await slider.focus();
    for (let press = 0; press < 5; press++) await page.keyboard.press('ArrowRight');
    await expect(slider).toHaveValue('25');
    await expect(slider).toHaveAttribute('aria-valuetext', /^25 seconds of \d+ seconds$/);
    await page.keyboard.press('PageUp');
    await expect(slider).toHaveValue('40');
    await page.keyboard.press('PageDown');
    await page.keyboard.press('ArrowLeft');
    await expect(slider).toHaveValue('20');
    await page.keyboard.press('Home');
    await expect(slider).toHaveValue('0');
    await page.keyboard.press('End');
    await expect(page.getByTestId('audio-time')).toHaveText('0:51');
  });

  test('the use case carousel moves with the arrow keys and with a swipe', async ({ page }) => {
    await openHome(page);
    const section = page.locator('[data-section="use-cases"]');
    await section.scrollIntoViewIfNeeded();
    await expect(section).toHaveAttribute('data-hydrated', 'true');
    const position = page.getByTestId('carousel-position');
    await expect(position).toHaveText('1 of 6');
    const track = section.getByRole('list', { name: /Use cases/ });
    await track.focus();
    await page.keyboard.press('ArrowRight');
    await expect(position).toHaveText('2 of 6');
    await page.keyboard.press('End');
    await expect(position).toHaveText('6 of 6');
    await page.keyboard.press('Home');
    await expect(position).toHaveText('1 of 6');
    await section.getByRole('button', { name: 'Next use case' }).click();
    await expect(position).toHaveText('2 of 6');
  });

  test('honours reduced motion: no animation, instant anchor jumps', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openHome(page);
    const animation = await page
      .locator('[data-hero-shapes] > div')
      .first()
      .evaluate((element) => getComputedStyle(element).animationName);
    expect(animation).toBe('none');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Why Cervana' })
      .click();
    // Instant: already there on the next frame, no smooth scroll under way.
    await page.waitForTimeout(50);
    const top = await page
      .locator('#why-cervana')
      .evaluate((element) => Math.round(element.getBoundingClientRect().top));
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThanOrEqual(100);
  });
});

test.describe('landing page on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

  test('the menu closes on Escape and returns focus to its toggle', async ({ page }) => {
    await openHome(page);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle).toHaveAttribute('aria-controls', 'site-menu');
    await toggle.click();
    await expect(page.locator('#site-menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.locator('#site-menu')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
  });

  test('the carousel follows a swipe', async ({ page }) => {
    await openHome(page);
    const section = page.locator('[data-section="use-cases"]');
    await section.scrollIntoViewIfNeeded();
    await expect(section).toHaveAttribute('data-hydrated', 'true');
    const track = section.getByRole('list', { name: /Use cases/ });
    const box = (await track.boundingBox())!;
    // A real touch gesture: the browser scrolls the snap track natively.
    const session = await page.context().newCDPSession(page);
    const y = Math.round(box.y + box.height / 2);
    const from = Math.round(box.x + box.width * 0.85);
    const to = Math.round(box.x + box.width * 0.1);
    await session.send('Input.dispatchTouchEvent', {
      type: 'touchStart',
      touchPoints: [{ x: from, y }],
    });
    for (let step = 1; step <= 10; step += 1) {
      const x = Math.round(from + ((to - from) * step) / 10);
      await session.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x, y }],
      });
      await page.waitForTimeout(16);
    }
    await session.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect(page.getByTestId('carousel-position')).toHaveText('2 of 6');
  });

  test('nothing is wider than the screen', async ({ page }) => {
    for (const path of [
      '/',
      '/partner',
      '/demo',
      '/talk-to-sales',
      '/privacy-policy',
      '/no-such-page',
    ]) {
      await page.goto(path);
      await page.waitForSelector('html[data-ready="true"]');
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
});
