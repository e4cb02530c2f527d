import { expect, test, type Page } from '@playwright/test';
import { signIn } from './auth-pages';
import { createUser } from './auth-support';
import { axeViolations } from './axe';
import { collectErrors, followPortalLink } from './support';

/**
 * Setting up a workspace (issue 16), end to end at a desktop and a phone
 * size: the agent's greeting and business hours saved and seen after a
 * reload, a stale save explained, a version restored; the workspace's time
 * zone; phone numbers added, refused when taken (with a sentence) and
 * removed.
 */

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

async function openPage(page: Page, link: string, heading: string): Promise<void> {
  await followPortalLink(page, link);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

for (const size of sizes) {
  test.describe(`at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('the agent’s greeting and hours are saved, kept after a reload, and restorable', async ({
      page,
      browser,
    }) => {
      test.setTimeout(90_000);
      const errors = collectErrors(page);
      const owner = await createUser({ fullName: 'Olive Owner', company: `Agent ${size.name}` });
      await signIn(page, owner);
      await expect(page).toHaveURL(/\/dashboard$/);

      // The workspace's time zone first: the hours are read in it.
      await openPage(page, 'Team', 'Team and workspace');
      const workspace = page.getByRole('region', { name: 'Workspace' });
      await workspace.getByLabel('Time zone').selectOption('America/Chicago');
      await workspace.getByRole('button', { name: 'Save workspace' }).click();
      await expect(page.getByText('Workspace saved.')).toBeVisible();

      await openPage(page, 'Agent', 'Agent settings');
      await expect(page.getByText('America/Chicago').first()).toBeVisible();
      const greeting = page.getByLabel('Greeting');
      await greeting.fill(
        'Thanks for calling Harbor Freight Support, this is Ava. How can I help?',
      );
      const saturday = page.getByRole('group', { name: 'Saturday' });
      await saturday.getByLabel('Saturday').check();
      await saturday.getByLabel('Saturday opens at').fill('10:00');
      await saturday.getByLabel('Saturday closes at').fill('14:30');
      // A closing time before the opening time is refused in the browser, by the day.
      const tuesday = page.getByRole('group', { name: 'Tuesday' });
      await tuesday.getByLabel('Tuesday closes at').fill('08:00');
      await page.getByRole('button', { name: 'Save agent settings' }).click();
      await expect(
        tuesday.getByText('Tuesday: The closing time must be after the opening time.'),
      ).toBeVisible();
      await tuesday.getByLabel('Tuesday closes at').fill('17:00');
      await page.getByRole('button', { name: 'Save agent settings' }).click();
      await expect(page.getByText('Agent settings saved as version 2.')).toBeVisible();
      await page.screenshot({ path: `test-results/agent-${size.name}.png`, fullPage: true });

      await page.reload();
      await expect(page.getByLabel('Greeting')).toHaveValue(
        'Thanks for calling Harbor Freight Support, this is Ava. How can I help?',
      );
      await expect(saturday.getByLabel('Saturday opens at')).toHaveValue('10:00');
      await expect(saturday.getByLabel('Saturday closes at')).toHaveValue('14:30');
      const history = page.getByRole('region', { name: 'Change history' });
      await expect(history.getByText('Changed greeting and business hours')).toBeVisible();
      await expect(history.getByText('Olive Owner', { exact: false }).first()).toBeVisible();

      // Someone else saves from another browser: this page's next save is refused, not lost silently.
      const other = await browser.newContext({
        viewport: { width: size.width, height: size.height },
      });
      const otherPage = await other.newPage();
      await signIn(otherPage, owner);
      await expect(otherPage).toHaveURL(/\/dashboard$/);
      await otherPage.goto('/dashboard/agent');
      await otherPage.getByLabel('Agent name').fill('Ava');
      await otherPage.getByRole('button', { name: 'Save agent settings' }).click();
      await expect(otherPage.getByText('Agent settings saved as version 3.')).toBeVisible();
      await other.close();

      await page.getByLabel('Greeting').fill('A greeting written on a stale page, never saved.');
      await page.getByRole('button', { name: 'Save agent settings' }).click();
      await expect(
        page.getByText('Someone else changed the agent since you opened this page.'),
      ).toBeVisible();
      await page.getByRole('button', { name: 'Load the latest settings' }).click();
      await expect(page.getByLabel('Agent name')).toHaveValue('Ava');
      await expect(page.getByLabel('Greeting')).toHaveValue(
        'Thanks for calling Harbor Freight Support, this is Ava. How can I help?',
      );

      // Restore the first version: saved as version 4, the defaults back.
      await history.getByRole('button', { name: 'Restore version 1' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
      await expect(page.getByText('Version 1 restored as version 4.')).toBeVisible();
      await expect(page.getByLabel('Agent name')).toHaveValue('Cervana assistant');
      await expect(saturday.getByText('Closed')).toBeVisible();
      // The stale save's answer (409) is the only failed request.
      expect(errors).toEqual([
        'Failed to load resource: the server responded with a status of 409 (Conflict)',
      ]);
    });

    test('phone numbers are added, refused when taken, and removed', async ({ page }) => {
      test.setTimeout(60_000);
      const errors = collectErrors(page);
      const suffix = String(Date.now()).slice(-7);
      const number = `+1 (628) ${suffix.slice(0, 3)}-${suffix.slice(3)}`;
      const first = await createUser({ fullName: 'Nia Numbers', company: `Numbers ${size.name}` });
      await signIn(page, first);
      await expect(page).toHaveURL(/\/dashboard$/);
      await openPage(page, 'Phone numbers', 'Phone numbers');

      const add = page.getByRole('region', { name: 'Add a number' });
      await add.getByLabel('Phone number').fill('555 0100');
      await add.getByRole('button', { name: 'Add number' }).click();
      await expect(add.getByText(/international format/)).toBeVisible();
      await add.getByLabel('Phone number').fill(number);
      await add.getByLabel('Label (optional)').fill('Support line');
      await add.getByRole('button', { name: 'Add number' }).click();
      const list = page.getByRole('region', { name: /Your numbers/ });
      await expect(list.getByRole('button', { name: `Remove ${number}` })).toBeVisible();
      await expect(list.getByText('Support line · answered by Cervana assistant')).toBeVisible();
      await page.screenshot({ path: `test-results/numbers-${size.name}.png`, fullPage: true });

      // Another workspace cannot take it: a sentence under the field, naming no one.
      await page.context().clearCookies();
      await page.evaluate(() => localStorage.clear());
      const second = await createUser({ fullName: 'Sol Second', company: `Other ${size.name}` });
      await signIn(page, second);
      await expect(page).toHaveURL(/\/dashboard$/);
      await openPage(page, 'Phone numbers', 'Phone numbers');
      await add.getByLabel('Phone number').fill(number.replace(/[()\s-]/g, ''));
      await add.getByRole('button', { name: 'Add number' }).click();
      await expect(
        add.getByText(/This number is already connected to a Cervana workspace\./),
      ).toBeVisible();
      await expect(list.getByText('No numbers yet.', { exact: false })).toBeVisible();

      // The first workspace removes it; then it is free.
      await page.evaluate(() => localStorage.clear());
      await signIn(page, first);
      await expect(page).toHaveURL(/\/dashboard$/);
      await openPage(page, 'Phone numbers', 'Phone numbers');
      await list.getByRole('button', { name: `Remove ${number}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove number' }).click();
      await expect(list.getByText('No numbers yet.', { exact: false })).toBeVisible();
      await page.reload();
      await expect(list.getByText('No numbers yet.', { exact: false })).toBeVisible();
      // The taken number's answer (409) is the only failed request.
      expect(errors).toEqual([
        'Failed to load resource: the server responded with a status of 409 (Conflict)',
      ]);
    });
  });
}

