import { expect, type Locator, type Page } from '@playwright/test';
import { decodeJwt, type JWTPayload } from 'jose';
import { totpCode } from './auth-support';

/**
 * Page-side helpers for the auth specs: the steps a person takes on /auth and
 * in the portal's account menu, and the session the official client stored.
 */

export interface Credentials {
  email: string;
  password: string;
  /** A verified authenticator app's secret: sign-in then asks for its code, which is entered. */
  totpSecret?: string;
}

/** The /auth URL a signed-out visit to `path` is sent to. */
export function signInUrlFor(path: string): RegExp {
  const escaped = encodeURIComponent(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`/auth\\?next=${escaped}$`);
}

/** Fills the password sign-in form on the page (already at /auth) and submits it. */
export async function submitSignIn(
  page: Page,
  { email, password, totpSecret }: Credentials,
): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Cervana' })).toBeVisible();
  await page.getByLabel('Email or phone number').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  if (totpSecret) await enterAuthenticationCode(page, totpSecret);
}

/** The second step of signing in: the code of the authenticator app. */
export async function enterAuthenticationCode(page: Page, secret: string): Promise<void> {
  await expect(
    page.getByRole('heading', { level: 1, name: 'Enter your authentication code' }),
  ).toBeVisible();
  await page.getByLabel('Authentication code').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** Opens /auth and signs in with a password. */
export async function signIn(page: Page, user: Credentials, path = '/auth'): Promise<void> {
  await page.goto(path);
  await submitSignIn(page, user);
}

/**
 * The account menu's trigger in the portal header. Its accessible name is the
 * user's name on wider screens and "Account menu for <name>" on phones, so it
 * is found by the name, which both contain.
 */
export function accountMenu(page: Page, name: string): Locator {
  return page.getByRole('banner').getByRole('button', { name });
}

/** Signs out through the account menu. */
export async function signOutWithMenu(page: Page, name: string): Promise<void> {
  await accountMenu(page, name).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
}

/** The heading and greeting of the dashboard of a user with a name and company. */
export async function expectDashboard(
  page: Page,
  profile?: { fullName: string; company: string },
): Promise<void> {
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Your phone agent at a glance' }),
  ).toBeVisible();
  if (profile) {
    const main = page.getByRole('main');
    await expect(main.getByText(`Welcome, ${profile.fullName}.`)).toBeVisible();
    await expect(main.locator('strong', { hasText: profile.company })).toHaveText(profile.company);
  }
}

/** The session the official client stored in this page's origin, or null. */
export async function storedSession(
  page: Page,
): Promise<{ accessToken: string; claims: JWTPayload & Record<string, unknown> } | null> {
  const raw = await page.evaluate(() => {
    for (let index = 0; index < localStorage.length; index += 1) {
      const key = localStorage.key(index) ?? '';
      if (/^sb-.+-auth-token$/.test(key)) return localStorage.getItem(key);
    }
    return null;
  });
  if (!raw) return null;
  const accessToken = (JSON.parse(raw) as { access_token: string }).access_token;
  return { accessToken, claims: decodeJwt(accessToken) };
}
