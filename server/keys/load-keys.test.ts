import { stat, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT, decodeProtectedHeader, exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { JwtVerificationError } from './key-ring';
import { loadKeys } from './load-keys';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-keys-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function config(env: Record<string, string> = {}) {
  return loadConfig({ DATA_DIR: dataDir, ...env }, { rootDir: '/srv/cervana' });
}

const SECRET = 'a-test-secret-that-is-at-least-32-characters';

describe('loadKeys without key settings', () => {
  it('generates an ES256 key with a kid, and anon/service-role keys signed with it, in a 0600 file', async () => {
    const keys = await loadKeys(config());
    expect(keys.ring.algorithm).toBe('ES256');
    expect(keys.file).toBe(path.join(dataDir, 'keys.json'));
    expect((await stat(keys.file!)).mode & 0o777).toBe(0o600);

    const header = decodeProtectedHeader(keys.anonKey);
    expect(header.alg).toBe('ES256');
    expect(header.kid).toEqual(expect.any(String));
    expect((await keys.ring.verify(keys.anonKey)).role).toBe('anon');
    expect((await keys.ring.verify(keys.serviceRoleKey)).role).toBe('service_role');

    const jwks = keys.ring.publicJwks();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', kid: header.kid, alg: 'ES256' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('reuses the stored keys on the next start', async () => {
    const first = await loadKeys(config());
    const second = await loadKeys(config());
    expect(second.anonKey).toBe(first.anonKey);
    expect(second.serviceRoleKey).toBe(first.serviceRoleKey);
    expect(await second.ring.verify(await first.ring.sign({ sub: 'x' }))).toMatchObject({
      sub: 'x',
    });
  });

  it('refuses a keys file it did not write', async () => {
    await (
      await import('node:fs/promises')
    ).writeFile(path.join(dataDir, 'keys.json'), '{"nope":1}');
    await expect(loadKeys(config())).rejects.toThrow(ConfigError);
  });
});

describe('the key ring', () => {
  it('rejects expired, tampered, malformed and foreign tokens with a reason', async () => {
    const { ring } = await loadKeys(config());
    const expired = await ring.sign({ sub: 'a', exp: Math.floor(Date.now() / 1000) - 10 });
    await expect(ring.verify(expired)).rejects.toMatchObject({ reason: 'expired' });

    const valid = await ring.sign({ sub: 'a', role: 'authenticated' }, { expiresInSeconds: 60 });
    const [head, body, signature] = valid.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ sub: 'a', role: 'service_role' })).toString('base64url')}.${signature}`;
    await expect(ring.verify(forged)).rejects.toMatchObject({ reason: 'signature' });
    expect(body).toBeDefined();

    await expect(ring.verify('not-a-token')).rejects.toMatchObject({ reason: 'malformed' });

    const foreign = await new SignJWT({ role: 'service_role' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(SECRET));
    await expect(ring.verify(foreign)).rejects.toBeInstanceOf(JwtVerificationError);
  });

  it('sets exp from expiresInSeconds', async () => {
    const { ring } = await loadKeys(config());
    const claims = await ring.verify(await ring.sign({ sub: 'a' }, { expiresInSeconds: 120 }));
    expect(claims.exp! - claims.iat!).toBe(120);
  });
});

describe('loadKeys with JWT_SECRET', () => {
  it('signs with HS256, lists no public keys and writes no file', async () => {
    const keys = await loadKeys(config({ JWT_SECRET: SECRET }));
    expect(keys.ring.algorithm).toBe('HS256');
    expect(keys.file).toBeUndefined();
    expect(keys.ring.publicJwks()).toEqual({ keys: [] });
    expect(decodeProtectedHeader(keys.anonKey)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const external = await new SignJWT({ role: 'anon' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(SECRET));
    expect((await keys.ring.verify(external)).role).toBe('anon');
  });

  it('accepts ANON_KEY and SERVICE_ROLE_KEY signed with the secret', async () => {
    const sign = (role: string) =>
      new SignJWT({ role })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(SECRET));
    const anonKey = await sign('anon');
    const serviceRoleKey = await sign('service_role');
    const keys = await loadKeys(
      config({ JWT_SECRET: SECRET, ANON_KEY: anonKey, SERVICE_ROLE_KEY: serviceRoleKey }),
    );
    expect(keys.anonKey).toBe(anonKey);
    expect(keys.serviceRoleKey).toBe(serviceRoleKey);
  });

  it('refuses an ANON_KEY with the wrong role or signature', async () => {
    const sign = (role: string, secret = SECRET) =>
      new SignJWT({ role })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(secret));
    await expect(
      loadKeys(config({ JWT_SECRET: SECRET, ANON_KEY: await sign('service_role') })),
    ).rejects.toThrow(/ANON_KEY must carry the role "anon"/);
    await expect(
      loadKeys(
        config({
          JWT_SECRET: SECRET,
          ANON_KEY: await sign('anon', 'another-secret-of-32-characters-long!'),
        }),
      ),
    ).rejects.toThrow(/ANON_KEY does not verify/);
  });
});

describe('loadKeys with JWT_KEYS', () => {
  it('signs with the RS256 key marked for signing and publishes only public halves', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk: JWK = {
      ...(await exportJWK(privateKey)),
      kid: 'rsa-1',
      alg: 'RS256',
      key_ops: ['sign', 'verify'],
    };
    const keys = await loadKeys(config({ JWT_KEYS: JSON.stringify([jwk]), JWT_SECRET: SECRET }));
    expect(keys.ring.algorithm).toBe('RS256');
    const token = await keys.ring.sign({ sub: 'u' });
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'RS256', kid: 'rsa-1' });
    const published = keys.ring.publicJwks().keys;
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ kid: 'rsa-1', kty: 'RSA' });
    expect(published[0]).not.toHaveProperty('d');
    // The legacy secret still verifies HS256 tokens beside the JWK set.
    const legacy = await new SignJWT({ role: 'anon' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(SECRET));
    expect((await keys.ring.verify(legacy)).role).toBe('anon');
  });

  it('explains a malformed JWT_KEYS', async () => {
    await expect(loadKeys(config({ JWT_KEYS: 'not json' }))).rejects.toThrow(/JWT_KEYS must be/);
    await expect(loadKeys(config({ JWT_KEYS: '[]' }))).rejects.toThrow(/JWT_KEYS must be/);
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    await expect(
      loadKeys(
        config({ JWT_KEYS: JSON.stringify([{ ...(await exportJWK(publicKey)), kid: 'p' }]) }),
      ),
    ).rejects.toThrow(/no private key/);
  });
});

it('stores nothing but what it needs in the keys file', async () => {
  const keys = await loadKeys(config());
  const stored = JSON.parse(await readFile(keys.file!, 'utf8'));
  expect(Object.keys(stored).sort()).toEqual([
    'anonKey',
    'serviceRoleKey',
    'signingKey',
    'version',
  ]);
});

describe('the key ring and ID tokens', () => {
  it('refuses a token that names a client and no session (an OpenID Connect ID token), and takes one that names both', async () => {
    const keys = await loadKeys(config());
    const sub = '7c0b6a1e-3b0f-4c55-9a43-1f6f0f4f1a01';
    const clientId = '0d7d3f0e-8a53-4b5e-b3a2-6a7c1e6f2b11';
    const idToken = await keys.ring.sign(
      { sub, aud: clientId, client_id: clientId, nonce: 'n' },
      { expiresInSeconds: 60 },
    );
    await expect(keys.ring.verify(idToken)).rejects.toMatchObject({
      name: 'JwtVerificationError',
      reason: 'claims',
    });
    const emptySession = await keys.ring.sign(
      { sub, client_id: clientId, session_id: '' },
      { expiresInSeconds: 60 },
    );
    await expect(keys.ring.verify(emptySession)).rejects.toBeInstanceOf(JwtVerificationError);
    const accessToken = await keys.ring.sign(
      { sub, client_id: clientId, session_id: '5b0c2f7e-1d4a-4e9b-8c3f-2a1b0c9d8e7f' },
      { expiresInSeconds: 60 },
    );
    expect((await keys.ring.verify(accessToken)).client_id).toBe(clientId);
  });
});