for (const size of sizes) {
  test.describe(`workspace pages’ accessibility at ${size.name} size`, () => {
    // axe is injected as an inline script, which the site's CSP (rightly) forbids.
    test.use({ viewport: { width: size.width, height: size.height }, bypassCSP: true });

    test('axe finds no violations on the agent, numbers, knowledge and team pages, menu open', async ({
      page,
    }) => {
      test.setTimeout(60_000);
      const owner = await createUser({ fullName: 'Ada Axe', company: `Axe ${size.name}` });
      await signIn(page, owner);
      await expect(page).toHaveURL(/\/dashboard$/);
      const checked: Record<string, unknown> = {};
      for (const [link, heading, ready] of [
        ['Agent', 'Agent settings', 'Save agent settings'],
        ['Phone numbers', 'Phone numbers', 'Add number'],
        ['Knowledge', 'Knowledge', 'Choose files'],
        ['Team', 'Team and workspace', 'Send invitation'],
      ] as const) {
        await openPage(page, link, heading);
        await expect(page.getByRole('button', { name: ready })).toBeVisible();
        checked[link] = await axeViolations(page);
      }
      const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
      if (await menuButton.isVisible()) {
        await menuButton.click();
        checked['open menu'] = await axeViolations(page);
        await page.keyboard.press('Escape');
        await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
        await expect(menuButton).toBeFocused();
      }
      expect(checked, JSON.stringify(checked, null, 2)).toEqual(
        Object.fromEntries(Object.keys(checked).map((key) => [key, []])),
      );
    });
  });
}
