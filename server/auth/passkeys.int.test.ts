import { randomBytes } from 'node:crypto';
import { AuthApiError, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';
import {
  SoftwareAuthenticator as SharedAuthenticator,
  type CeremonyOverrides,
} from './testing/software-authenticator';

/**
 * Passkeys through the official client (`supabase.auth.passkey.*`), with a
 * software authenticator: an EC P-256 key from node:crypto, a `none`
 * attestation built with CBOR, and assertions signed here. Every WebAuthn
 * check on the server side is @simplewebauthn/server's.
 */

const RP_ID = 'localhost';
const ORIGIN = 'http://localhost:5173';
const PASSWORD = 'correct horse battery staple';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Json = Record<string, unknown>;
const b64 = (bytes: Uint8Array | Buffer | string) => Buffer.from(bytes).toString('base64url');

/** A platform authenticator in software (the shared one), answering passkey options. */
class SoftwareAuthenticator extends SharedAuthenticator {
  constructor(rpId = RP_ID, origin = ORIGIN) {
    super({ rpId, origin }, 'platform');
  }

  /** navigator.credentials.create() for the server's registration options. */
  create(options: Json, overrides: CeremonyOverrides = {}) {
    this.userHandle = (options.user as { id: string }).id;
    return this.register(options.challenge as string, overrides);
  }

  /** navigator.credentials.get() for the server's authentication options. */
  get(options: Json, overrides: CeremonyOverrides & { counter?: number } = {}) {
    return this.assert(options.challenge as string, overrides);
  }
}

let server: TestServer;
let disabledServer: TestServer;
beforeAll(async () => {
  [server, disabledServer] = await Promise.all([
    startTestServer({
      env: {
        MAILER_AUTOCONFIRM: 'true',
        TRUST_PROXY: 'true',
        PASSKEY_ENABLED: 'true',
        PASSKEY_MAX_PASSKEYS_PER_USER: '3',
        WEBAUTHN_RP_ID: RP_ID,
        WEBAUTHN_RP_ORIGINS: ORIGIN,
        URI_ALLOW_LIST: ORIGIN,
        RATE_LIMIT_PASSKEY: '5',
      },
    }),
    startTestServer({
      env: { MAILER_AUTOCONFIRM: 'true', TRUST_PROXY: 'true', PASSKEY_ENABLED: 'false' },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), disabledServer?.close()]);
});

let lastIp = 0;
/** Each client comes from its own (forwarded) address, so per-IP limits stay per test. */
function client(target = server, ip?: string): SupabaseClient {
  lastIp += 1;
  const address = ip ?? `203.0.${Math.floor(lastIp / 250)}.${(lastIp % 250) + 1}`;
  return clientFor(target, {
    global: {
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('x-forwarded-for', address);
        return fetch(input, { ...init, headers });
      },
    },
  });
}

async function signedUp(target = server) {
  const supabase = client(target);
  const email = uniqueEmail('passkey');
  const { data, error } = await supabase.auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  return { supabase, email, userId: data.user!.id };
}

/** Signs up and registers one passkey; returns the owner, the authenticator and the passkey id. */
async function withPasskey() {
  const owner = await signedUp();
  const authenticator = new SoftwareAuthenticator();
  const { data: options, error } = await owner.supabase.auth.passkey.startRegistration();
  expect(error).toBeNull();
  const { data, error: verifyError } = await owner.supabase.auth.passkey.verifyRegistration({
    challengeId: options!.challenge_id,
    credential: authenticator.create(options!.options as unknown as Json) as never,
  });
  expect(verifyError).toBeNull();
  return { ...owner, authenticator, passkeyId: data!.id };
}

async function signInWith(
  authenticator: SoftwareAuthenticator,
  overrides: Parameters<SoftwareAuthenticator['get']>[1] = {},
  supabase = client(),
) {
  const { data: options, error } = await supabase.auth.passkey.startAuthentication();
  expect(error).toBeNull();
  const credential = authenticator.get(options!.options as unknown as Json, overrides);
  const result = await supabase.auth.passkey.verifyAuthentication({
    challengeId: options!.challenge_id,
    credential: credential as never,
  });
  return { ...result, supabase, options: options!, credential };
}

function expectApiError(error: unknown, status: number, code: string) {
  expect(error).toBeInstanceOf(AuthApiError);
  expect((error as AuthApiError).status).toBe(status);
  expect((error as AuthApiError).code).toBe(code);
}

async function raw(path: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('apikey', server.anonKey);
  headers.set('content-type', 'application/json');
  headers.set('X-Supabase-Api-Version', '2024-01-01');
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  const response = await fetch(`${server.url}/auth/v1${path}`, { ...init, headers });
  return { status: response.status, body: (await response.json().catch(() => null)) as Json };
}

describe('passkeys: registration and management', () => {
  it('offers discoverable creation options for our relying party', async () => {
    const { supabase, email } = await signedUp();
    const { data, error } = await supabase.auth.passkey.startRegistration();
    expect(error).toBeNull();
    expect(data!.challenge_id).toMatch(UUID);
    expect(data!.expires_at).toBeGreaterThan(Math.floor(Date.now() / 1000));
    expect(data!.options.rp.id).toBe(RP_ID);
    expect(data!.options.user.name).toBe(email);
    expect(data!.options.authenticatorSelection?.residentKey).toBe('required');
    expect(data!.options.pubKeyCredParams).toEqual(
      expect.arrayContaining([expect.objectContaining({ alg: -7, type: 'public-key' })]),
    );
  });

  it('registers, lists, renames and removes a passkey', async () => {
    const { supabase, passkeyId } = await withPasskey();
    expect(passkeyId).toMatch(UUID);

    const { data: listed } = await supabase.auth.passkey.list();
    expect(listed).toHaveLength(1);
    expect(listed![0]).toMatchObject({ id: passkeyId, created_at: expect.any(String) });
    expect(listed![0]!.last_used_at).toBeUndefined();

    const { data: renamed, error: renameError } = await supabase.auth.passkey.update({
      passkeyId,
      friendlyName: 'Work laptop',
    });
    expect(renameError).toBeNull();
    expect(renamed).toMatchObject({ id: passkeyId, friendly_name: 'Work laptop' });
    expect((await supabase.auth.passkey.list()).data![0]!.friendly_name).toBe('Work laptop');

    const { error: tooLong } = await supabase.auth.passkey.update({
      passkeyId,
      friendlyName: 'x'.repeat(121),
    });
    expectApiError(tooLong, 400, 'validation_failed');

    expect((await supabase.auth.passkey.delete({ passkeyId })).error).toBeNull();
    expect((await supabase.auth.passkey.list()).data).toEqual([]);
    const { error: again } = await supabase.auth.passkey.delete({ passkeyId });
    expectApiError(again, 404, 'validation_failed');
  });

  it('requires a session to register or list', async () => {
    const anonymous = client();
    const { error } = await anonymous.auth.passkey.startRegistration();
    expect(error?.name).toBe('AuthSessionMissingError');
    const direct = await raw('/passkeys/registration/options', { method: 'POST', body: '{}' });
    expect(direct.status).toBe(401);
    expect(direct.body.code).toBe('no_authorization');
  });

  it('registers a credential id once, server-wide', async () => {
    const { authenticator } = await withPasskey();
    const other = await signedUp();
    const { data: options } = await other.supabase.auth.passkey.startRegistration();
    const { error } = await other.supabase.auth.passkey.verifyRegistration({
      challengeId: options!.challenge_id,
      credential: authenticator.create(options!.options as unknown as Json) as never,
    });
    expectApiError(error, 422, 'webauthn_credential_exists');
    expect((await other.supabase.auth.passkey.list()).data).toEqual([]);
  });

  it('caps the passkeys a user may have (PASSKEY_MAX_PASSKEYS_PER_USER)', async () => {
    const { supabase } = await withPasskey();
    for (let i = 0; i < 2; i += 1) {
      const { data: options } = await supabase.auth.passkey.startRegistration();
      const { error } = await supabase.auth.passkey.verifyRegistration({
        challengeId: options!.challenge_id,
        credential: new SoftwareAuthenticator().create(
          options!.options as unknown as Json,
        ) as never,
      });
      expect(error).toBeNull();
    }
    const { error } = await supabase.auth.passkey.startRegistration();
    expectApiError(error, 422, 'too_many_passkeys');
  });

  it("answers 404 for another user's passkey, to rename or remove it", async () => {
    const victim = await withPasskey();
    const attacker = await signedUp();
    const { error: renameError } = await attacker.supabase.auth.passkey.update({
      passkeyId: victim.passkeyId,
      friendlyName: 'mine now',
    });
    expectApiError(renameError, 404, 'validation_failed');
    const { error: deleteError } = await attacker.supabase.auth.passkey.delete({
      passkeyId: victim.passkeyId,
    });
    expectApiError(deleteError, 404, 'validation_failed');
    const { error: junkId } = await attacker.supabase.auth.passkey.delete({
      passkeyId: 'not-a-uuid',
    });
    expectApiError(junkId, 404, 'validation_failed');
    const { data: listed } = await victim.supabase.auth.passkey.list();
    expect(listed).toEqual([expect.objectContaining({ id: victim.passkeyId })]);
    // Named as GoTrue names it; this software authenticator has no AAGUID.
    expect(listed![0]!.friendly_name).toBe('Passkey');
  });

  it('lists and removes through the admin API, not for the anon key', async () => {
    const { userId, passkeyId } = await withPasskey();
    const admin = clientFor(server, { key: server.serviceRoleKey });
    const { data: listed, error } = await admin.auth.admin.passkey.listPasskeys({ userId });
    expect(error).toBeNull();
    expect(listed!.map((item) => item.id)).toEqual([passkeyId]);
    const asAnon = await raw(`/admin/users/${userId}/passkeys`, { token: server.anonKey });
    expect(asAnon.status).toBe(403);
    expect(
      (await admin.auth.admin.passkey.deletePasskey({ userId, passkeyId: passkeyId })).error,
    ).toBeNull();
    expect((await admin.auth.admin.passkey.listPasskeys({ userId })).data).toEqual([]);
  });
});

describe('passkeys: sign-in', () => {
  it('signs in with a passkey; the session works on /rest/v1 and says amr passkey', async () => {
    const { authenticator, userId, passkeyId, supabase: owner } = await withPasskey();
    const { data, error, supabase, options } = await signInWith(authenticator);
    expect(error).toBeNull();
    expect(options.options.allowCredentials ?? []).toHaveLength(0);
    expect(data!.user!.id).toBe(userId);
    const claims = JSON.parse(
      Buffer.from(data!.session!.access_token.split('.')[1]!, 'base64url').toString(),
    ) as { amr: { method: string }[]; aal: string };
    expect(claims.amr.map((entry) => entry.method)).toEqual(['passkey']);
    expect(claims.aal).toBe('aal1');

    const { data: user } = await supabase.auth.getUser();
    expect(user.user?.id).toBe(userId);
    const { data: profiles, error: restError } = await supabase
      .from('profiles')
      .select('id')
      .eq('id', userId);
    expect(restError).toBeNull();
    expect(profiles).toEqual([{ id: userId }]);

    const { data: listed } = await owner.auth.passkey.list();
    expect(listed![0]).toMatchObject({ id: passkeyId, last_used_at: expect.any(String) });
    const { rows } = await server.db.query<{ n: number }>(
      `select count(*)::int as n from auth.audit_log_entries
       where payload ->> 'actor_id' = $1 and payload ->> 'action' = 'login'
         and payload -> 'traits' ->> 'provider' = 'passkey'`,
      [userId],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('refuses a replayed challenge, and a replayed assertion on a new challenge', async () => {
    const { authenticator } = await withPasskey();
    const first = await signInWith(authenticator);
    expect(first.error).toBeNull();
    const replay = await first.supabase.auth.passkey.verifyAuthentication({
      challengeId: first.options.challenge_id,
      credential: first.credential as never,
    });
    expect(replay.data).toBeNull();
    expectApiError(replay.error, 400, 'webauthn_challenge_not_found');

    // The same signed assertion against a fresh challenge: the challenge it signed is not this one.
    const supabase = client();
    const { data: fresh } = await supabase.auth.passkey.startAuthentication();
    const reused = await supabase.auth.passkey.verifyAuthentication({
      challengeId: fresh!.challenge_id,
      credential: first.credential as never,
    });
    expectApiError(reused.error, 400, 'webauthn_verification_failed');
  });

  it('refuses an expired challenge, and it stays used', async () => {
    const { authenticator } = await withPasskey();
    const supabase = client();
    const { data: options } = await supabase.auth.passkey.startAuthentication();
    await server.db.query(
      `update auth.webauthn_challenges set expires_at = now() - interval '1 second' where id = $1`,
      [options!.challenge_id],
    );
    const credential = authenticator.get(options!.options as unknown as Json);
    const expired = await supabase.auth.passkey.verifyAuthentication({
      challengeId: options!.challenge_id,
      credential: credential as never,
    });
    expectApiError(expired.error, 400, 'webauthn_challenge_expired');
    const again = await supabase.auth.passkey.verifyAuthentication({
      challengeId: options!.challenge_id,
      credential: credential as never,
    });
    expectApiError(again.error, 400, 'webauthn_challenge_not_found');
  });

  it('refuses a wrong origin or relying party id, at sign-in and registration', async () => {
    const { authenticator, supabase: owner } = await withPasskey();
    const wrongOrigin = await signInWith(authenticator, { origin: 'https://evil.example' });
    expectApiError(wrongOrigin.error, 400, 'webauthn_verification_failed');
    const wrongRp = await signInWith(authenticator, { rpId: 'evil.example' });
    expectApiError(wrongRp.error, 400, 'webauthn_verification_failed');

    const { data: options } = await owner.auth.passkey.startRegistration();
    const { error } = await owner.auth.passkey.verifyRegistration({
      challengeId: options!.challenge_id,
      credential: new SoftwareAuthenticator(RP_ID, 'https://evil.example').create(
        options!.options as unknown as Json,
      ) as never,
    });
    expectApiError(error, 400, 'webauthn_verification_failed');
    expect((await owner.auth.passkey.list()).data).toHaveLength(1);
  });

  it('refuses a sign counter that goes backwards (a cloned authenticator)', async () => {
    const { authenticator } = await withPasskey();
    expect((await signInWith(authenticator, { counter: 10 })).error).toBeNull();
    const backwards = await signInWith(authenticator, { counter: 7 });
    expectApiError(backwards.error, 400, 'webauthn_verification_failed');
    const same = await signInWith(authenticator, { counter: 10 });
    expectApiError(same.error, 400, 'webauthn_verification_failed');
    expect((await signInWith(authenticator, { counter: 11 })).error).toBeNull();
  });

  it('refuses an authenticator that was never registered, or was removed', async () => {
    const { authenticator, supabase: owner, passkeyId } = await withPasskey();
    const stranger = new SoftwareAuthenticator();
    stranger.userHandle = authenticator.userHandle;
    expectApiError((await signInWith(stranger)).error, 400, 'webauthn_verification_failed');

    // Another user's handle with this credential: the credential is not theirs.
    const other = await withPasskey();
    const swapped = new SoftwareAuthenticator();
    Object.assign(swapped, { userHandle: other.authenticator.userHandle });
    expectApiError((await signInWith(swapped)).error, 400, 'webauthn_verification_failed');

    expect((await owner.auth.passkey.delete({ passkeyId })).error).toBeNull();
    expectApiError((await signInWith(authenticator)).error, 400, 'webauthn_verification_failed');
  });

  it('refuses banned and deleted users', async () => {
    const banned = await withPasskey();
    const admin = clientFor(server, { key: server.serviceRoleKey });
    await admin.auth.admin.updateUserById(banned.userId, { ban_duration: '24h' });
    expectApiError((await signInWith(banned.authenticator)).error, 403, 'user_banned');

    const deleted = await withPasskey();
    expect((await admin.auth.admin.deleteUser(deleted.userId)).error).toBeNull();
    expectApiError(
      (await signInWith(deleted.authenticator)).error,
      400,
      'webauthn_verification_failed',
    );
  });

  it('limits sign-in ceremonies per IP (RATE_LIMIT_PASSKEY)', async () => {
    const supabase = client(server, '192.0.2.77');
    for (let i = 0; i < 5; i += 1) {
      expect((await supabase.auth.passkey.startAuthentication()).error).toBeNull();
    }
    const { error } = await supabase.auth.passkey.startAuthentication();
    expectApiError(error, 429, 'over_request_rate_limit');
  });
});

describe('passkeys: bad input', () => {
  it('refuses garbage base64, wrong shapes and malformed ids', async () => {
    const { authenticator } = await withPasskey();
    const supabase = client();
    const { data: options } = await supabase.auth.passkey.startAuthentication();
    const credential = authenticator.get(options!.options as unknown as Json);
    const garbage = {
      ...credential,
      response: { ...credential.response, signature: '!!!not base64!!!' },
    };
    const bad = await supabase.auth.passkey.verifyAuthentication({
      challengeId: options!.challenge_id,
      credential: garbage as never,
    });
    expectApiError(bad.error, 400, 'webauthn_verification_failed');

    const { data: next } = await supabase.auth.passkey.startAuthentication();
    const junkCbor = await raw('/passkeys/authentication/verify', {
      method: 'POST',
      body: JSON.stringify({
        challenge_id: next!.challenge_id,
        credential: {
          ...authenticator.get(next!.options as unknown as Json),
          response: {
            ...credential.response,
            authenticatorData: b64(randomBytes(7)),
          },
        },
      }),
    });
    expect(junkCbor.status).toBe(400);
    expect(junkCbor.body.code).toBe('webauthn_verification_failed');

    const notUuid = await raw('/passkeys/authentication/verify', {
      method: 'POST',
      body: JSON.stringify({ challenge_id: 'nope', credential }),
    });
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.code).toBe('validation_failed');
    const unknown = await raw('/passkeys/authentication/verify', {
      method: 'POST',
      body: JSON.stringify({ challenge_id: '00000000-0000-0000-0000-000000000000', credential }),
    });
    expect(unknown.body.code).toBe('webauthn_challenge_not_found');
    const noCredential = await raw('/passkeys/authentication/verify', {
      method: 'POST',
      body: JSON.stringify({ challenge_id: '00000000-0000-0000-0000-000000000000' }),
    });
    expect(noCredential.body.code).toBe('validation_failed');
    const notJson = await raw('/passkeys/authentication/verify', { method: 'POST', body: '{' });
    expect(notJson.body.code).toBe('bad_json');
  });

  it('refuses a registration challenge used for sign-in, and one issued to another user', async () => {
    const { authenticator, supabase: owner } = await withPasskey();
    const { data: registration } = await owner.auth.passkey.startRegistration();
    const crossed = await client().auth.passkey.verifyAuthentication({
      challengeId: registration!.challenge_id,
      credential: authenticator.get(registration!.options as unknown as Json) as never,
    });
    expectApiError(crossed.error, 400, 'webauthn_challenge_not_found');

    const { data: theirs } = await owner.auth.passkey.startRegistration();
    const other = await signedUp();
    const { error } = await other.supabase.auth.passkey.verifyRegistration({
      challengeId: theirs!.challenge_id,
      credential: new SoftwareAuthenticator().create(theirs!.options as unknown as Json) as never,
    });
    expectApiError(error, 400, 'webauthn_challenge_not_found');
  });

  it('keeps at most five registration ceremonies of a user open: a sixth voids the oldest', async () => {
    const { supabase } = await signedUp();
    const started = [];
    for (let i = 0; i < 6; i += 1) {
      const { data, error } = await supabase.auth.passkey.startRegistration();
      expect(error).toBeNull();
      started.push(data!);
    }
    const { error: voided } = await supabase.auth.passkey.verifyRegistration({
      challengeId: started[0]!.challenge_id,
      credential: new SoftwareAuthenticator().create(
        started[0]!.options as unknown as Json,
      ) as never,
    });
    expectApiError(voided, 400, 'webauthn_challenge_not_found');
    const { error } = await supabase.auth.passkey.verifyRegistration({
      challengeId: started[1]!.challenge_id,
      credential: new SoftwareAuthenticator().create(
        started[1]!.options as unknown as Json,
      ) as never,
    });
    expect(error).toBeNull();
  });

  it('refuses oversized bodies with 413', async () => {
    const response = await raw('/passkeys/authentication/verify', {
      method: 'POST',
      body: JSON.stringify({
        challenge_id: '00000000-0000-0000-0000-000000000000',
        credential: { id: 'a'.repeat(300 * 1024) },
      }),
    });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('request_entity_too_large');
  });

  it('keeps credentials and challenges out of the data API', async () => {
    const { supabase } = await withPasskey();
    for (const table of ['webauthn_credentials', 'webauthn_challenges']) {
      const { data, error } = await supabase
        .schema('auth' as never)
        .from(table)
        .select('*');
      expect(data).toBeNull();
      expect(error).not.toBeNull();
    }
    const { rows } = await server.db.query<{ grantee: string }>(
      `select grantee from information_schema.role_table_grants
       where table_schema = 'auth' and table_name in ('webauthn_credentials', 'webauthn_challenges')
         and grantee in ('anon', 'authenticated', 'public')`,
    );
    expect(rows).toEqual([]);
  });
});

describe('passkeys and security keys', () => {
  const party = { rpId: RP_ID, rpOrigins: [ORIGIN] };
  type KeyChallenge = {
    id: string;
    webauthn: {
      credential_options: {
        publicKey: { challenge: ArrayBuffer; excludeCredentials?: { id: ArrayBuffer }[] };
      };
    };
  };
  async function keyChallenge(supabase: SupabaseClient) {
    const enrolled = await supabase.auth.mfa.enroll({
      factorType: 'webauthn',
      friendlyName: `Key ${lastIp}`,
    });
    expect(enrolled.error).toBeNull();
    const challenged = await supabase.auth.mfa.challenge({
      factorId: enrolled.data!.id,
      webauthn: party,
    });
    expect(challenged.error).toBeNull();
    return { factorId: enrolled.data!.id, challenge: challenged.data as unknown as KeyChallenge };
  }
  const verifyKey = (
    supabase: SupabaseClient,
    factorId: string,
    challenge: KeyChallenge,
    authenticator: SoftwareAuthenticator,
  ) => {
    const json = authenticator.register(
      b64(new Uint8Array(challenge.webauthn.credential_options.publicKey.challenge)),
    );
    return supabase.auth.mfa.verify({
      factorId,
      challengeId: challenge.id,
      webauthn: { ...party, type: 'create', credential_response: { toJSON: () => json } as never },
    } as never);
  };

  it('never registers one key as both: it would pass the password step and the second one', async () => {
    // A passkey first: the security-key ceremony excludes it, and refuses it if sent anyway.
    const owner = await withPasskey();
    const first = await keyChallenge(owner.supabase);
    const excluded = (
      first.challenge.webauthn.credential_options.publicKey.excludeCredentials ?? []
    ).map((credential) => b64(new Uint8Array(credential.id)));
    expect(excluded).toContain(owner.authenticator.id);
    const twice = await verifyKey(
      owner.supabase,
      first.factorId,
      first.challenge,
      owner.authenticator,
    );
    expectApiError(twice.error, 422, 'webauthn_credential_exists');

    // A security key first: the passkey ceremony excludes it, and refuses it if sent anyway.
    const other = await signedUp();
    const key = new SoftwareAuthenticator();
    const second = await keyChallenge(other.supabase);
    expect(
      (await verifyKey(other.supabase, second.factorId, second.challenge, key)).error,
    ).toBeNull();
    const { data: options, error } = await other.supabase.auth.passkey.startRegistration();
    expect(error).toBeNull();
    const publicKey = options!.options as unknown as { excludeCredentials: { id: string }[] };
    expect(publicKey.excludeCredentials.map((credential) => credential.id)).toContain(key.id);
    const again = await other.supabase.auth.passkey.verifyRegistration({
      challengeId: options!.challenge_id,
      credential: key.create(options!.options as unknown as Json) as never,
    });
    expectApiError(again.error, 422, 'webauthn_credential_exists');
    expect((await other.supabase.auth.passkey.list()).data).toEqual([]);
  });
});

describe('passkeys: switched off (GoTrue’s default; on by default here)', () => {
  it('answers 404 passkey_disabled on every passkey endpoint', async () => {
    const { supabase } = await signedUp(disabledServer);
    const results = await Promise.all([
      supabase.auth.passkey.startRegistration(),
      supabase.auth.passkey.list(),
      supabase.auth.passkey.startAuthentication(),
      supabase.auth.passkey.update({
        passkeyId: '00000000-0000-0000-0000-000000000000',
        friendlyName: 'x',
      }),
    ]);
    for (const { error } of results) {
      expectApiError(error, 404, 'passkey_disabled');
      expect(error!.message).toBe('Passkeys are disabled');
    }
    const settings = async (target: TestServer) =>
      ((await (await fetch(`${target.url}/auth/v1/settings`)).json()) as Json).passkeys_enabled;
    expect(await settings(disabledServer)).toBe(false);
    expect(await settings(server)).toBe(true);
  });
});
