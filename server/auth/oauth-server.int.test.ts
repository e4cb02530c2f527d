import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { totpCode } from '../schema/test-world';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';
import {
  CALLBACK,
  OAUTH_ENV as ENV,
  PASSWORD,
  authorizePath,
  claimsOf,
  oauthFlow,
  pkce,
} from './testing/oauth-flow';

/**
 * The OAuth 2.1 server (decision 041) over real HTTP: clients through the
 * official admin API, the consent side through the official user client, and
 * the client's own requests (authorize, token) with plain fetch, as a
 * third-party application makes them.
 */

let server: TestServer;
/** The same database, served with the OAuth server switched off. */
let off: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: ENV });
  off = await startTestServer({
    env: { ...ENV, OAUTH_SERVER_ENABLED: 'false' },
    database: server.db,
  });
});
afterAll(async () => {
  await off?.close();
  await server?.close();
});

const { admin, raw, signedInUser, newClient, authorize, approvedCode, token, appAccessToken } =
  oauthFlow(() => server);

describe('OAuth clients (admin API)', () => {
  it('creates, lists, reads, updates, regenerates and deletes clients; the secret is shown once and stored hashed', async () => {
    const created = await admin().oauth.createClient({
      client_name: 'Reporting tool',
      client_uri: 'https://reports.example.com',
      redirect_uris: ['https://reports.example.com/cb', 'http://localhost:4000/cb'],
    });
    expect(created.error).toBeNull();
    const client = created.data!;
    expect(client).toMatchObject({
      client_type: 'confidential',
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'Reporting tool',
      client_uri: 'https://reports.example.com',
      redirect_uris: ['https://reports.example.com/cb', 'http://localhost:4000/cb'],
      registration_type: 'manual',
    });
    expect(client.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { rows } = await server.db.query<{ client_secret_hash: string }>(
      `select client_secret_hash from auth.oauth_clients where id = $1`,
      [client.client_id],
    );
    expect(rows[0]!.client_secret_hash).not.toContain(client.client_secret);
    expect(rows[0]!.client_secret_hash).toBe(
      createHash('sha256').update(client.client_secret!).digest('base64url'),
    );

    const fetched = await admin().oauth.getClient(client.client_id);
    expect(fetched.data).toMatchObject({
      client_id: client.client_id,
      client_name: 'Reporting tool',
    });
    expect(fetched.data).not.toHaveProperty('client_secret');

    const updated = await admin().oauth.updateClient(client.client_id, {
      client_name: 'Reporting tool v2',
      redirect_uris: ['https://reports.example.com/callback'],
    });
    expect(updated.error).toBeNull();
    expect(updated.data).toMatchObject({
      client_name: 'Reporting tool v2',
      redirect_uris: ['https://reports.example.com/callback'],
      client_uri: 'https://reports.example.com',
    });

    const regenerated = await admin().oauth.regenerateClientSecret(client.client_id);
    expect(regenerated.data?.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(regenerated.data?.client_secret).not.toBe(client.client_secret);

    const publicClient = await admin().oauth.createClient({
      client_name: 'CLI',
      redirect_uris: ['http://127.0.0.1:8976/cb'],
      token_endpoint_auth_method: 'none',
    } as never);
    expect(publicClient.data).toMatchObject({
      client_type: 'public',
      token_endpoint_auth_method: 'none',
    });
    expect(publicClient.data).not.toHaveProperty('client_secret');
    const noSecret = await admin().oauth.regenerateClientSecret(publicClient.data!.client_id);
    expect(noSecret.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Cannot regenerate secret for public client',
    });

    const listed = await admin().oauth.listClients({ page: 1, perPage: 1 });
    expect(listed.error).toBeNull();
    expect(listed.data.clients).toHaveLength(1);
    expect(listed.data.clients[0]!.client_id).toBe(publicClient.data!.client_id);
    const all = await raw('/admin/oauth/clients?page=1&per_page=1', {
      headers: { Authorization: `Bearer ${server.serviceRoleKey}` },
    });
    const total = Number(all.response.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(2);
    expect(all.response.headers.get('link')).toBe(
      `</admin/oauth/clients?page=2&per_page=1>; rel="next", </admin/oauth/clients?page=${total}&per_page=1>; rel="last"`,
    );

    expect((await admin().oauth.deleteClient(client.client_id)).error).toBeNull();
    expect((await admin().oauth.getClient(client.client_id)).error).toMatchObject({
      status: 404,
      code: 'oauth_client_not_found',
      message: 'OAuth client not found',
    });
    const after = await admin().oauth.listClients({ page: 1, perPage: 1000 });
    expect(after.data.clients.map((item) => item.client_id)).not.toContain(client.client_id);
  });

  it('refuses bad redirect URIs, including open-redirect and script schemes', async () => {
    for (const [uri, message] of [
      ['javascript:alert(1)//x', "scheme 'javascript' is not allowed for security reasons"],
      ['data:text/html,hi', "scheme 'data' is not allowed for security reasons"],
      ['http://partner.example.com/cb', 'HTTP scheme only allowed for localhost'],
      ['https://partner.example.com/cb#frag', 'fragment not allowed in redirect URI'],
      ['/relative/cb', 'invalid URL format'],
      ['https://user:pw@partner.example.com/cb', 'credentials not allowed in redirect URI'],
    ] as const) {
      const { error } = await admin().oauth.createClient({
        client_name: 'x',
        redirect_uris: [uri],
      });
      expect(error, uri).toMatchObject({ status: 400, code: 'validation_failed' });
      expect(error?.message, uri).toContain(message);
    }
    const none = await admin().oauth.createClient({ client_name: 'x', redirect_uris: [] });
    expect(none.error).toMatchObject({ status: 400, message: 'redirect_uris is required' });
    const tooMany = await admin().oauth.createClient({
      client_name: 'x',
      redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example.com/${i}`),
    });
    expect(tooMany.error).toMatchObject({ message: 'redirect_uris cannot exceed 10 items' });
    const inconsistent = await admin().oauth.createClient({
      client_name: 'x',
      redirect_uris: [CALLBACK],
      client_type: 'public',
      token_endpoint_auth_method: 'client_secret_post',
    } as never);
    expect(inconsistent.error?.message).toContain("client_type 'public' is inconsistent");
    const { id } = await newClient();
    const badUpdate = await admin().oauth.updateClient(id, {
      redirect_uris: ['http://partner.example.com/cb'],
    });
    expect(badUpdate.error).toMatchObject({ status: 400, code: 'validation_failed' });
    const emptyUpdate = await admin().oauth.updateClient(id, {});
    expect(emptyUpdate.error).toMatchObject({ message: 'No fields provided for update' });
  });

  it('answers unknown and malformed ids, malformed and oversized bodies in GoTrue shapes', async () => {
    expect((await admin().oauth.getClient(randomUUID())).error).toMatchObject({
      status: 404,
      code: 'oauth_client_not_found',
    });
    expect((await admin().oauth.getClient('not-a-uuid')).error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'invalid client_id format',
    });
    const auth = {
      Authorization: `Bearer ${server.serviceRoleKey}`,
      'Content-Type': 'application/json',
    };
    const malformed = await raw('/admin/oauth/clients', {
      method: 'POST',
      headers: auth,
      body: '{"redirect_uris": [',
    });
    expect(malformed.response.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'bad_json' });
    const wrongType = await raw('/admin/oauth/clients', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ redirect_uris: 'https://a.example.com/cb' }),
    });
    expect(wrongType.response.status).toBe(400);
    expect(wrongType.body).toMatchObject({ code: 'validation_failed' });
    const huge = await raw('/admin/oauth/clients', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ redirect_uris: [CALLBACK], client_name: 'x'.repeat(300 * 1024) }),
    });
    expect(huge.response.status).toBe(413);
    expect(huge.body).toMatchObject({ code: 'request_entity_too_large' });
    const longName = await admin().oauth.createClient({
      client_name: 'x'.repeat(1025),
      redirect_uris: [CALLBACK],
    });
    expect(longName.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('refuses the admin API to anyone but the service role', async () => {
    const { supabase } = await signedInUser();
    const { data } = await supabase.auth.getSession();
    const asUser = clientFor(server, {
      global: { headers: { Authorization: `Bearer ${data.session!.access_token}` } },
    }).auth.admin;
    expect((await asUser.oauth.listClients()).error).toMatchObject({
      status: 403,
      code: 'not_admin',
    });
    const anon = clientFor(server).auth.admin;
    expect(
      (await anon.oauth.createClient({ client_name: 'x', redirect_uris: [CALLBACK] })).error,
    ).toMatchObject({ status: 403, code: 'not_admin' });
    const { id } = await newClient();
    expect((await anon.oauth.deleteClient(id)).error).toMatchObject({ status: 403 });
    expect((await admin().oauth.getClient(id)).error).toBeNull();
    const noToken = await raw('/admin/oauth/clients');
    expect(noToken.response.status).toBe(401);
  });

  it('registers clients dynamically (RFC 7591), rate-limited per address', async () => {
    const register = (body: unknown) =>
      raw('/oauth/clients/register', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const first = await register({
      client_name: 'MCP tool',
      redirect_uris: ['http://localhost:3333/callback'],
      token_endpoint_auth_method: 'none',
    });
    expect(first.response.status).toBe(201);
    expect(first.body).toMatchObject({
      client_type: 'public',
      registration_type: 'dynamic',
      token_endpoint_auth_method: 'none',
    });
    const bad = await register({ redirect_uris: ['javascript:alert(1)'] });
    expect(bad.response.status).toBe(400);
    let last = bad;
    for (let i = 0; i < 3; i += 1) last = await register({ redirect_uris: [CALLBACK] });
    expect(last.response.status).toBe(429);
    expect(last.body).toMatchObject({ code: 'over_request_rate_limit' });
  });
});

describe('authorization code with PKCE', () => {
  it('publishes its metadata (RFC 8414): S256 only, the endpoints under /auth/v1', async () => {
    const { response, body } = await raw('/.well-known/oauth-authorization-server');
    expect(response.status).toBe(200);
    const base = `${server.config.auth.apiUrl.replace(/\/$/, '')}/auth/v1`;
    expect(body).toMatchObject({
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/clients/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('runs the whole flow: authorize, consent, code, data API under RLS, refresh, grant revoked', async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const { id: clientId, secret } = await newClient();
    const { verifier, challenge } = pkce();

    const authorizationId = await authorize(clientId, challenge);
    const details = await owner.supabase.auth.oauth.getAuthorizationDetails(authorizationId);
    expect(details.error).toBeNull();
    expect(details.data).toEqual({
      authorization_id: authorizationId,
      redirect_uri: CALLBACK,
      client: { id: clientId, name: 'Partner app' },
      user: { id: owner.id, email: owner.email },
      scope: 'email profile',
    });
    // Another signed-in user cannot read or answer someone else's request.
    const stolen = await other.supabase.auth.oauth.getAuthorizationDetails(authorizationId);
    expect(stolen.error).toMatchObject({ status: 404, code: 'oauth_authorization_not_found' });
    const stolenApprove = await other.supabase.auth.oauth.approveAuthorization(authorizationId, {
      skipBrowserRedirect: true,
    });
    expect(stolenApprove.error).toMatchObject({ status: 404 });

    const approved = await owner.supabase.auth.oauth.approveAuthorization(authorizationId, {
      skipBrowserRedirect: true,
    });
    expect(approved.error).toBeNull();
    const back = new URL(approved.data!.redirect_url);
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    expect(back.searchParams.get('state')).toBe('xyz-state');
    const code = back.searchParams.get('code')!;
    // Answered once: a second approval is refused.
    const again = await owner.supabase.auth.oauth.approveAuthorization(authorizationId, {
      skipBrowserRedirect: true,
    });
    expect(again.error).toMatchObject({ status: 400, code: 'validation_failed' });

    const exchanged = await token(
      { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK },
      { basic: [clientId, secret!] },
    );
    expect(exchanged.response.status).toBe(200);
    expect(exchanged.response.headers.get('cache-control')).toBe('no-store');
    const tokens = exchanged.body as {
      access_token: string;
      refresh_token: string;
      token_type: string;
      expires_in: number;
    };
    expect(Object.keys(tokens).sort()).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'token_type',
    ]);
    expect(tokens.token_type).toBe('bearer');
    const claims = claimsOf(tokens.access_token);
    expect(claims).toMatchObject({
      sub: owner.id,
      role: 'authenticated',
      client_id: clientId,
      scope: 'email profile',
      amr: [expect.objectContaining({ method: 'oauth_provider/authorization_code' })],
    });

    // The client's token reads the data API as the user, under the same policies.
    const asApp = clientFor(server, {
      global: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    });
    const mine = await asApp.from('profiles').select('id').eq('id', owner.id);
    expect(mine.error).toBeNull();
    expect(mine.data).toEqual([{ id: owner.id }]);
    const theirs = await asApp.from('profiles').select('id').eq('id', other.id);
    expect(theirs.data).toEqual([]);
    const viaAuth = await asApp.auth.getUser(tokens.access_token);
    expect(viaAuth.data.user?.id).toBe(owner.id);

    // Refresh: only at /oauth/token, only by this client.
    const refreshed = await token(
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      { basic: [clientId, secret!] },
    );
    expect(refreshed.response.status).toBe(200);
    const next = refreshed.body as { access_token: string; refresh_token: string };
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect(claimsOf(next.access_token)).toMatchObject({
      client_id: clientId,
      scope: 'email profile',
    });
    const viaUserEndpoint = await owner.supabase.auth.refreshSession({
      refresh_token: next.refresh_token,
    });
    expect(viaUserEndpoint.error).toMatchObject({ status: 400 });
    const otherClient = await newClient();
    const wrongClient = await token(
      { grant_type: 'refresh_token', refresh_token: next.refresh_token },
      { basic: [otherClient.id, otherClient.secret!] },
    );
    expect(wrongClient.body).toEqual({
      error: 'invalid_client',
      error_description: "Client does not match the session's OAuth client",
    });
    // Nor may a client refresh the user's own session.
    const { data: ownSession } = await owner.supabase.auth.getSession();
    const hijack = await token(
      { grant_type: 'refresh_token', refresh_token: ownSession.session!.refresh_token },
      { basic: [clientId, secret!] },
    );
    expect(hijack.body).toMatchObject({ error: 'invalid_client' });

    // The user sees the grant and revokes it.
    const grants = await owner.supabase.auth.oauth.listGrants();
    expect(grants.error).toBeNull();
    expect(grants.data).toEqual([
      {
        client: { id: clientId, name: 'Partner app' },
        scopes: ['email', 'profile'],
        granted_at: expect.any(String),
      },
    ]);
    expect((await other.supabase.auth.oauth.listGrants()).data).toEqual([]);
    // Someone else cannot revoke it for them.
    const notTheirs = await other.supabase.auth.oauth.revokeGrant({ clientId });
    expect(notTheirs.error).toMatchObject({ status: 404, code: 'oauth_consent_not_found' });

    expect((await owner.supabase.auth.oauth.revokeGrant({ clientId })).error).toBeNull();
    expect((await owner.supabase.auth.oauth.listGrants()).data).toEqual([]);
    const refused = await token(
      { grant_type: 'refresh_token', refresh_token: next.refresh_token },
      { basic: [clientId, secret!] },
    );
    expect(refused.response.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'refresh_token_not_found' });
    // The access token stops working at once on the data API too.
    const afterRevoke = await clientFor(server, {
      global: { headers: { Authorization: `Bearer ${next.access_token}` } },
    })
      .from('profiles')
      .select('id');
    expect(afterRevoke.error).not.toBeNull();
    // The user's own session is untouched.
    expect((await owner.supabase.auth.getUser()).data.user?.id).toBe(owner.id);
    const ownRefresh = await owner.supabase.auth.refreshSession();
    expect(ownRefresh.error).toBeNull();
    expect(claimsOf(ownRefresh.data.session!.access_token)).not.toHaveProperty('client_id');
  });

  it('approves at once when the user already granted the scopes, and a denial goes back as access_denied', async () => {
    const user = await signedInUser();
    const { id: clientId } = await newClient({ public: true });
    await approvedCode(user.supabase, clientId, pkce().challenge);
    // Second time: details answer with the redirect alone (consent remembered).
    const authorizationId = await authorize(clientId, pkce().challenge);
    const details = await user.supabase.auth.oauth.getAuthorizationDetails(authorizationId);
    expect(Object.keys(details.data!)).toEqual(['redirect_url']);
    expect(
      new URL((details.data as { redirect_url: string }).redirect_url).searchParams.get('code'),
    ).toBeTruthy();

    // More scopes than granted: asked again, and the grant grows.
    const widerId = await authorize(clientId, pkce().challenge, { scope: 'phone email' });
    const wider = await user.supabase.auth.oauth.getAuthorizationDetails(widerId);
    expect(wider.data).toMatchObject({ authorization_id: widerId, scope: 'phone email' });
    const widened = await user.supabase.auth.oauth.approveAuthorization(widerId, {
      skipBrowserRedirect: true,
    });
    expect(widened.error).toBeNull();
    expect((await user.supabase.auth.oauth.listGrants()).data).toEqual([
      expect.objectContaining({ scopes: ['email', 'phone', 'profile'] }),
    ]);

    const fresh = await signedInUser();
    const denyId = await authorize(clientId, pkce().challenge);
    await fresh.supabase.auth.oauth.getAuthorizationDetails(denyId);
    const denied = await fresh.supabase.auth.oauth.denyAuthorization(denyId, {
      skipBrowserRedirect: true,
    });
    const url = new URL(denied.data!.redirect_url);
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('xyz-state');
    expect(url.searchParams.get('code')).toBeNull();
    const bad = await fresh.supabase.auth.oauth.approveAuthorization(denyId, {
      skipBrowserRedirect: true,
    });
    expect(bad.error).toMatchObject({ status: 400 });
  });

  it('public clients exchange with client_id and verifier only; a secret from them is refused', async () => {
    const user = await signedInUser();
    const { id: clientId } = await newClient({ public: true });
    const { verifier, challenge } = pkce();
    const code = await approvedCode(user.supabase, clientId, challenge);
    const withSecret = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: clientId,
      client_secret: 'guess',
    });
    expect(withSecret.response.status).toBe(400);
    expect(withSecret.body).toMatchObject({ code: 'invalid_credentials' });
    const ok = await token(
      { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId },
      { json: true },
    );
    expect(ok.response.status).toBe(200);
  });

  it('lets an app’s token read who the user is, never manage the account', async () => {
    const user = await signedInUser();
    const { id: clientId } = await newClient({ public: true });
    const appToken = await appAccessToken(user.supabase, clientId);
    const { challenge } = pkce();
    const asApp = (path: string, init: RequestInit = {}) =>
      raw(path, {
        ...init,
        headers: {
          apikey: server.anonKey,
          Authorization: `Bearer ${appToken}`,
          'Content-Type': 'application/json',
        },
      });
    expect((await asApp('/user')).response.status).toBe(200);

    // Widening its own grant through the consent API, as a browser-less app would try.
    const widened = await raw(
      authorizePath({
        client_id: clientId,
        redirect_uri: CALLBACK,
        scope: 'openid email profile phone',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    const authorizationId = new URL(widened.response.headers.get('location')!).searchParams.get(
      'authorization_id',
    )!;
    const refused = { code: 'oauth_app_token_not_allowed' };
    for (const [path, init] of [
      [`/oauth/authorizations/${authorizationId}`, {}],
      [
        `/oauth/authorizations/${authorizationId}/consent`,
        { method: 'POST', body: JSON.stringify({ action: 'approve' }) },
      ],
      ['/user', { method: 'PUT', body: JSON.stringify({ password: 'a new passphrase 123' }) }],
      ['/factors', { method: 'POST', body: JSON.stringify({ factor_type: 'totp' }) }],
      ['/passkeys/registration/options', { method: 'POST', body: '{}' }],
      ['/passkeys', {}],
      ['/user/oauth/grants', {}],
      ['/reauthenticate', {}],
      ['/logout?scope=global', { method: 'POST' }],
    ] as const) {
      const { response, body } = await asApp(path, init);
      expect(response.status, path).toBe(403);
      expect(body, path).toMatchObject(refused);
    }
    // The person's own session is untouched, and the app may sign only itself out.
    expect((await user.supabase.auth.getUser()).error).toBeNull();
    expect((await asApp('/logout?scope=local', { method: 'POST' })).response.status).toBe(204);
    expect((await asApp('/user')).response.status).toBe(403);
    expect((await user.supabase.auth.getUser()).error).toBeNull();
  });

  it('starts the app’s session at the level the person approved it with (aal2 after both steps)', async () => {
    const user = await signedInUser();
    const enrolled = await user.supabase.auth.mfa.enroll({ factorType: 'totp' });
    expect(enrolled.error).toBeNull();
    const secret = enrolled.data!.totp!.secret;
    const raised = await user.supabase.auth.mfa.challengeAndVerify({
      factorId: enrolled.data!.id,
      code: totpCode(secret),
    });
    expect(raised.error).toBeNull();
    const { id: clientId } = await newClient({ public: true });
    const appSession = async (approver: SupabaseClient) => {
      const accessToken = await appAccessToken(approver, clientId);
      const app = clientFor(server, {
        global: { headers: { Authorization: `Bearer ${accessToken}` } },
      });
      const { data } = await app.from('profiles').select('id');
      return { aal: claimsOf(accessToken).aal, rows: data };
    };
    // Approved after both steps: the app reads the person's data under the second-factor policies.
    expect(await appSession(user.supabase)).toEqual({ aal: 'aal2', rows: [{ id: user.id }] });
    // Approved from a session that only gave the password: the policies hide every row.
    const passwordOnly = clientFor(server);
    const signedIn = await passwordOnly.auth.signInWithPassword({
      email: user.email,
      password: PASSWORD,
    });
    expect(signedIn.error).toBeNull();
    expect(await appSession(passwordOnly)).toEqual({ aal: 'aal1', rows: [] });
  });

  it('keeps an RFC 8707 resource with the request and refuses a code exchanged for another', async () => {
    // As an MCP client asks: a token for one resource server.
    const user = await signedInUser();
    const { id: clientId } = await newClient({ public: true });
    const resource = 'https://mcp.example.com/mcp';
    const exchange = async (extra: Record<string, string>) => {
      const { verifier, challenge } = pkce();
      const code = await approvedCode(user.supabase, clientId, challenge, { resource });
      const fields = { grant_type: 'authorization_code', code, code_verifier: verifier };
      return { fields, result: await token({ ...fields, client_id: clientId, ...extra }) };
    };
    const other = await exchange({ resource: 'https://other.example.com/mcp' });
    expect(other.result.response.status).toBe(400);
    expect(other.result.body).toMatchObject({
      error: 'invalid_grant',
      error_description: 'Authorization code resource does not match the resource parameter',
    });
    // The refused exchange did not spend the code: the right resource still gets a token.
    const retried = await token({ ...other.fields, client_id: clientId, resource });
    expect(retried.response.status).toBe(200);
    // Naming no resource at the exchange is allowed, as on GoTrue.
    expect((await exchange({})).result.response.status).toBe(200);

    const { challenge } = pkce();
    const refused = async (value: string) => {
      const { response } = await raw(
        authorizePath({
          client_id: clientId,
          redirect_uri: CALLBACK,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          resource: value,
        }),
      );
      expect(response.status, value).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
      expect(location.searchParams.get('error'), value).toBe('invalid_request');
      return location.searchParams.get('error_description');
    };
    expect(await refused('/mcp')).toBe('resource must be an absolute URI');
    expect(await refused('https://mcp.example.com/mcp#part')).toBe(
      'resource must not include a fragment component',
    );
    expect(await refused('https://mcp.example.com/mcp?tenant=1')).toBe(
      'resource must not include a query component',
    );
    expect(await refused(`https://mcp.example.com/${'a'.repeat(2048)}`)).toBe(
      'resource cannot exceed 2048 characters',
    );
  });

  it('confidential clients must authenticate with their registered method and current secret', async () => {
    const user = await signedInUser();
    const { id: clientId, secret } = await newClient();
    const { verifier, challenge } = pkce();
    const code = await approvedCode(user.supabase, clientId, challenge);
    const fields = { grant_type: 'authorization_code', code, code_verifier: verifier };
    const none = await token({ ...fields, client_id: clientId });
    expect(none.body).toMatchObject({ code: 'invalid_credentials' });
    const post = await token({ ...fields, client_id: clientId, client_secret: secret! });
    expect((post.body as { message: string }).message).toContain(
      "registered for 'client_secret_basic'",
    );
    const wrong = await token(fields, { basic: [clientId, `${secret}x`] });
    expect(wrong.body).toMatchObject({ code: 'invalid_credentials' });
    const anonymous = await token(fields);
    expect(anonymous.body).toEqual({
      error: 'invalid_client',
      error_description: 'Client authentication required',
    });
    // A regenerated secret replaces the old one.
    const regenerated = await admin().oauth.regenerateClientSecret(clientId);
    const old = await token(fields, { basic: [clientId, secret!] });
    expect(old.body).toMatchObject({ code: 'invalid_credentials' });
    const fresh = await token(fields, { basic: [clientId, regenerated.data!.client_secret!] });
    expect(fresh.response.status).toBe(200);
  });
});

describe('abuse', () => {
  it('refuses a wrong verifier, a reused code (ending its session), an expired code and another client’s code', async () => {
    const user = await signedInUser();
    const { id: clientId, secret } = await newClient();
    const basic: [string, string] = [clientId, secret!];
    const { verifier, challenge } = pkce();
    const code = await approvedCode(user.supabase, clientId, challenge);

    const wrongVerifier = await token(
      { grant_type: 'authorization_code', code, code_verifier: pkce().verifier },
      { basic },
    );
    expect(wrongVerifier.body).toEqual({
      error: 'invalid_grant',
      error_description: 'PKCE verification failed: code challenge does not match',
    });
    const noVerifier = await token({ grant_type: 'authorization_code', code }, { basic });
    expect(noVerifier.body).toMatchObject({ error: 'invalid_grant' });
    const wrongRedirect = await token(
      {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: 'https://partner.example.com/other',
      },
      { basic },
    );
    expect(wrongRedirect.body).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid redirect_uri',
    });

    const other = await newClient();
    const foreign = await token(
      { grant_type: 'authorization_code', code, code_verifier: verifier },
      { basic: [other.id, other.secret!] },
    );
    expect(foreign.body).toEqual({
      error: 'invalid_grant',
      error_description: 'Authorization code was not issued for this client',
    });

    const first = await token(
      { grant_type: 'authorization_code', code, code_verifier: verifier },
      { basic },
    );
    expect(first.response.status).toBe(200);
    const issued = first.body as { access_token: string; refresh_token: string };
    const reused = await token(
      { grant_type: 'authorization_code', code, code_verifier: verifier },
      { basic },
    );
    expect(reused.body).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid authorization code',
    });
    // The reuse ends what the first exchange issued (OAuth 2.1 §4.1.3).
    const afterReuse = await token(
      { grant_type: 'refresh_token', refresh_token: issued.refresh_token },
      { basic },
    );
    expect(afterReuse.response.status).toBe(400);
    expect(afterReuse.body).toMatchObject({ code: 'refresh_token_not_found' });

    const late = pkce();
    const lateCode = await approvedCode(user.supabase, clientId, late.challenge);
    await server.db.query(
      `update auth.oauth_authorizations set expires_at = now() - interval '1 second', created_at = now() - interval '11 minutes'
       where code_hash is not null and status = 'approved' and client_id = $1`,
      [clientId],
    );
    const expired = await token(
      { grant_type: 'authorization_code', code: lateCode, code_verifier: late.verifier },
      { basic },
    );
    expect(expired.body).toEqual({
      error: 'invalid_grant',
      error_description: 'Authorization code has expired',
    });
    const invented = await token(
      {
        grant_type: 'authorization_code',
        code: randomBytes(32).toString('base64url'),
        code_verifier: verifier,
      },
      { basic },
    );
    expect(invented.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('never redirects to an unregistered URI, and sends other mistakes back to the registered one', async () => {
    const { id: clientId } = await newClient();
    const { challenge } = pkce();
    const base = {
      client_id: clientId,
      redirect_uri: CALLBACK,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's1',
    };
    for (const redirect of [
      'https://evil.example.com/callback',
      `${CALLBACK}/../../evil`,
      `${CALLBACK}?next=https://evil.example.com`,
      'https://partner.example.com/callback#',
      'https://partner.example.com.evil.com/callback',
      'HTTPS://PARTNER.EXAMPLE.COM/callback',
    ]) {
      const { response, body } = await raw(authorizePath({ ...base, redirect_uri: redirect }));
      expect(response.status, redirect).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(body).toEqual({ code: 'validation_failed', message: 'invalid redirect_uri' });
    }
    const unknown = await raw(authorizePath({ ...base, client_id: randomUUID() }));
    expect(unknown.response.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'oauth_client_not_found' });
    expect(unknown.response.headers.get('location')).toBeNull();

    const back = async (params: Record<string, string>) => {
      const { response } = await raw(authorizePath(params));
      expect(response.status).toBe(302);
      return new URL(response.headers.get('location')!);
    };
    const plain = await back({ ...base, code_challenge_method: 'plain' });
    expect(`${plain.origin}${plain.pathname}`).toBe(CALLBACK);
    expect(plain.searchParams.get('error')).toBe('invalid_request');
    expect(plain.searchParams.get('error_description')).toBe(
      "code_challenge_method must be 'S256'",
    );
    expect(plain.searchParams.get('state')).toBe('s1');
    const { code_challenge: _omit, ...noChallenge } = base;
    expect((await back(noChallenge)).searchParams.get('error_description')).toBe(
      'PKCE flow requires both code_challenge and code_challenge_method',
    );
    expect((await back({ ...base, code_challenge: 'short' })).searchParams.get('error')).toBe(
      'invalid_request',
    );
    expect(
      (await back({ ...base, scope: 'email admin' })).searchParams.get('error_description'),
    ).toBe('unsupported scope: admin');
    expect(
      (await back({ ...base, response_type: 'token' })).searchParams.get('error_description'),
    ).toBe('only response_type=code is supported');
  });

  it('refuses malformed and oversized token requests, and unknown grant types', async () => {
    const { id: clientId, secret } = await newClient();
    const malformed = await raw('/oauth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"grant_type": ',
    });
    expect(malformed.response.status).toBe(400);
    expect(malformed.body).toEqual({
      error: 'invalid_request',
      error_description: 'Invalid JSON body',
    });
    const huge = await raw('/oauth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `grant_type=authorization_code&code=${'a'.repeat(20_000)}`,
    });
    expect(huge.response.status).toBe(413);
    const noGrant = await token({}, { basic: [clientId, secret!] });
    expect(noGrant.body).toEqual({
      error: 'invalid_request',
      error_description: 'grant_type is required',
    });
    const password = await token(
      { grant_type: 'password', username: 'a', password: 'b' },
      { basic: [clientId, secret!] },
    );
    expect(password.body).toMatchObject({ error: 'unsupported_grant_type' });
    const twice = await raw('/oauth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `grant_type=authorization_code&client_id=${clientId}&client_id=${randomUUID()}`,
    });
    expect(twice.body).toMatchObject({ error: 'invalid_request' });
    const badBasic = await raw('/oauth/token', {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from('no-colon').toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=authorization_code&code=x',
    });
    expect(badBasic.body).toMatchObject({ code: 'invalid_credentials' });
  });

  it('consent endpoints need a signed-in user, a real request and an allowed origin', async () => {
    const user = await signedInUser();
    const { id: clientId } = await newClient();
    const authorizationId = await authorize(clientId, pkce().challenge);
    const anonymous = await raw(`/oauth/authorizations/${authorizationId}`);
    expect(anonymous.response.status).toBe(401);
    const { data } = await user.supabase.auth.getSession();
    const bearer = { Authorization: `Bearer ${data.session!.access_token}` };
    const fromElsewhere = await raw(`/oauth/authorizations/${authorizationId}`, {
      headers: { ...bearer, Origin: 'https://evil.example.com' },
    });
    expect(fromElsewhere.response.status).toBe(400);
    expect(fromElsewhere.body).toMatchObject({ message: 'unauthorized request origin' });
    const missing = await user.supabase.auth.oauth.getAuthorizationDetails('nope');
    expect(missing.error).toMatchObject({ status: 404, code: 'oauth_authorization_not_found' });
    const badAction = await raw(`/oauth/authorizations/${authorizationId}/consent`, {
      method: 'POST',
      headers: { ...bearer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'maybe' }),
    });
    expect(badAction.body).toMatchObject({ message: "action must be 'approve' or 'deny'" });
    // An expired request cannot be read or approved.
    await server.db.query(
      `update auth.oauth_authorizations set expires_at = now() - interval '1 second', created_at = now() - interval '11 minutes' where id = $1`,
      [authorizationId],
    );
    const expired = await user.supabase.auth.oauth.getAuthorizationDetails(authorizationId);
    expect(expired.error).toMatchObject({ status: 404, code: 'oauth_authorization_not_found' });
  });

  it('answers everything as switched off when the OAuth server is disabled, even for existing clients', async () => {
    const { id: clientId, secret } = await newClient();
    const offError = { status: 404, code: 'feature_disabled', message: 'OAuth server is disabled' };
    expect((await admin(off).oauth.getClient(clientId)).error).toMatchObject(offError);
    expect((await admin(off).oauth.listClients()).error).toMatchObject(offError);
    expect((await clientFor(off).auth.admin.oauth.listClients()).error).toMatchObject({
      status: 403,
      code: 'not_admin',
    });
    const authorizeOff = await raw(
      authorizePath({
        client_id: clientId,
        redirect_uri: CALLBACK,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      }),
      { target: off },
    );
    expect(authorizeOff.response.status).toBe(404);
    expect(authorizeOff.response.headers.get('location')).toBeNull();
    const tokenOff = await token(
      { grant_type: 'authorization_code', code: 'x', code_verifier: pkce().verifier },
      { basic: [clientId, secret!], target: off },
    );
    expect(tokenOff.body).toEqual({
      code: 'feature_disabled',
      message: 'OAuth server is disabled',
    });
    const registerOff = await raw('/oauth/clients/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [CALLBACK] }),
      target: off,
    });
    expect(registerOff.response.status).toBe(404);
    const userinfoOff = await raw('/oauth/userinfo', { target: off });
    expect(userinfoOff.body).toEqual({
      code: 'feature_disabled',
      message: 'OAuth server is disabled',
    });
    const metadataOff = await raw('/.well-known/oauth-authorization-server', { target: off });
    expect(metadataOff.body).toEqual({
      code: 'feature_disabled',
      message: 'OAuth server is disabled',
    });
    // As on GoTrue, OpenID discovery answers anyway, without a registration endpoint.
    const discoveryOff = await raw('/.well-known/openid-configuration', { target: off });
    expect(discoveryOff.response.status).toBe(200);
    expect(discoveryOff.body).toMatchObject({ issuer: off.config.auth.jwtIssuer });
    expect(discoveryOff.body).not.toHaveProperty('registration_endpoint');
  });

  // Last: it spends this address's allowance of authorization requests.
  it('limits how many authorization requests one address may start', async () => {
    const { id: clientId } = await newClient();
    const path = authorizePath({
      client_id: clientId,
      redirect_uri: CALLBACK,
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    let status = 0;
    let sent = 0;
    while (sent < 150) {
      sent += 1;
      status = (await raw(path)).response.status;
      if (status !== 302) break;
    }
    expect(status).toBe(429);
    expect(sent).toBeLessThanOrEqual(101);
    const { rows } = await server.db.query<{ count: string }>(
      `select count(*)::text as count from auth.oauth_authorizations where client_id = $1`,
      [clientId],
    );
    expect(Number(rows[0]!.count)).toBe(sent - 1);
  });
});
