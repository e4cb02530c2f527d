import { expect, test } from '@playwright/test';
import { createUser, totpCode, uniqueEmail } from './auth-support';
import { signIn, signOutWithMenu, storedSession, submitSignIn } from './auth-pages';
import { axeViolations } from './axe';
import { collectErrors, phoneAndDesktop } from './support';

/**
 * Admins hold the whole business, so /admin opens only with a second factor:
 * an admin who has none is asked to set up an authenticator app before
 * anything of the admin area shows, and the database refuses admin data to a
 * session without it. Once the app is on, the same session opens /admin, and
 * every later sign-in asks for the code.
 */

for (const size of phoneAndDesktop) {
  test.describe(`admin second factor at ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, bypassCSP: true });

    test('an admin without an authenticator app sets one up before the admin area opens', async ({
      page,
    }) => {
      const errors = collectErrors(page);
      const fullName = 'Nell Newadmin';
      const admin = await createUser({
        email: uniqueEmail(`admin-2fa-${size.name}`),
        fullName,
        role: 'admin',
        secondFactor: false,
      });
      await signIn(page, admin);
      await expect(page).toHaveURL('/admin');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Turn on two-factor authentication' }),
      ).toBeVisible();
      // Nothing of the admin area: no overview, no counts.
      await expect(page.getByRole('heading', { level: 1, name: 'Cervana admin' })).toHaveCount(0);
      await expect(page.getByRole('region', { name: 'Overview' })).toHaveCount(0);
      expect((await storedSession(page))?.claims.aal).toBe('aal1');
      // The other admin pages ask the same.
      await page.goto('/admin/leads');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Turn on two-factor authentication' }),
      ).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
      await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
      const secret = (await page.getByLabel('Setup key').textContent())!.trim();
      await page.screenshot({
        path: `test-results/admin-second-factor-${size.name}.png`,
        fullPage: true,
      });
      const wrong = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0');
      await page.getByLabel('Code from the app').fill(wrong);
      await page.getByRole('button', { name: 'Turn on' }).click();
      await expect(page.getByText(/That code is not right/)).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: 'Leads' })).toHaveCount(0);

      await page.getByLabel('Code from the app').fill(totpCode(secret));
      await page.getByRole('button', { name: 'Turn on' }).click();
      // The page asked for opens in place, its data read at aal2.
      await expect(page.getByRole('heading', { level: 1, name: 'Leads' })).toBeVisible();
      await expect(page).toHaveURL('/admin/leads');
      await expect.poll(async () => (await storedSession(page))?.claims.aal).toBe('aal2');

      // The next sign-in asks for the code after the password.
      await signOutWithMenu(page, fullName);
      await expect(page).toHaveURL(/\/auth\?notice=signed-out$/);
      await submitSignIn(page, { ...admin, totpSecret: secret });
      await expect(page).toHaveURL('/admin');
      await expect(page.getByRole('heading', { level: 1, name: 'Cervana admin' })).toBeVisible();
      // The one failed request is the wrong code's answer (422), which the page put in words.
      expect(errors).toEqual([
        'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
      ]);
    });
  });
}
