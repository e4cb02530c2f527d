import type { AuthChangeEvent } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

let server: TestServer;
const PASSWORD = 'a long and unusual passphrase 7';

beforeAll(async () => {
  server = await startTestServer({
    env: {
      MAILER_AUTOCONFIRM: 'true',
      EXTERNAL_ANONYMOUS_USERS_ENABLED: 'true',
      RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000',
    },
  });
});
afterAll(() => server?.close());

async function account() {
  const email = uniqueEmail('session');
  const { error } = await clientFor(server).auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  return email;
}

describe('auth events', () => {
  it('reports INITIAL_SESSION, SIGNED_IN, USER_UPDATED, TOKEN_REFRESHED and SIGNED_OUT', async () => {
    const email = await account();
    const supabase = clientFor(server);
    const events: AuthChangeEvent[] = [];
    supabase.auth.onAuthStateChange((event) => void events.push(event));
    await expect.poll(() => events).toEqual(['INITIAL_SESSION']);
    await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    await supabase.auth.updateUser({ data: { full_name: 'Katherine Johnson' } });
    await supabase.auth.refreshSession();
    await supabase.auth.signOut();
    await expect
      .poll(() => events)
      .toEqual(['INITIAL_SESSION', 'SIGNED_IN', 'USER_UPDATED', 'TOKEN_REFRESHED', 'SIGNED_OUT']);
  });

  it('refreshes the session by itself when it is close to expiry', async () => {
    const shortLived = await startTestServer({
      env: { MAILER_AUTOCONFIRM: 'true', JWT_EXP: '60' },
    });
    try {
      const email = uniqueEmail('expiring');
      await clientFor(shortLived).auth.signUp({ email, password: PASSWORD });
      const supabase = clientFor(shortLived, { auth: { autoRefreshToken: true } });
      const events: AuthChangeEvent[] = [];
      supabase.auth.onAuthStateChange((event) => void events.push(event));
      const { data } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
      expect(data.session?.expires_in).toBe(60); // inside the client's 90 s margin
      await supabase.auth.startAutoRefresh();
      try {
        await expect.poll(() => events, { timeout: 10_000 }).toContain('TOKEN_REFRESHED');
        const { data: after } = await supabase.auth.getSession();
        expect(after.session?.refresh_token).not.toBe(data.session?.refresh_token);
      } finally {
        await supabase.auth.stopAutoRefresh();
      }
    } finally {
      await shortLived.close();
    }
  });
});

