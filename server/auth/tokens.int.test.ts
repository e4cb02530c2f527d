import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, latestMessage, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

let server: TestServer;
const PASSWORD = 'a long and unusual passphrase 7';

beforeAll(async () => {
  server = await startTestServer({
    env: {
      MAILER_AUTOCONFIRM: 'true',
      MAILER_MAX_FREQUENCY: '0',
      SECURITY_REFRESH_TOKEN_REUSE_INTERVAL: '2',
    },
  });
});
afterAll(() => server?.close());

async function signedInClient() {
  const supabase = clientFor(server);
  const email = uniqueEmail('tokens');
  const { error } = await supabase.auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  return { supabase, email };
}

function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
}

async function postToken(grant: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/auth/v1/token?grant_type=${grant}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      apikey: server.anonKey,
      'x-supabase-api-version': '2024-01-01',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

describe('access tokens', () => {
  it('carry GoTrue’s claims, signed with the ES256 key named by kid', async () => {
    const { supabase, email } = await signedInClient();
    const { data } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    const token = data.session!.access_token;
    expect(decodeProtectedHeader(token)).toMatchObject({
      alg: 'ES256',
      typ: 'JWT',
      kid: expect.any(String),
    });
    const claims = payloadOf(token);
    expect(claims).toMatchObject({
      aud: 'authenticated',
      role: 'authenticated',
      email,
      phone: '',
      aal: 'aal1',
      is_anonymous: false,
      sub: data.user!.id,
      session_id: expect.any(String),
      iss: `${server.config.siteUrl}/auth/v1`,
      app_metadata: { provider: 'email', providers: ['email'] },
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
  });

  it('getClaims() verifies them locally through the JWKS, and rejects a forged one', async () => {
    const { supabase } = await signedInClient();
    const { data, error } = await supabase.auth.getClaims();
    expect(error).toBeNull();
    expect(data?.claims).toMatchObject({ role: 'authenticated', aal: 'aal1' });
    const { data: session } = await supabase.auth.getSession();
    const [head, , signature] = session.session!.access_token.split('.');
    const forgedBody = Buffer.from(
      JSON.stringify({ ...data!.claims, role: 'service_role' }),
    ).toString('base64url');
    const forged = await supabase.auth.getClaims(`${head}.${forgedBody}.${signature}`);
    expect(forged.error?.message).toBe('Invalid JWT signature');
  });
});

describe('refresh tokens', () => {
  it('rotate on every refresh, and the old one works again only within the reuse window', async () => {
    const { supabase } = await signedInClient();
    const { data: first } = await supabase.auth.getSession();
    const original = first.session!.refresh_token;
    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const rotated = refreshed.data.session!.refresh_token;
    expect(rotated).not.toBe(original);
    expect(payloadOf(refreshed.data.session!.access_token).session_id).toBe(
      payloadOf(first.session!.access_token).session_id,
    );

    // A concurrent refresh with the old token (within 2 s) gets the active token back.
    const reused = await postToken('refresh_token', { refresh_token: original });
    expect(reused.status).toBe(200);
    expect(reused.body.refresh_token).toBe(rotated);

    // After the window, reusing it revokes the whole session.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const stolen = await postToken('refresh_token', { refresh_token: original });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toEqual({
      code: 'refresh_token_already_used',
      message: 'Invalid Refresh Token: Already Used',
    });
    const afterRevocation = await postToken('refresh_token', { refresh_token: rotated });
    expect(afterRevocation.status).toBe(400);
    expect(afterRevocation.body.code).toMatch(/refresh_token_not_found|session_not_found/);
    const user = await supabase.auth.getUser(refreshed.data.session!.access_token);
    expect(user.error?.name).toBe('AuthSessionMissingError');
  });

  it('answers malformed refresh requests as GoTrue does', async () => {
    expect(await postToken('refresh_token', {})).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'refresh_token required' },
    });
    expect(await postToken('refresh_token', { refresh_token: 'short' })).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', message: 'Refresh token is not valid' },
    });
    expect(
      await postToken('refresh_token', { refresh_token: 'unknowntoken1234567890' }),
    ).toMatchObject({
      status: 400,
      body: {
        code: 'refresh_token_not_found',
        message: 'Invalid Refresh Token: Refresh Token Not Found',
      },
    });
    expect(await postToken('refresh_token', '{"refresh_token":')).toMatchObject({
      status: 400,
      body: { code: 'bad_json' },
    });
  });
});

