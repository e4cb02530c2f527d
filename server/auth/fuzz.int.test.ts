import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Every endpoint, fed malformed JSON, wrong types, hostile strings and huge
 * bodies: the answer is always a 4xx in GoTrue's shape, never a 500.
 */

let server: TestServer;
let userToken = '';

const endpoints: { method: string; path: string; auth?: 'user' | 'admin' }[] = [
  { method: 'POST', path: '/signup' },
  { method: 'POST', path: '/token?grant_type=password' },
  { method: 'POST', path: '/token?grant_type=refresh_token' },
  { method: 'POST', path: '/token?grant_type=pkce' },
  { method: 'POST', path: '/token?grant_type=id_token' },
  { method: 'POST', path: '/otp' },
  { method: 'POST', path: '/verify' },
  { method: 'POST', path: '/recover' },
  { method: 'POST', path: '/resend' },
  { method: 'PUT', path: '/user', auth: 'user' },
  { method: 'POST', path: '/logout', auth: 'user' },
  { method: 'POST', path: '/factors', auth: 'user' },
  { method: 'POST', path: '/factors/00000000-0000-4000-8000-000000000000/verify', auth: 'user' },
  { method: 'POST', path: '/sso' },
  { method: 'POST', path: '/admin/users', auth: 'admin' },
  { method: 'PUT', path: '/admin/users/00000000-0000-4000-8000-000000000000', auth: 'admin' },
  { method: 'POST', path: '/admin/generate_link', auth: 'admin' },
  { method: 'POST', path: '/invite', auth: 'admin' },
];

const hostileString = fc.oneof(
  fc.string(),
  fc.constantFrom(
    "' or 1=1 --",
    '"; drop table auth.users; --',
    '<script>alert(1)</script>',
    '\u0000\u0001\u0002',
    '../../etc/passwd',
    '%00',
    '😀'.repeat(50),
    'a'.repeat(5000),
    '${jndi:ldap://x}',
    'admin@example.com\r\nBcc: all@example.com',
  ),
);

const fieldValue = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string()),
  fc.object(),
);

const bodyFields = fc.dictionary(
  fc.constantFrom(
    'email',
    'phone',
    'password',
    'data',
    'token',
    'token_hash',
    'type',
    'refresh_token',
    'auth_code',
    'code_verifier',
    'code_challenge',
    'code_challenge_method',
    'factor_type',
    'friendly_name',
    'challenge_id',
    'code',
    'nonce',
    'channel',
    'create_user',
    'app_metadata',
    'user_metadata',
    'ban_duration',
    'password_hash',
    'id',
    'provider',
    'id_token',
    'domain',
  ),
  fieldValue,
);

const rawBody = fc.oneof(
  bodyFields.map((fields) => JSON.stringify(fields)),
  fc.string(),
  fc.constantFrom('{', '[]', 'null', '"string"', '42', '{"email":', '\u0000'),
  fc.json(),
);

async function send(method: string, path: string, body: string, auth?: 'user' | 'admin') {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-supabase-api-version': '2024-01-01',
  };
  if (auth === 'user') headers.authorization = `Bearer ${userToken}`;
  if (auth === 'admin') headers.authorization = `Bearer ${server.serviceRoleKey}`;
  const response = await fetch(`${server.url}/auth/v1${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, text };
}

function expectGoTrueError(result: { status: number; text: string }, context: string) {
  expect(result.status, `${context}: ${result.text.slice(0, 300)}`).toBeLessThan(500);
  if (result.status >= 400) {
    const body = JSON.parse(result.text) as Record<string, unknown>;
    const isGoTrue = typeof body.code === 'string' && typeof body.message === 'string';
    const isOAuth = typeof body.error === 'string' && typeof body.error_description === 'string';
    expect(isGoTrue || isOAuth, `${context}: ${result.text.slice(0, 300)}`).toBe(true);
  }
}

beforeAll(async () => {
  server = await startTestServer({
    env: {
      MAILER_AUTOCONFIRM: 'true',
      MAILER_MAX_FREQUENCY: '0',
      RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000',
      RATE_LIMIT_OTP: '100000',
      RATE_LIMIT_VERIFY: '100000',
      RATE_LIMIT_EMAIL_SENT: '100000',
      RATE_LIMIT_TOKEN_REFRESH: '100000',
      RATE_LIMIT_SMS_SENT: '100000',
    },
  });
  const supabase = clientFor(server);
  const { data } = await supabase.auth.signUp({
    email: uniqueEmail('fuzz'),
    password: 'a long fuzzing passphrase 1',
  });
  userToken = data.session!.access_token;
});
afterAll(() => server?.close());

describe('malformed input', () => {
  for (const endpoint of endpoints) {
    it(`${endpoint.method} ${endpoint.path} never answers 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(rawBody, async (body) => {
          expectGoTrueError(
            await send(endpoint.method, endpoint.path, body, endpoint.auth),
            `${endpoint.method} ${endpoint.path} ${body.slice(0, 200)}`,
          );
        }),
        { numRuns: 25, seed: 20261121 },
      );
    });
  }

  it('refuses bodies over the size limit with 413', async () => {
    const huge = JSON.stringify({
      email: 'a@example.com',
      password: 'x',
      data: { blob: 'x'.repeat(400_000) },
    });
    const result = await send('POST', '/signup', huge);
    expect(result.status).toBe(413);
    expect(JSON.parse(result.text)).toMatchObject({ code: 'request_entity_too_large' });
  });

  it('handles hostile query strings and paths', async () => {
    for (const path of [
      '/verify?type=signup&token=%00&redirect_to=javascript:alert(1)',
      "/verify?type=magiclink&token=' or 1=1 --",
      '/admin/users/not-a-uuid',
      '/admin/users?page=-1&per_page=abc',
      '/factors/%2e%2e%2f/challenge',
      '/user/identities/not-a-uuid',
    ]) {
      const method =
        path.startsWith('/verify') || path.startsWith('/admin/users')
          ? 'GET'
          : path.startsWith('/user')
            ? 'DELETE'
            : 'POST';
      const response = await fetch(`${server.url}/auth/v1${path}`, {
        method,
        redirect: 'manual',
        headers: {
          authorization: `Bearer ${path.startsWith('/admin') ? server.serviceRoleKey : userToken}`,
          'x-supabase-api-version': '2024-01-01',
        },
      });
      expect(response.status, path).toBeLessThan(500);
      if (response.status === 303)
        expect(response.headers.get('location')).not.toMatch(/^javascript:/);
    }
  });
});
