import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, uniqueEmail } from '../testing/clients';
import {
  SoftwareAuthenticator,
  base64url as b64url,
  type CeremonyOverrides,
} from './testing/software-authenticator';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * WebAuthn second factors (security keys) through the official client, with a
 * software authenticator written here: an EC P-256 key from node:crypto, a
 * "none" attestation object in CBOR, and assertions it signs itself.
 */

const PASSWORD = 'correct horse battery staple';
const RP_ID = 'cervana.test';
const ORIGIN = 'https://app.cervana.test';
const PARTY = { rpId: RP_ID, rpOrigins: [ORIGIN] };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: {
      MAILER_AUTOCONFIRM: 'true',
      MAILER_MAX_FREQUENCY: '0',
      TRUST_PROXY: 'true',
      MFA_WEB_AUTHN_ENROLL_ENABLED: 'true',
      MFA_WEB_AUTHN_VERIFY_ENABLED: 'true',
      MFA_MAX_ENROLLED_FACTORS: '3',
      URI_ALLOW_LIST: `${ORIGIN},https://*.wild.test`,
    },
  });
  // A table only sessions raised to AAL2 may read.
  for (const statement of [
    `create table public.webauthn_vault (id int primary key, note text not null)`,
    `alter table public.webauthn_vault enable row level security`,
    `grant select on public.webauthn_vault to authenticated`,
    `create policy aal2_only on public.webauthn_vault for select to authenticated
       using ((auth.jwt() ->> 'aal') = 'aal2')`,
    `insert into public.webauthn_vault values (1, 'behind the key')`,
  ]) {
    await server.db.query(statement);
  }
  await server.reloadSchema();
});
afterAll(() => server?.close());

let lastIp = 0;
function nextIp(): string {
  lastIp += 1;
  return `203.0.${Math.floor(lastIp / 250)}.${(lastIp % 250) + 1}`;
}

interface TestClient {
  supabase: SupabaseClient;
  origin: { ip: string };
  email: string;
  userId: string;
}

function client(target: TestServer = server): Pick<TestClient, 'supabase' | 'origin'> {
  const origin = { ip: nextIp() };
  const supabase = clientFor(target, {
    global: {
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('x-forwarded-for', origin.ip);
        return fetch(input, { ...init, headers });
      },
    },
  });
  return { supabase, origin };
}

async function signedUp(target: TestServer = server): Promise<TestClient> {
  const test = client(target);
  const email = uniqueEmail('webauthn');
  const { data, error } = await test.supabase.auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  return { ...test, email, userId: data.user!.id };
}

async function signedIn(email: string): Promise<Pick<TestClient, 'supabase' | 'origin'>> {
  const test = client();
  const { error } = await test.supabase.auth.signInWithPassword({ email, password: PASSWORD });
  expect(error).toBeNull();
  return test;
}

function claimsOf(accessToken: string): { aal: string; amr: { method: string }[] } {
  return JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8'));
}

async function accessToken(supabase: SupabaseClient): Promise<string> {
  const { data } = await supabase.auth.getSession();
  return data.session!.access_token;
}

/** A security key in software (the shared authenticator), answering the client's decoded options. */
class SoftwareKey extends SoftwareAuthenticator {
  constructor() {
    super({ rpId: RP_ID, origin: ORIGIN }, 'cross-platform');
  }

  /** navigator.credentials.create(), as a credential whose toJSON auth-js sends. */
  create(challenge: ArrayBuffer, overrides: CeremonyOverrides = {}) {
    const json = this.register(b64url(challenge), overrides);
    return { toJSON: () => json } as never;
  }

  /** navigator.credentials.get(): signs the challenge with the next counter value. */
  get(challenge: ArrayBuffer, overrides: CeremonyOverrides & { counter?: number } = {}) {
    const json = this.assert(b64url(challenge), overrides);
    return { toJSON: () => json } as never;
  }
}

