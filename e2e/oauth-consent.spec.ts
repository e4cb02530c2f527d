import { createHash, randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import {
  adminClient,
  appUrl,
  createUser,
  serverKeys,
  signedInClient,
  uniqueEmail,
} from './auth-support';
import { expectDashboard, signIn } from './auth-pages';

/**
 * The OAuth 2.1 server from a third-party app's side and from its user's: the
 * app sends the browser to /auth/v1/oauth/authorize with a PKCE challenge, the
 * person allows it on the site's consent page, the app exchanges the code and
 * reads the person's data under RLS, and the person removes its access in
 * account settings, after which the app's tokens stop working.
 */

const base64url = (bytes: Buffer) => bytes.toString('base64url');

async function tokenRequest(body: Record<string, string>) {
  const response = await fetch(`${appUrl()}/auth/v1/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test('an app asks, the person allows it, the app reads their data, and removing it ends its access', async ({
  page,
}) => {
  const callback = 'http://localhost:8765/oauth/callback';
  const admin = await adminClient();
  const created = await admin.auth.admin.oauth.createClient({
    client_name: 'Acme Reports',
    redirect_uris: [callback],
    token_endpoint_auth_method: 'none',
  });
  expect(created.error).toBeNull();
  const clientId = created.data!.client_id;

  const user = await createUser({
    email: uniqueEmail('oauth-consent'),
    fullName: 'Margaret Hamilton',
    company: 'Apollo Guidance',
  });
  await signIn(page, user);
  await expectDashboard(page);

  // The app's request, as a browser follows it: to the consent page, with the app named.
  const verifier = base64url(randomBytes(32));
  const challenge = base64url(createHash('sha256').update(verifier).digest());
  const state = base64url(randomBytes(12));
  const authorize = new URL(`${appUrl()}/auth/v1/oauth/authorize`);
  for (const [key, value] of Object.entries({
    client_id: clientId,
    redirect_uri: callback,
    response_type: 'code',
    scope: 'email profile',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }))
    authorize.searchParams.set(key, value);
  // The app's callback, answered in the browser: its URL carries the code.
  await page.route(`${callback}**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<p>Acme Reports</p>' }),
  );
  await page.goto(authorize.toString());
  await expect(page).toHaveURL(/\/oauth\/consent\?authorization_id=/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Allow Acme Reports to use your account?' }),
  ).toBeVisible();
  await expect(page.getByText(user.email)).toBeVisible();
  await expect(page.getByText('See your email address')).toBeVisible();
  await expect(page.getByText('See your name and profile')).toBeVisible();
  await expect(page.getByText('localhost:8765')).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL(`${callback}**`);
  const back = new URL(page.url());
  expect(back.searchParams.get('state')).toBe(state);
  const code = back.searchParams.get('code');
  expect(code).toBeTruthy();

  // The app exchanges the code with its verifier, and reads the person's profile under RLS.
  const tokens = await tokenRequest({
    grant_type: 'authorization_code',
    code: code!,
    redirect_uri: callback,
    client_id: clientId,
    code_verifier: verifier,
  });
  expect(tokens.status).toBe(200);
  const token = tokens.body.access_token as string;
  const { anonKey } = await serverKeys();
  const profiles = await fetch(`${appUrl()}/rest/v1/profiles?select=full_name`, {
    headers: { apikey: anonKey, Authorization: `Bearer ${token}` },
  });
  expect(profiles.status).toBe(200);
  expect(await profiles.json()).toEqual([{ full_name: 'Margaret Hamilton' }]);

  // Account settings list the app; removing it ends the app's access at once.
  await page.goto('/dashboard/settings');
  const apps = page.getByRole('region', { name: 'Connected apps' });
  await expect(apps.getByRole('list', { name: 'Apps with access' })).toContainText('Acme Reports');
  await apps.getByRole('button', { name: 'Remove access' }).click();
  await page
    .getByRole('dialog', { name: 'Remove Acme Reports’s access?' })
    .getByRole('button', { name: 'Remove access' })
    .click();
  await expect(apps.getByText('No apps are connected to your account.')).toBeVisible();
  const after = await fetch(`${appUrl()}/rest/v1/profiles?select=full_name`, {
    headers: { apikey: anonKey, Authorization: `Bearer ${token}` },
  });
  expect(after.status).toBe(401);
});

