import { expect, test, type Page } from '@playwright/test';
import { e2eServers } from '../playwright.config';
import { createUser, uniqueEmail } from './auth-support';
import { expectDashboard, signIn, signOutWithMenu, storedSession } from './auth-pages';
import { phoneAndDesktop } from './support';

/**
 * Passkeys on /auth and in account settings, with Chromium's virtual
 * authenticator (a platform authenticator that verifies the user at once).
 * WebAuthn refuses an IP address as relying party, so these pages are opened
 * at `localhost`, the relying party the E2E server is configured with.
 */
const localhostUrl = e2eServers.main.url.replace('127.0.0.1', 'localhost');
test.use({ baseURL: localhostUrl });

async function addVirtualAuthenticator(
  page: Page,
  transport: 'internal' | 'usb' = 'internal',
): Promise<() => Promise<number>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport,
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length;
}

for (const viewport of phoneAndDesktop) {
  test.describe(`passkeys at ${viewport.width}×${viewport.height}`, () => {
    test.use({
      viewport: { width: viewport.width, height: viewport.height },
      baseURL: localhostUrl,
    });

    test('a passkey added in settings signs in on /auth, shows when it was used, and is removed', async ({
      page,
    }) => {
      const credentialsOnDevice = await addVirtualAuthenticator(page);
      const user = await createUser({
        email: uniqueEmail(`passkey-${viewport.name}`),
        fullName: 'Grace Hopper',
      });
      await signIn(page, user);
      await expectDashboard(page);
      await page.goto('/dashboard/settings');
      const passkeys = page.getByRole('region', { name: 'Passkeys' });
      await expect(passkeys.getByText('You have no passkeys yet.')).toBeVisible();

      // A name longer than the server keeps is refused at the field.
      await passkeys.getByLabel('Name for a new passkey (optional)').fill('x'.repeat(121));
      await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
      await expect(passkeys.getByText('Use at most 120 characters.')).toBeVisible();
      expect(await credentialsOnDevice()).toBe(0);

      await passkeys.getByLabel('Name for a new passkey (optional)').fill('Work laptop');
      await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
      await expect(page.getByText('Passkey added. You can sign in with it now.')).toBeVisible();
      const list = passkeys.getByRole('list', { name: 'Your passkeys' });
      await expect(list.getByRole('listitem')).toHaveCount(1);
      await expect(list.getByText('Work laptop')).toBeVisible();
      await expect(list.getByText(/not used yet/)).toBeVisible();
      expect(await credentialsOnDevice()).toBe(1);

      await list.getByRole('button', { name: 'Rename' }).click();
      await list.getByLabel('Name').fill('Home laptop');
      await list.getByRole('button', { name: 'Save name' }).click();
      await expect(list.getByText('Home laptop')).toBeVisible();
      await page.reload();
      await expect(passkeys.getByRole('list', { name: 'Your passkeys' })).toContainText(
        'Home laptop',
      );

      // Signed out, the passkey alone signs in.
      await signOutWithMenu(page, 'Grace Hopper');
      await page.goto('/auth');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expectDashboard(page);
      await page.goto('/dashboard/settings');
      await expect(passkeys.getByText(/last used/)).toBeVisible();

      await passkeys.getByRole('button', { name: 'Remove' }).click();
      await page
        .getByRole('dialog', { name: 'Remove “Home laptop”?' })
        .getByRole('button', { name: 'Remove passkey' })
        .click();
      await expect(passkeys.getByText('You have no passkeys yet.')).toBeVisible();

      // The device still holds the credential; the server no longer accepts it.
      await signOutWithMenu(page, 'Grace Hopper');
      await page.goto('/auth');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expect(page.getByRole('alert')).toContainText(/not accepted|no longer on your account/);
      await expect(page).toHaveURL(/\/auth/);
    });
  });
}

test('a security key added in settings is asked for after the password, and raises the session to aal2', async ({
  page,
}) => {
  // A roaming key (USB): security keys are asked for as cross-platform authenticators.
  await addVirtualAuthenticator(page, 'usb');
  const user = await createUser({ email: uniqueEmail('security-key'), fullName: 'Radia Perlman' });
  await signIn(page, user);
  await expectDashboard(page);
  await page.goto('/dashboard/settings');
  const keys = page.getByRole('region', { name: 'Security keys' });
  await expect(keys.getByText('No security keys yet.')).toBeVisible();
  await keys.getByLabel('Name for a new key (optional)').fill('Desk key');
  await keys.getByRole('button', { name: 'Add a security key' }).click();
  await expect(
    page.getByText('Security key added. Signing in will ask for it after your password.'),
  ).toBeVisible();
  await expect(keys.getByRole('list', { name: 'Your security keys' })).toContainText('Desk key');
  await expect(
    page
      .getByRole('region', { name: 'Two-factor authentication' })
      .getByText('No authenticator app. Your security key confirms your sign-ins.'),
  ).toBeVisible();
  expect((await storedSession(page))?.claims.aal).toBe('aal2');

  await signOutWithMenu(page, 'Radia Perlman');
  await signIn(page, user);
  await expect(page.getByRole('heading', { name: 'Confirm with your security key' })).toBeVisible();
  await page.getByRole('button', { name: 'Use your security key' }).click();
  await expectDashboard(page);
  expect((await storedSession(page))?.claims.aal).toBe('aal2');
});

test('with no authenticator, passkey sign-in says so and the password form still works', async ({
  page,
}) => {
  await page.goto('/auth');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  // An authenticator that refuses to verify the user: the browser's prompt fails as if cancelled.
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: false,
      automaticPresenceSimulation: true,
    },
  });
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert')).toContainText(/No passkey was used|not accepted/);
  await expect(page.getByLabel('Email or phone number')).toBeEditable();
});