interface WebAuthnChallenge {
  id: string;
  type: 'webauthn';
  expires_at: number;
  webauthn: {
    type: 'create' | 'request';
    credential_options: {
      publicKey: {
        challenge: ArrayBuffer;
        rp?: { id: string; name: string };
        rpId?: string;
        allowCredentials?: { id: ArrayBuffer }[];
        excludeCredentials?: { id: ArrayBuffer }[];
      };
    };
  };
}

async function challenge(supabase: SupabaseClient, factorId: string, party = PARTY) {
  const result = await supabase.auth.mfa.challenge({ factorId, webauthn: party });
  return result as unknown as { data: WebAuthnChallenge | null; error: unknown };
}

async function enroll(supabase: SupabaseClient, friendlyName = 'Security key') {
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: 'webauthn', friendlyName });
  expect(error).toBeNull();
  return data!;
}

/** Enrols a key and verifies it, leaving the client's session at AAL2. */
async function enrolledKey(test: TestClient, friendlyName = 'Security key') {
  const factor = await enroll(test.supabase, friendlyName);
  const key = new SoftwareKey();
  const created = await challenge(test.supabase, factor.id);
  expect(created.error).toBeNull();
  const { error } = await test.supabase.auth.mfa.verify({
    factorId: factor.id,
    challengeId: created.data!.id,
    webauthn: {
      ...PARTY,
      type: 'create',
      credential_response: key.create(
        created.data!.webauthn.credential_options.publicKey.challenge,
      ),
    },
  });
  expect(error).toBeNull();
  return { factor, key };
}

async function verifyRequest(
  supabase: SupabaseClient,
  factorId: string,
  challengeId: string,
  credential: never,
) {
  return supabase.auth.mfa.verify({
    factorId,
    challengeId,
    webauthn: { ...PARTY, type: 'request', credential_response: credential },
  });
}