describe('other grants', () => {
  it('exchanges a PKCE code from a magic link for a session', async () => {
    const email = uniqueEmail('pkce');
    await clientFor(server).auth.signUp({ email, password: PASSWORD });
    const supabase = clientFor(server, { auth: { flowType: 'pkce' } });
    const sent = await supabase.auth.signInWithOtp({
      email,
      options: { emailRedirectTo: `${server.url}/dashboard` },
    });
    expect(sent.error).toBeNull();
    const link = (await latestMessage(server.db, email, 'auth.magic_link')).metadata.link!;
    const response = await fetch(link, { redirect: 'manual' });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!);
    expect(location.pathname).toBe('/dashboard');
    const code = location.searchParams.get('code')!;
    expect(code).toEqual(expect.any(String));
    const exchanged = await supabase.auth.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(email);
    expect(payloadOf(exchanged.data.session!.access_token).amr).toEqual([
      { method: 'magiclink', timestamp: expect.any(Number) },
    ]);
    const again = await postToken('pkce', { auth_code: code, code_verifier: 'x'.repeat(43) });
    expect(again).toMatchObject({ status: 404, body: { code: 'flow_state_not_found' } });
  });

  it('refuses a PKCE exchange without both parts, or with the wrong verifier', async () => {
    expect(await postToken('pkce', { auth_code: 'abc' })).toMatchObject({
      status: 400,
      body: { message: 'invalid request: both auth code and code verifier should be non-empty' },
    });
    const email = uniqueEmail('pkce-bad');
    await clientFor(server).auth.signUp({ email, password: PASSWORD });
    const supabase = clientFor(server, { auth: { flowType: 'pkce' } });
    await supabase.auth.signInWithOtp({ email });
    const link = (await latestMessage(server.db, email, 'auth.magic_link')).metadata.link!;
    const code = new URL(
      (await fetch(link, { redirect: 'manual' })).headers.get('location')!,
    ).searchParams.get('code');
    const wrong = await postToken('pkce', { auth_code: code, code_verifier: 'y'.repeat(43) });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'bad_code_verifier' } });
  });

  it('answers id_token, web3 and unknown grants with GoTrue’s errors', async () => {
    const supabase = clientFor(server);
    const idToken = await supabase.auth.signInWithIdToken({
      provider: 'google',
      token: 'eyJ.fake.token',
    });
    expect(idToken.error).toMatchObject({ status: 400, code: 'provider_disabled' });
    expect(idToken.error?.message).toContain('is not enabled');
    expect(
      await postToken('web3', { chain: 'ethereum', message: 'x', signature: '0x' }),
    ).toMatchObject({
      status: 422,
      body: { code: 'web3_provider_disabled', message: 'Web3 provider is disabled' },
    });
    expect(await postToken('nonsense', {})).toMatchObject({
      status: 400,
      body: { code: 'invalid_credentials', message: 'unsupported_grant_type' },
    });
  });

  it('answers each kind of id_token provider as GoTrue does with none configured', async () => {
    const supabase = clientFor(server);
    const unsigned = (claims: object) =>
      `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;
    const custom = await supabase.auth.signInWithIdToken({
      provider: 'custom:my-oidc',
      token: 'eyJ.fake.token',
    });
    expect(custom.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Custom OAuth providers are disabled',
    });
    const unknown = await supabase.auth.signInWithIdToken({
      provider: 'myspace' as 'google',
      token: 'eyJ.fake.token',
    });
    expect(unknown.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Custom OIDC provider "myspace" not allowed',
    });
    // Apple and Azure: GoTrue reads the token's issuer before it looks at the switch.
    expect(await postToken('id_token', { provider: 'apple', id_token: 'not-a-jwt' })).toEqual(
      expect.objectContaining({
        status: 400,
        body: {
          code: 'validation_failed',
          message: 'Unable to detect issuer in ID token for Apple provider',
        },
      }),
    );
    expect(
      await postToken('id_token', {
        provider: 'azure',
        id_token: unsigned({ iss: 'https://accounts.google.com' }),
      }),
    ).toMatchObject({
      status: 400,
      body: { message: 'Detected ID token issuer is not an Azure ID token issuer' },
    });
    expect(
      await postToken('id_token', {
        provider: 'apple',
        id_token: unsigned({ iss: 'https://appleid.apple.com' }),
      }),
    ).toMatchObject({
      status: 400,
      body: {
        code: 'provider_disabled',
        message: 'Provider (issuer "https://appleid.apple.com") is not enabled',
      },
    });
    expect(
      await postToken('id_token', {
        issuer: 'https://www.facebook.com',
        client_id: 'app',
        id_token: 'x.y.z',
      }),
    ).toMatchObject({
      status: 400,
      body: {
        code: 'provider_disabled',
        message: 'Provider (issuer "https://www.facebook.com") is not enabled',
      },
    });
    // Missing parameters are OAuth-style errors.
    expect(await postToken('id_token', { provider: 'google' })).toMatchObject({
      status: 400,
      body: { error: 'invalid request', error_description: 'id_token required' },
    });
    expect(
      await postToken('id_token', { id_token: 'x.y.z', issuer: 'https://a.example' }),
    ).toMatchObject({
      status: 400,
      body: {
        error: 'invalid request',
        error_description: 'provider or client_id and issuer required',
      },
    });
  });

  it('uses the legacy error body without the API version header', async () => {
    const legacy = await postToken(
      'password',
      { email: 'nobody@example.com', password: 'whatever at all' },
      {
        'x-supabase-api-version': '',
      },
    );
    expect(legacy.status).toBe(400);
    expect(legacy.body).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
    expect(legacy.headers.get('x-sb-error-code')).toBe('invalid_credentials');
  });
});
