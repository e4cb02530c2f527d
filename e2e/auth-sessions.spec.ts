import { expect, test } from '@playwright/test';
import { appUrl, createUser, uniqueEmail } from './auth-support';
import { followPortalLink } from './support';
import {
  expectDashboard,
  signIn,
  signInUrlFor,
  signOutWithMenu,
  storedSession,
} from './auth-pages';

/** A session over time and across tabs: token refresh, and signing out elsewhere. */

test('a session outlives its first access token: the client refreshes it and the app stays signed in', async ({
  page,
}) => {
  // 100-second access tokens (the `short` server); the wait is for the first one to expire.
  test.setTimeout(180_000);
  const profile = { fullName: 'Mary Jackson', company: 'Wind Tunnel Co' };
  const user = await createUser({ server: 'short', email: uniqueEmail('refresh'), ...profile });
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });

  await signIn(page, user, `${appUrl('short')}/auth`);
  await expectDashboard(page, profile);
  const first = await storedSession(page);
  expect(first).not.toBeNull();
  const firstExpiry = first!.claims.exp!;
  expect(firstExpiry - first!.claims.iat!).toBe(100);

  await followPortalLink(page, 'Account settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();

  // Wait out the first token, a few seconds past its expiry.
  await expect
    .poll(() => Date.now() / 1000, { timeout: 150_000, intervals: [2000] })
    .toBeGreaterThan(firstExpiry + 5);

  // Still signed in on the protected page, with a newer token that has not expired.
  await expect(page).toHaveURL(`${appUrl('short')}/dashboard/settings`);
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
  const current = await storedSession(page);
  expect(current?.accessToken).not.toBe(first!.accessToken);
  expect(current!.claims.exp!).toBeGreaterThan(Date.now() / 1000);
  expect(current!.claims.session_id).toBe(first!.claims.session_id);

  // A fresh load of a protected page goes straight in.
  await page.goto(`${appUrl('short')}/dashboard`);
  await expectDashboard(page, profile);
  // Never sent back to sign in on the way (the first /auth visit has no next=).
  expect(visited.filter((url) => new URL(url).searchParams.has('next'))).toEqual([]);
});

test('signing out in one tab signs out the other tab of the same browser, without a reload', async ({
  context,
}) => {
  const profile = { fullName: 'Radia Perlman', company: 'Spanning Tree Inc' };
  const user = await createUser({ email: uniqueEmail('two-tabs'), ...profile });
  const tabA = await context.newPage();
  const tabB = await context.newPage();

  await signIn(tabA, user);
  await expectDashboard(tabA, profile);
  await tabB.goto('/dashboard');
  await expectDashboard(tabB, profile);
  // Marks this document: a reload would lose it.
  await tabB.evaluate(() => Object.assign(window, { e2eSameDocument: true }));

  await signOutWithMenu(tabA, profile.fullName);
  await expect(tabA).toHaveURL(/\/auth\?notice=signed-out$/);

  await expect(tabB).toHaveURL(signInUrlFor('/dashboard'));
  await expect(tabB.getByRole('heading', { level: 1, name: 'Sign in to Cervana' })).toBeVisible();
  expect(await tabB.evaluate(() => 'e2eSameDocument' in window)).toBe(true);
  expect(await storedSession(tabB)).toBeNull();
});