test('a consent link that is incomplete or expired says so, and Deny returns access_denied', async ({
  page,
}) => {
  const user = await createUser({
    email: uniqueEmail('oauth-deny'),
    fullName: 'Katherine Johnson',
  });
  await signIn(page, user);
  await expectDashboard(page);
  await page.goto('/oauth/consent');
  await expect(page.getByRole('heading', { name: 'This link is incomplete' })).toBeVisible();
  await page.goto('/oauth/consent?authorization_id=00000000-0000-4000-8000-000000000000');
  await expect(page.getByText(/expired or was already answered/)).toBeVisible();

  const callback = 'http://localhost:8766/cb';
  const admin = await adminClient();
  const created = await admin.auth.admin.oauth.createClient({
    client_name: 'Nosy Widget',
    redirect_uris: [callback],
    token_endpoint_auth_method: 'none',
  });
  const challenge = base64url(createHash('sha256').update('x'.repeat(43)).digest());
  await page.route(`${callback}**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<p>Nosy Widget</p>' }),
  );
  await page.goto(
    `${appUrl()}/auth/v1/oauth/authorize?client_id=${created.data!.client_id}&redirect_uri=${encodeURIComponent(callback)}&response_type=code&state=s1&code_challenge=${challenge}&code_challenge_method=S256`,
  );
  await page.getByRole('button', { name: 'Deny' }).click();
  await page.waitForURL(`${callback}**`);
  const back = new URL(page.url());
  expect(back.searchParams.get('error')).toBe('access_denied');
  expect(back.searchParams.get('state')).toBe('s1');
});

test('a workspace owner sees the app a teammate allowed on the team page, and removes its access', async ({
  page,
}) => {
  const callback = 'http://localhost:8767/cb';
  const admin = await adminClient();
  const created = await admin.auth.admin.oauth.createClient({
    client_name: 'Ledger Sync',
    redirect_uris: [callback],
    token_endpoint_auth_method: 'none',
  });
  expect(created.error).toBeNull();
  const clientId = created.data!.client_id;
  const owner = await createUser({ fullName: 'Grace Hopper', company: 'Cobol Works' });
  const teammate = await createUser({ fullName: 'Jean Sammet' });
  const { data: membership } = await admin
    .from('workspace_members')
    .select('workspace_id')
    .eq('user_id', owner.id)
    .single();
  const added = await admin
    .from('workspace_members')
    .insert({ workspace_id: membership!.workspace_id, user_id: teammate.id, role: 'member' });
  expect(added.error).toBeNull();

  // The teammate allows the app (as their browser would), and the app gets a token.
  const verifier = base64url(randomBytes(32));
  const challenge = base64url(createHash('sha256').update(verifier).digest());
  const authorize = await fetch(
    `${appUrl()}/auth/v1/oauth/authorize?${new URLSearchParams({
      client_id: clientId,
      redirect_uri: callback,
      response_type: 'code',
      scope: 'email profile',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })}`,
    { redirect: 'manual' },
  );
  const authorizationId = new URL(authorize.headers.get('location')!).searchParams.get(
    'authorization_id',
  )!;
  const teammateClient = await signedInClient(teammate);
  // The consent page reads the request first; that makes it the teammate's.
  expect(
    (await teammateClient.auth.oauth.getAuthorizationDetails(authorizationId)).error,
  ).toBeNull();
  const approved = await teammateClient.auth.oauth.approveAuthorization(authorizationId, {
    skipBrowserRedirect: true,
  });
  expect(approved.error).toBeNull();
  const code = new URL(approved.data!.redirect_url).searchParams.get('code')!;
  const tokens = await tokenRequest({
    grant_type: 'authorization_code',
    code,
    client_id: clientId,
    code_verifier: verifier,
  });
  expect(tokens.status).toBe(200);
  const { anonKey } = await serverKeys();
  const read = () =>
    fetch(`${appUrl()}/rest/v1/profiles?select=full_name`, {
      headers: { apikey: anonKey, Authorization: `Bearer ${tokens.body.access_token as string}` },
    });
  expect((await read()).status).toBe(200);

  // The owner sees it on the team page, with who allowed it, and removes it.
  await signIn(page, owner);
  await expectDashboard(page);
  await page.goto('/dashboard/team');
  const apps = page.getByRole('region', { name: 'Connected apps' });
  const row = apps.getByRole('listitem', { name: 'Ledger Sync, allowed by Jean Sammet' });
  await expect(row).toContainText(teammate.email.toLowerCase());
  await row.getByRole('button', { name: 'Remove access' }).click();
  await page
    .getByRole('dialog', { name: 'Remove Ledger Sync’s access?' })
    .getByRole('button', { name: 'Remove access' })
    .click();
  await expect(page.getByText('Ledger Sync no longer has Jean Sammet’s access.')).toBeVisible();
  await expect(apps.getByText('No member has connected an app.')).toBeVisible();
  expect((await read()).status).toBe(401);
});
