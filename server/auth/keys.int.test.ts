import { decodeProtectedHeader, exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Key rotation as an operator does it, on one database: sign with the old key;
 * then sign with a new key while the old one only verifies; then drop the old
 * key. Tokens are checked by the server (GET /user) and by the official
 * client locally through the JWKS (getClaims).
 */

const PASSWORD = 'a long and unusual passphrase 7';

async function signingKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'ES256', key_ops: ['sign', 'verify'] };
}

function verifyOnly(jwk: JWK): JWK {
  const { d: _private, ...publicHalf } = jwk;
  return { ...publicHalf, key_ops: ['verify'] };
}

let oldKey: JWK;
let newKey: JWK;
let before: TestServer;
const env = { MAILER_AUTOCONFIRM: 'true' };

beforeAll(async () => {
  oldKey = await signingKey('key-2026-01');
  newKey = await signingKey('key-2026-11');
  before = await startTestServer({ env: { ...env, JWT_KEYS: JSON.stringify([oldKey]) } });
});
afterAll(() => before?.close());

async function signIn(server: TestServer, email: string) {
  const supabase = clientFor(server);
  const { data, error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
  expect(error).toBeNull();
  return { supabase, session: data.session! };
}

describe('rotating signing keys', () => {
  it('a new key signs, the old one still verifies until it is removed', async () => {
    const email = uniqueEmail('rotation');
    expect((await clientFor(before).auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    const { session: oldSession } = await signIn(before, email);
    expect(decodeProtectedHeader(oldSession.access_token).kid).toBe('key-2026-01');

    const during = await startTestServer({
      database: before.db,
      env: { ...env, JWT_KEYS: JSON.stringify([newKey, verifyOnly(oldKey)]) },
    });
    try {
      const jwks = (await (await fetch(`${during.url}/auth/v1/.well-known/jwks.json`)).json()) as {
        keys: JWK[];
      };
      expect(jwks.keys.map((key) => key.kid).sort()).toEqual(['key-2026-01', 'key-2026-11']);
      expect(jwks.keys.every((key) => key.d === undefined)).toBe(true);

      const { supabase, session: newSession } = await signIn(during, email);
      expect(decodeProtectedHeader(newSession.access_token).kid).toBe('key-2026-11');
      // Both tokens are accepted by the server and verify locally against the published keys.
      for (const token of [oldSession.access_token, newSession.access_token]) {
        const user = await supabase.auth.getUser(token);
        expect(user.error).toBeNull();
        expect(user.data.user?.email).toBe(email);
        const claims = await supabase.auth.getClaims(token);
        expect(claims.error).toBeNull();
        expect(claims.data?.claims.email).toBe(email);
      }
    } finally {
      await during.close();
    }

    const after = await startTestServer({
      database: before.db,
      env: { ...env, JWT_KEYS: JSON.stringify([newKey]) },
    });
    try {
      const supabase = clientFor(after);
      const refused = await supabase.auth.getUser(oldSession.access_token);
      expect(refused.error).toMatchObject({ status: 403, code: 'bad_jwt' });
      // The refresh token outlives the key: the session goes on with a token from the new key.
      const refreshed = await supabase.auth.refreshSession({
        refresh_token: oldSession.refresh_token,
      });
      expect(refreshed.error).toBeNull();
      expect(decodeProtectedHeader(refreshed.data.session!.access_token).kid).toBe('key-2026-11');
    } finally {
      await after.close();
    }
  });

  it('with JWT_SECRET only, tokens are HS256 and no public key is published', async () => {
    const secretServer = await startTestServer({
      env: { ...env, JWT_SECRET: 'an HS256 secret that is at least 32 characters long' },
    });
    try {
      const email = uniqueEmail('hs256');
      const supabase = clientFor(secretServer);
      expect((await supabase.auth.signUp({ email, password: PASSWORD })).error).toBeNull();
      const { session } = await signIn(secretServer, email);
      expect(decodeProtectedHeader(session.access_token).alg).toBe('HS256');
      const jwks = await (await fetch(`${secretServer.url}/auth/v1/.well-known/jwks.json`)).json();
      expect(jwks).toEqual({ keys: [] });
      // The client cannot verify HS256 locally, so getClaims asks the server.
      const claims = await supabase.auth.getClaims(session.access_token);
      expect(claims.error).toBeNull();
      expect(claims.data?.claims.email).toBe(email);
    } finally {
      await secretServer.close();
    }
  });
});