describe('signing out', () => {
  async function sessions(email: string, count: number) {
    return Promise.all(
      Array.from({ length: count }, async () => {
        const supabase = clientFor(server);
        const { data } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
        return { supabase, refreshToken: data.session!.refresh_token };
      }),
    );
  }
  const refreshWorks = async (refreshToken: string) =>
    !(await clientFor(server).auth.refreshSession({ refresh_token: refreshToken })).error;

  it('scope=others keeps this session and ends the rest', async () => {
    const [mine, other] = await sessions(await account(), 2);
    expect((await mine!.supabase.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await mine!.supabase.auth.getSession()).data.session).not.toBeNull();
    expect(await refreshWorks(other!.refreshToken)).toBe(false);
    expect((await mine!.supabase.auth.getUser()).error).toBeNull();
  });

  it('scope=local ends only this session; scope=global ends them all', async () => {
    const email = await account();
    const [first, second, third] = await sessions(email, 3);
    await first!.supabase.auth.signOut({ scope: 'local' });
    expect((await first!.supabase.auth.getSession()).data.session).toBeNull();
    expect(await refreshWorks(first!.refreshToken)).toBe(false);
    expect(await refreshWorks(second!.refreshToken)).toBe(true);
    await third!.supabase.auth.signOut({ scope: 'global' });
    expect(await refreshWorks(third!.refreshToken)).toBe(false);
  });

  it('refuses an unknown scope with a clear error', async () => {
    const [mine] = await sessions(await account(), 1);
    const { data } = await mine!.supabase.auth.getSession();
    const response = await fetch(`${server.url}/auth/v1/logout?scope=everyone`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${data.session!.access_token}`,
        'x-supabase-api-version': '2024-01-01',
      },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 'validation_failed',
      message: 'Unsupported logout scope "everyone"',
    });
  });
});

describe('anonymous users', () => {
  it('get a session with is_anonymous, no identities and amr anonymous', async () => {
    const supabase = clientFor(server);
    const { data, error } = await supabase.auth.signInAnonymously({
      options: { data: { source: 'demo' } },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      is_anonymous: true,
      app_metadata: {},
      identities: [],
      user_metadata: { source: 'demo' },
    });
    const claims = JSON.parse(
      Buffer.from(data.session!.access_token.split('.')[1]!, 'base64url').toString(),
    );
    expect(claims.amr[0].method).toBe('anonymous');
    expect(claims.is_anonymous).toBe(true);
    const noPassword = await supabase.auth.updateUser({ password: 'a long passphrase here 11' });
    expect(noPassword.error).toMatchObject({ status: 422 });
  });
});

describe('requests that cannot be authenticated', () => {
  const getUser = (authorization?: string) =>
    fetch(`${server.url}/auth/v1/user`, {
      headers: {
        'x-supabase-api-version': '2024-01-01',
        ...(authorization ? { authorization } : {}),
      },
    }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as { code: string; message: string },
    }));

  it('answer GoTrue’s errors', async () => {
    expect(await getUser()).toEqual({
      status: 401,
      body: { code: 'no_authorization', message: 'This endpoint requires a valid Bearer token' },
    });
    const garbage = await getUser('Bearer not.a.jwt');
    expect(garbage.status).toBe(403);
    expect(garbage.body.code).toBe('bad_jwt');
    expect(garbage.body.message).toMatch(/^invalid JWT: unable to parse or verify signature, /);
    const anonKey = await getUser(`Bearer ${server.anonKey}`);
    expect(anonKey).toEqual({
      status: 403,
      body: { code: 'bad_jwt', message: 'invalid claim: missing sub claim' },
    });
    const ghost = await server.keys.ring.sign(
      { sub: '00000000-0000-4000-8000-000000000000', role: 'authenticated' },
      { expiresInSeconds: 60 },
    );
    expect(await getUser(`Bearer ${ghost}`)).toEqual({
      status: 403,
      body: { code: 'user_not_found', message: 'User from sub claim in JWT does not exist' },
    });
    const expired = await server.keys.ring.sign({
      sub: '00000000-0000-4000-8000-000000000000',
      exp: 1,
    });
    expect((await getUser(`Bearer ${expired}`)).body.message).toContain('token is expired');
  });

  it('client-side checks reject malformed tokens before any request', async () => {
    const supabase = clientFor(server);
    expect((await supabase.auth.getClaims('abc')).error?.message).toBe('Invalid JWT structure');
    expect((await supabase.auth.getClaims('a.b!.c')).error?.message).toBe(
      'JWT not in base64url format',
    );
  });
});

describe('abuse limits', () => {
  it('answers 429 over_request_rate_limit past the per-IP sign-in limit', async () => {
    const limited = await startTestServer({ env: { RATE_LIMIT_SIGN_IN_SIGN_UPS: '3' } });
    try {
      const supabase = clientFor(limited);
      const attempts = [];
      for (let attempt = 0; attempt < 4; attempt += 1) {
        attempts.push(
          await supabase.auth.signInWithPassword({
            email: 'nobody@example.com',
            password: 'wrong password here',
          }),
        );
      }
      expect(attempts.slice(0, 3).map((attempt) => attempt.error?.code)).toEqual([
        'invalid_credentials',
        'invalid_credentials',
        'invalid_credentials',
      ]);
      expect(attempts[3]!.error).toMatchObject({
        status: 429,
        code: 'over_request_rate_limit',
        message: 'Request rate limit reached',
      });
    } finally {
      await limited.close();
    }
  });

  it('gives the same answer for an unknown account and a wrong password', async () => {
    const email = await account();
    const supabase = clientFor(server);
    const unknown = await supabase.auth.signInWithPassword({
      email: uniqueEmail('nobody'),
      password: PASSWORD,
    });
    const wrong = await supabase.auth.signInWithPassword({
      email,
      password: 'not the right one at all',
    });
    expect(unknown.error).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
    expect(wrong.error).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
  });
});

describe('service endpoints', () => {
  it('GET /settings, GET /health and SSO answer as GoTrue does', async () => {
    const settings = (await (await fetch(`${server.url}/auth/v1/settings`)).json()) as Record<
      string,
      unknown
    >;
    expect(settings).toMatchObject({
      // Phone sign-in is off until an SMS provider is configured (SMS_PROVIDER).
      external: { email: true, phone: false, anonymous_users: true, google: false },
      sms_provider: '',
      disable_signup: false,
      mailer_autoconfirm: true,
      saml_enabled: false,
    });
    expect(await (await fetch(`${server.url}/auth/v1/health`)).json()).toMatchObject({
      name: 'GoTrue',
    });
    const sso = await clientFor(server).auth.signInWithSSO({ domain: 'example.com' });
    expect(sso.error).toMatchObject({
      status: 404,
      code: 'saml_provider_disabled',
      message: 'SAML 2.0 is disabled',
    });
    const metadata = await fetch(`${server.url}/auth/v1/sso/saml/metadata`, {
      headers: { 'X-Supabase-Api-Version': '2024-01-01' },
    });
    expect(metadata.status).toBe(404);
    expect(await metadata.json()).toEqual({
      code: 'saml_provider_disabled',
      message: 'SAML 2.0 is disabled',
    });
  });
});