/** A raw request to /auth/v1 as the client's user, from the client's address. */
async function raw(
  test: Pick<TestClient, 'supabase' | 'origin'>,
  path: string,
  body: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/auth/v1${path}`, {
    method: 'POST',
    headers: {
      apikey: server.anonKey,
      authorization: `Bearer ${await accessToken(test.supabase)}`,
      'content-type': 'application/json',
      'x-forwarded-for': test.origin.ip,
    },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('WebAuthn factors', () => {
  it('enrols a key, raises the session to AAL2, and opens an AAL2-only policy', async () => {
    const test = await signedUp();
    const before = await test.supabase.from('webauthn_vault').select('note');
    expect(before.error).toBeNull();
    expect(before.data).toEqual([]);

    const factor = await enroll(test.supabase);
    expect(factor).toMatchObject({ type: 'webauthn', friendly_name: 'Security key' });
    const unverified = await test.supabase.auth.mfa.listFactors();
    expect(unverified.data!.all).toMatchObject([{ id: factor.id, status: 'unverified' }]);
    expect(unverified.data!.webauthn).toEqual([]);

    const key = new SoftwareKey();
    const created = await challenge(test.supabase, factor.id);
    expect(created.error).toBeNull();
    const options = created.data!.webauthn;
    expect(options.type).toBe('create');
    expect(options.credential_options.publicKey.rp).toMatchObject({ id: RP_ID });
    expect(created.data!.expires_at).toBeGreaterThan(Date.now() / 1000);

    const verified = await test.supabase.auth.mfa.verify({
      factorId: factor.id,
      challengeId: created.data!.id,
      webauthn: {
        ...PARTY,
        type: 'create',
        credential_response: key.create(options.credential_options.publicKey.challenge),
      },
    });
    expect(verified.error).toBeNull();
    const claims = claimsOf(verified.data!.access_token);
    expect(claims.aal).toBe('aal2');
    expect(claims.amr.map((entry) => entry.method)).toContain('mfa/webauthn');

    const level = await test.supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    const listed = await test.supabase.auth.mfa.listFactors();
    expect(listed.data!.webauthn).toMatchObject([
      { id: factor.id, factor_type: 'webauthn', status: 'verified' },
    ]);

    const after = await test.supabase.from('webauthn_vault').select('note');
    expect(after.error).toBeNull();
    expect(after.data).toEqual([{ note: 'behind the key' }]);

    const { rows } = await server.db.query<{ credential: { id: string; counter: number } }>(
      `select web_authn_credential as credential from auth.mfa_factors where id = $1`,
      [factor.id],
    );
    expect(rows[0]!.credential).toMatchObject({ id: key.id, counter: 0 });
  });

  it('raises a new sign-in with the key, then unenrols it', async () => {
    const first = await signedUp();
    const { factor, key } = await enrolledKey(first);

    const again = await signedIn(first.email);
    const level = await again.supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    const blocked = await again.supabase.from('webauthn_vault').select('note');
    expect(blocked.data).toEqual([]);

    const requested = await challenge(again.supabase, factor.id);
    expect(requested.error).toBeNull();
    const options = requested.data!.webauthn;
    expect(options.type).toBe('request');
    expect(options.credential_options.publicKey.rpId).toBe(RP_ID);
    expect(
      options.credential_options.publicKey.allowCredentials!.map((cred) => b64url(cred.id)),
    ).toEqual([key.id]);

    const raised = await verifyRequest(
      again.supabase,
      factor.id,
      requested.data!.id,
      key.get(options.credential_options.publicKey.challenge),
    );
    expect(raised.error).toBeNull();
    expect(claimsOf(raised.data!.access_token).aal).toBe('aal2');
    const opened = await again.supabase.from('webauthn_vault').select('note');
    expect(opened.data).toEqual([{ note: 'behind the key' }]);

    const { rows } = await server.db.query<{ counter: number }>(
      `select (web_authn_credential ->> 'counter')::int as counter from auth.mfa_factors where id = $1`,
      [factor.id],
    );
    expect(rows[0]!.counter).toBe(1);

    const removed = await again.supabase.auth.mfa.unenroll({ factorId: factor.id });
    expect(removed.error).toBeNull();
    const refreshed = await again.supabase.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(claimsOf(refreshed.data.session!.access_token).aal).toBe('aal1');
    const listed = await again.supabase.auth.mfa.listFactors();
    expect(listed.data!.all).toEqual([]);
  });

  it('counts keys against the factor limit and names them apart', async () => {
    const test = await signedUp();
    await enroll(test.supabase, 'one');
    const same = await test.supabase.auth.mfa.enroll({
      factorType: 'webauthn',
      friendlyName: 'one',
    });
    expect(same.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' });
    await enroll(test.supabase, 'two');
    await enroll(test.supabase, 'three');
    const fourth = await test.supabase.auth.mfa.enroll({
      factorType: 'webauthn',
      friendlyName: 'four',
    });
    expect(fourth.error).toMatchObject({
      status: 422,
      code: 'too_many_enrolled_mfa_factors',
      message: 'Maximum number of verified factors reached, unenroll to continue',
    });
  });
});

describe('WebAuthn factor abuse', () => {
  it('refuses origins and relying-party ids that are not allowed', async () => {
    const test = await signedUp();
    const factor = await enroll(test.supabase);
    const evil = await challenge(test.supabase, factor.id, {
      rpId: 'evil.test',
      rpOrigins: ['https://evil.test'],
    });
    expect(evil.error).toMatchObject({ status: 400, code: 'validation_failed' });
    const wild = await challenge(test.supabase, factor.id, {
      rpId: 'a.wild.test',
      rpOrigins: ['https://a.wild.test'],
    });
    expect(wild.error).toMatchObject({ status: 400, code: 'validation_failed' });
    const otherId = await challenge(test.supabase, factor.id, {
      rpId: 'other.test',
      rpOrigins: [ORIGIN],
    });
    expect(otherId.error).toMatchObject({ status: 400, code: 'validation_failed' });
    const topLevel = await challenge(test.supabase, factor.id, {
      rpId: 'test',
      rpOrigins: [ORIGIN],
    });
    expect(topLevel.error).toMatchObject({ status: 400, code: 'validation_failed' });
    const above = await challenge(test.supabase, factor.id, { rpId: RP_ID, rpOrigins: [ORIGIN] });
    expect(above.error).toBeNull();
    const withPath = await challenge(test.supabase, factor.id, {
      rpId: RP_ID,
      rpOrigins: [`${ORIGIN}/login`],
    });
    expect(withPath.error).toMatchObject({ status: 400, code: 'validation_failed' });

    // An authenticator answering for another origin or relying party fails.
    const key = new SoftwareKey();
    for (const answer of [{ origin: 'https://evil.test' }, { rpId: 'evil.test' }]) {
      const created = await challenge(test.supabase, factor.id);
      const result = await test.supabase.auth.mfa.verify({
        factorId: factor.id,
        challengeId: created.data!.id,
        webauthn: {
          ...PARTY,
          type: 'create',
          credential_response: key.create(
            created.data!.webauthn.credential_options.publicKey.challenge,
            answer,
          ),
        },
      });
      expect(result.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    }
    const listed = await test.supabase.auth.mfa.listFactors();
    expect(listed.data!.all).toMatchObject([{ id: factor.id, status: 'unverified' }]);
  });

  it('refuses a replayed, an expired, or a foreign challenge, and a counter going back', async () => {
    const test = await signedUp();
    const { factor, key } = await enrolledKey(test);

    const first = await challenge(test.supabase, factor.id);
    const assertion = key.get(first.data!.webauthn.credential_options.publicKey.challenge);
    const ok = await verifyRequest(test.supabase, factor.id, first.data!.id, assertion);
    expect(ok.error).toBeNull();
    const replayed = await verifyRequest(test.supabase, factor.id, first.data!.id, assertion);
    expect(replayed.error).toMatchObject({ status: 422, code: 'mfa_factor_not_found' });

    // The same signature on a new challenge does not match it.
    const second = await challenge(test.supabase, factor.id);
    const stale = await verifyRequest(test.supabase, factor.id, second.data!.id, assertion);
    expect(stale.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });

    const third = await challenge(test.supabase, factor.id);
    await server.db.query(
      `update auth.mfa_challenges set created_at = now() - interval '10 minutes' where id = $1`,
      [third.data!.id],
    );
    const expired = await verifyRequest(
      test.supabase,
      factor.id,
      third.data!.id,
      key.get(third.data!.webauthn.credential_options.publicKey.challenge),
    );
    expect(expired.error).toMatchObject({
      status: 422,
      code: 'mfa_challenge_expired',
      message: `MFA challenge ${third.data!.id} has expired, verify against another challenge or create a new challenge.`,
    });

    // A cloned key: its counter lags behind the one the server has seen.
    const fourth = await challenge(test.supabase, factor.id);
    const backwards = await verifyRequest(
      test.supabase,
      factor.id,
      fourth.data!.id,
      key.get(fourth.data!.webauthn.credential_options.publicKey.challenge, { counter: 1 }),
    );
    expect(backwards.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });

    // A challenge issued to one address is not answered from another.
    const fifth = await challenge(test.supabase, factor.id);
    test.origin.ip = nextIp();
    const moved = await verifyRequest(
      test.supabase,
      factor.id,
      fifth.data!.id,
      key.get(fifth.data!.webauthn.credential_options.publicKey.challenge),
    );
    expect(moved.error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' });

    // Another user can neither challenge nor verify this user's factor.
    const other = await signedUp();
    const foreign = await challenge(other.supabase, factor.id);
    expect(foreign.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const sixth = await challenge(test.supabase, factor.id);
    const stolen = await verifyRequest(
      other.supabase,
      factor.id,
      sixth.data!.id,
      key.get(sixth.data!.webauthn.credential_options.publicKey.challenge),
    );
    expect(stolen.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const removed = await other.supabase.auth.mfa.unenroll({ factorId: factor.id });
    expect(removed.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
  });

  it('refuses garbage credentials, wrong types and oversized bodies', async () => {
    const test = await signedUp();
    const factor = await enroll(test.supabase);
    const created = await challenge(test.supabase, factor.id);
    const path = `/factors/${factor.id}/verify`;
    const challengeId = created.data!.id;

    const cases: [unknown, string][] = [
      [undefined, 'WebAuthn config required'],
      [{ type: 'sign', credential_response: {} }, 'WebAuthn type must be create or request'],
      [{ type: 'create' }, 'credential_response required'],
      [
        { type: 'request', credential_response: {} },
        'WebAuthn type must be create for this challenge',
      ],
      [{ type: 'create', credential_response: 'garbage' }, 'Invalid credential_response'],
      [
        { type: 'create', credential_response: { id: 'x', rawId: 'x', type: 'public-key' } },
        'Invalid credential_response',
      ],
    ];
    for (const [webauthn, message] of cases) {
      const result = await raw(test, path, JSON.stringify({ challenge_id: challengeId, webauthn }));
      expect(result, message).toMatchObject({
        status: 400,
        json: { error_code: 'validation_failed', msg: message },
      });
    }
    const broken = await raw(test, path, '{"challenge_id": ');
    expect(broken).toMatchObject({ status: 400, json: { error_code: 'bad_json' } });

    const big = 'A'.repeat(300 * 1024);
    const oversized = await raw(
      test,
      path,
      JSON.stringify({
        challenge_id: challengeId,
        webauthn: { type: 'create', credential_response: { id: big } },
      }),
    );
    expect(oversized.status).toBe(413);
    // A field far larger than any authenticator's, within the body limit.
    const tooLong = await raw(
      test,
      path,
      JSON.stringify({
        challenge_id: challengeId,
        webauthn: {
          type: 'create',
          credential_response: {
            id: 'abc',
            rawId: 'abc',
            type: 'public-key',
            response: { clientDataJSON: 'A'.repeat(100_000), attestationObject: 'AA' },
          },
        },
      }),
    );
    expect(tooLong).toMatchObject({ status: 400, json: { msg: 'Invalid credential_response' } });

    // None of that consumed the challenge: a real answer still verifies.
    const key = new SoftwareKey();
    const verified = await test.supabase.auth.mfa.verify({
      factorId: factor.id,
      challengeId,
      webauthn: {
        ...PARTY,
        type: 'create',
        credential_response: key.create(
          created.data!.webauthn.credential_options.publicKey.challenge,
        ),
      },
    });
    expect(verified.error).toBeNull();
  });
});

describe('WebAuthn factors turned off (GoTrue’s default; on by default here)', () => {
  let off: TestServer;
  beforeAll(async () => {
    off = await startTestServer({
      env: {
        MAILER_AUTOCONFIRM: 'true',
        TRUST_PROXY: 'true',
        MFA_WEB_AUTHN_ENROLL_ENABLED: 'false',
        MFA_WEB_AUTHN_VERIFY_ENABLED: 'false',
      },
    });
  });
  afterAll(() => off?.close());

  it('refuses enrolment, challenge and verification', async () => {
    const test = await signedUp(off);
    const enrolled = await test.supabase.auth.mfa.enroll({ factorType: 'webauthn' });
    expect(enrolled.error).toMatchObject({
      status: 422,
      code: 'mfa_webauthn_enroll_not_enabled',
      message: 'MFA enroll is disabled for WebAuthn',
    });

    // A factor left from when they were on.
    const factorId = crypto.randomUUID();
    await off.db.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status)
       values ($1, $2, 'old key', 'webauthn', 'unverified')`,
      [factorId, test.userId],
    );
    const challenged = await test.supabase.auth.mfa.challenge({ factorId, webauthn: PARTY });
    expect(challenged.error).toMatchObject({
      status: 422,
      code: 'mfa_webauthn_verify_not_enabled',
      message: 'MFA verification is disabled for WebAuthn',
    });
    const verified = await test.supabase.auth.mfa.verify({
      factorId,
      challengeId: crypto.randomUUID(),
      webauthn: {
        ...PARTY,
        type: 'create',
        credential_response: new SoftwareKey().create(new ArrayBuffer(32)),
      },
    });
    expect(verified.error).toMatchObject({
      status: 422,
      message: 'MFA verification is disabled for WebAuthn',
    });
  });
});
