import { randomUUID } from 'node:crypto';
import {
  SignJWT,
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
  generateKeyPair,
  jwtVerify,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness';
import {
  CALLBACK,
  OAUTH_ENV,
  authorizePath,
  claimsOf,
  oauthFlow,
  pkce,
} from './testing/oauth-flow';

/**
 * OpenID Connect on the OAuth server (decision 041, "OpenID Connect") over real
 * HTTP: the `openid` scope and its nonce, the ID token a client verifies against
 * the JWKS it fetches, /oauth/userinfo by the granted scopes, and discovery.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: OAUTH_ENV });
});
afterAll(async () => {
  await server?.close();
});

const { raw, signedInUser, newClient, approvedCode, token } = oauthFlow(() => server);

const issuer = () => server.config.auth.jwtIssuer;
const jwks = () => createRemoteJWKSet(new URL(`${server.url}/auth/v1/.well-known/jwks.json`));

interface Tokens {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  id_token?: string;
}

/** A user who signed up, a confidential client, and the code flow for `scope` (and `nonce`). */
async function grant(
  scope: string,
  options: { nonce?: string; data?: Record<string, unknown> } = {},
) {
  const user = await signedInUser({ data: options.data });
  const client = await newClient();
  const { verifier, challenge } = pkce();
  const code = await approvedCode(user.supabase, client.id, challenge, {
    scope,
    ...(options.nonce !== undefined ? { nonce: options.nonce } : {}),
  });
  const exchanged = await token(
    { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK },
    { basic: [client.id, client.secret!] },
  );
  expect(exchanged.response.status).toBe(200);
  return { user, client, tokens: exchanged.body as Tokens };
}

function userinfo(bearer: string | undefined, init: RequestInit = {}) {
  return raw('/oauth/userinfo', {
    ...init,
    headers: bearer === undefined ? {} : { Authorization: `Bearer ${bearer}` },
  });
}

/** RFC 6750 §3: 401 with a Bearer challenge naming invalid_token. */
function expectInvalidToken(result: { response: Response; body: unknown }, code: string) {
  expect(result.response.status).toBe(401);
  expect(result.response.headers.get('www-authenticate')).toMatch(
    /^Bearer error="invalid_token", error_description=".+"$/,
  );
  expect(result.body).toMatchObject({ code });
}

describe('discovery', () => {
  it('serves the OpenID configuration under /auth/v1, as GoTrue does, and lists openid in the RFC 8414 metadata', async () => {
    const { response, body } = await raw('/.well-known/openid-configuration');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=600');
    const base = `${server.config.auth.apiUrl.replace(/\/$/, '')}/auth/v1`;
    expect(body).toEqual({
      issuer: issuer(),
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      jwks_uri: `${base}/.well-known/jwks.json`,
      userinfo_endpoint: `${base}/oauth/userinfo`,
      registration_endpoint: `${base}/oauth/clients/register`,
      scopes_supported: ['openid', 'email', 'profile', 'phone'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256', 'HS256', 'ES256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      claims_supported: expect.arrayContaining([
        'sub',
        'aud',
        'iss',
        'exp',
        'iat',
        'auth_time',
        'nonce',
        'email',
        'email_verified',
        'phone_number',
        'name',
      ]),
      code_challenge_methods_supported: ['S256'],
    });
    // OIDC Discovery §4.3: the issuer is the document's own base.
    expect(`${issuer()}/.well-known/openid-configuration`).toBe(
      `${base}/.well-known/openid-configuration`,
    );
    const metadata = await raw('/.well-known/oauth-authorization-server');
    expect(metadata.body).toEqual(body);
    // The server signs with ES256 here (a generated key), which the list names.
    expect(server.keys.ring.algorithm).toBe('ES256');
  });
});

describe('ID token', () => {
  it('comes with the code exchange for openid: verified against the JWKS over HTTP, with iss, aud, sub, nonce and the email', async () => {
    const nonce = `n-${randomUUID()}`;
    const { user, client, tokens } = await grant('openid email', { nonce });
    expect(Object.keys(tokens).sort()).toEqual([
      'access_token',
      'expires_in',
      'id_token',
      'refresh_token',
      'token_type',
    ]);
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, jwks(), {
      issuer: issuer(),
      audience: client.id,
    });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    expect(protectedHeader.kid).toBe(decodeProtectedHeader(tokens.access_token).kid);
    expect(payload).toMatchObject({
      iss: issuer(),
      sub: user.id,
      aud: client.id,
      client_id: client.id,
      nonce,
      email: user.email,
      email_verified: true,
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(payload.exp!).toBeGreaterThan(payload.iat!);
    expect(payload.auth_time).toEqual(expect.any(Number));
    expect(payload.auth_time as number).toBeLessThanOrEqual(payload.iat!);
    // Only what was granted: no profile, no phone.
    for (const claim of ['name', 'picture', 'phone_number', 'phone_number_verified', 'scope']) {
      expect(payload).not.toHaveProperty(claim);
    }
    // The access token still says what was granted.
    expect(claimsOf(tokens.access_token)).toMatchObject({
      client_id: client.id,
      scope: 'openid email',
    });
    // Another client's audience is not this token's.
    await expect(
      jwtVerify(tokens.id_token!, jwks(), { issuer: issuer(), audience: randomUUID() }),
    ).rejects.toBeInstanceOf(joseErrors.JWTClaimValidationFailed);

    // As on GoTrue, refreshing gives new tokens but no new ID token.
    const refreshed = await token(
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      { basic: [client.id, client.secret!] },
    );
    expect(refreshed.response.status).toBe(200);
    expect(refreshed.body).not.toHaveProperty('id_token');
  });

  it('carries the profile and phone claims only when those scopes are granted, and no nonce when none was sent', async () => {
    const { user, client, tokens } = await grant('openid profile phone', {
      data: {
        name: 'Ada Lovelace',
        avatar_url: 'https://cdn.example.com/ada.png',
        username: 'ada',
      },
    });
    const { payload } = await jwtVerify(tokens.id_token!, jwks(), {
      issuer: issuer(),
      audience: client.id,
    });
    expect(payload).toMatchObject({
      sub: user.id,
      name: 'Ada Lovelace',
      picture: 'https://cdn.example.com/ada.png',
      preferred_username: 'ada',
      updated_at: expect.any(Number),
      phone_number_verified: false,
    });
    for (const claim of ['nonce', 'email', 'email_verified', 'phone_number']) {
      expect(payload).not.toHaveProperty(claim);
    }
  });

  it('is not issued without openid', async () => {
    const { tokens } = await grant('email profile');
    expect(tokens).not.toHaveProperty('id_token');
  });

  it('is never a bearer token: refused by userinfo, /user and the data API', async () => {
    const { tokens } = await grant('openid email');
    expectInvalidToken(await userinfo(tokens.id_token), 'bad_jwt');
    const user = await raw('/user', { headers: { Authorization: `Bearer ${tokens.id_token}` } });
    expect(user.response.status).toBe(403);
    expect(user.body).toMatchObject({ code: 'bad_jwt' });
    const rest = await fetch(`${server.url}/rest/v1/profiles?select=id`, {
      headers: { apikey: server.anonKey, Authorization: `Bearer ${tokens.id_token}` },
    });
    expect(rest.status).toBe(401);
    // The access token beside it works.
    expect((await userinfo(tokens.access_token)).response.status).toBe(200);
  });
});

describe('nonce', () => {
  it('keeps up to 255 characters and sends a longer one back as invalid_request', async () => {
    const long = 'n'.repeat(255);
    const { client, tokens } = await grant('openid', { nonce: long });
    const { payload } = await jwtVerify(tokens.id_token!, jwks(), { audience: client.id });
    expect(payload.nonce).toBe(long);

    const { response } = await raw(
      authorizePath({
        client_id: client.id,
        redirect_uri: CALLBACK,
        scope: 'openid',
        state: 's-nonce',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        nonce: 'n'.repeat(256),
      }),
    );
    expect(response.status).toBe(302);
    const back = new URL(response.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toBe('nonce cannot exceed 255 characters');
    expect(back.searchParams.get('state')).toBe('s-nonce');
  });
});

describe('userinfo', () => {
  it('answers sub and the claims of the granted scopes: email without profile, profile without email', async () => {
    const emailGrant = await grant('openid email');
    const first = await userinfo(emailGrant.tokens.access_token);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get('cache-control')).toBe('no-store');
    expect(first.body).toEqual({
      sub: emailGrant.user.id,
      email: emailGrant.user.email,
      email_verified: true,
    });

    const profileGrant = await grant('openid profile', {
      data: { name: 'Grace Hopper', picture: 'https://cdn.example.com/grace.png' },
    });
    const second = await userinfo(profileGrant.tokens.access_token);
    expect(second.body).toEqual({
      sub: profileGrant.user.id,
      name: 'Grace Hopper',
      picture: 'https://cdn.example.com/grace.png',
      updated_at: expect.any(Number),
      user_metadata: expect.objectContaining({ name: 'Grace Hopper' }),
    });

    const bare = await grant('openid');
    expect((await userinfo(bare.tokens.access_token)).body).toEqual({ sub: bare.user.id });
  });

  it('answers POST as GET (OIDC Core §5.3.1), the token in the header only', async () => {
    const { user, tokens } = await grant('openid email');
    const posted = await userinfo(tokens.access_token, { method: 'POST' });
    expect(posted.response.status).toBe(200);
    expect(posted.response.headers.get('cache-control')).toBe('no-store');
    expect(posted.body).toEqual({ sub: user.id, email: user.email, email_verified: true });

    // A token in a form body (RFC 6750 §2.2, optional) is not read: it would end up in logs.
    const inBody = await raw('/oauth/userinfo', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: tokens.access_token }).toString(),
    });
    expect(inBody.response.status).toBe(401);
    expect(inBody.response.headers.get('www-authenticate')).toBe('Bearer');
    expectInvalidToken(await userinfo('not-a-token', { method: 'POST' }), 'bad_jwt');
  });

  it('answers a token by its own grant, not by what the user granted another client', async () => {
    const user = await signedInUser();
    const narrow = await newClient({ name: 'Narrow app' });
    const wide = await newClient({ name: 'Wide app' });
    const exchange = async (client: { id: string; secret?: string }, scope: string) => {
      const { verifier, challenge } = pkce();
      const code = await approvedCode(user.supabase, client.id, challenge, { scope });
      const result = await token(
        { grant_type: 'authorization_code', code, code_verifier: verifier },
        { basic: [client.id, client.secret!] },
      );
      return result.body as Tokens;
    };
    const wideTokens = await exchange(wide, 'openid email phone');
    const narrowTokens = await exchange(narrow, 'openid');
    expect((await userinfo(narrowTokens.access_token)).body).toEqual({ sub: user.id });
    expect((await userinfo(wideTokens.access_token)).body).toMatchObject({
      sub: user.id,
      email: user.email,
    });
    // Each ID token is for its own client only.
    await expect(
      jwtVerify(narrowTokens.id_token!, jwks(), { audience: wide.id }),
    ).rejects.toBeInstanceOf(joseErrors.JWTClaimValidationFailed);
  });

  it('answers an ordinary session token with sub alone, as GoTrue does', async () => {
    const user = await signedInUser();
    const { data } = await user.supabase.auth.getSession();
    const result = await userinfo(data.session!.access_token);
    expect(result.response.status).toBe(200);
    expect(result.body).toEqual({ sub: user.id });
  });

  it('refuses missing, forged, tampered, expired and anonymous tokens with 401 and a Bearer challenge', async () => {
    const { user, tokens } = await grant('openid email');
    const missing = await userinfo(undefined);
    expect(missing.response.status).toBe(401);
    expect(missing.response.headers.get('www-authenticate')).toBe('Bearer');
    expect(missing.body).toMatchObject({ code: 'no_authorization' });
    const basic = await raw('/oauth/userinfo', {
      headers: { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
    });
    expect(basic.response.status).toBe(401);

    const claims = claimsOf(tokens.access_token);
    const header = decodeProtectedHeader(tokens.access_token);
    // Signed by a key of the attacker's, under the server's kid.
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ ...header, alg: 'ES256' })
      .sign(privateKey);
    expectInvalidToken(await userinfo(forged), 'bad_jwt');
    // alg "none".
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${tokens.access_token.split('.')[1]}.`;
    expectInvalidToken(await userinfo(none), 'bad_jwt');
    // The server's signature over other claims (another user, wider scope).
    const other = await signedInUser();
    const [head, , signature] = tokens.access_token.split('.');
    const tampered = `${head}.${Buffer.from(
      JSON.stringify({ ...claims, sub: other.id, scope: 'openid email phone profile' }),
    ).toString('base64url')}.${signature}`;
    expectInvalidToken(await userinfo(tampered), 'bad_jwt');
    // The server's own key, expired.
    const now = Math.floor(Date.now() / 1000);
    const expired = await server.keys.ring.sign({ ...claims, iat: now - 7200, exp: now - 3600 });
    expectInvalidToken(await userinfo(expired), 'bad_jwt');
    // The anon key has no user.
    expectInvalidToken(await userinfo(server.anonKey), 'bad_jwt');
    // Nothing here worked for the user either way.
    expect((await userinfo(tokens.access_token)).body).toMatchObject({ sub: user.id });
  });

  it('refuses the token once the user revokes the grant (its session ends)', async () => {
    const { user, client, tokens } = await grant('openid email');
    expect((await userinfo(tokens.access_token)).response.status).toBe(200);
    expect((await user.supabase.auth.oauth.revokeGrant({ clientId: client.id })).error).toBeNull();
    expectInvalidToken(await userinfo(tokens.access_token), 'session_not_found');
  });
});

describe('with an HS256 secret as the only key', () => {
  let hs: TestServer;
  beforeAll(async () => {
    hs = await startTestServer({
      env: { ...OAUTH_ENV, JWT_SECRET: 'an HS256 secret that is at least 32 characters long' },
      database: server.db,
    });
  });
  afterAll(async () => {
    await hs?.close();
  });
  const flow = oauthFlow(() => hs);

  it('refuses to exchange an openid code, as GoTrue does, before anything is issued', async () => {
    const user = await flow.signedInUser();
    const client = await flow.newClient();
    const { verifier, challenge } = pkce();
    const code = await flow.approvedCode(user.supabase, client.id, challenge, {
      scope: 'openid email',
    });
    const exchanged = await flow.token(
      { grant_type: 'authorization_code', code, code_verifier: verifier },
      { basic: [client.id, client.secret!] },
    );
    expect(exchanged.response.status).toBe(500);
    expect(exchanged.body).toMatchObject({
      code: 'unexpected_failure',
      message: 'Error generating ID token',
    });
    const { rows } = await server.db.query(
      `select 1 from auth.sessions where oauth_client_id = $1`,
      [client.id],
    );
    expect(rows).toEqual([]);
    // Without openid the same server still exchanges codes.
    const plain = pkce();
    const plainCode = await flow.approvedCode(user.supabase, client.id, plain.challenge, {
      scope: 'email',
    });
    const ok = await flow.token(
      { grant_type: 'authorization_code', code: plainCode, code_verifier: plain.verifier },
      { basic: [client.id, client.secret!] },
    );
    expect(ok.response.status).toBe(200);
    expect(ok.body).not.toHaveProperty('id_token');
  });
});
