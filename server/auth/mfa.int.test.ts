import type { AuthChangeEvent, SupabaseClient } from '@supabase/supabase-js';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, codeIn, latestMessage, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * MFA through the official client: TOTP and phone factors, from enrolment to
 * AAL2 and back. Each test signs in from its own (forwarded) IP address, so the
 * per-IP limits of one test never reach another.
 */

const PASSWORD = 'correct horse battery staple';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: {
      MAILER_AUTOCONFIRM: 'true',
      SMS_AUTOCONFIRM: 'true',
      // Phone factors need an SMS provider; `log` is the explicit test one.
      SMS_PROVIDER: 'log',
      MAILER_MAX_FREQUENCY: '0',
      TRUST_PROXY: 'true',
      EXTERNAL_ANONYMOUS_USERS_ENABLED: 'true',
      // Security keys are on by default; this file checks the answer when they are off.
      MFA_WEB_AUTHN_ENROLL_ENABLED: 'false',
    },
  });
});
afterAll(() => server?.close());

let lastIp = 0;
function nextIp(): string {
  lastIp += 1;
  return `198.51.${Math.floor(lastIp / 250)}.${(lastIp % 250) + 1}`;
}

interface TestClient {
  supabase: SupabaseClient;
  /** The address the client's requests come from; change it to move the client. */
  origin: { ip: string };
}

function client(): TestClient {
  const origin = { ip: nextIp() };
  const supabase = clientFor(server, {
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

async function signedUp(): Promise<TestClient & { email: string; userId: string }> {
  const test = client();
  const email = uniqueEmail('mfa');
  const { data, error } = await test.supabase.auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  expect(data.session).not.toBeNull();
  return { ...test, email, userId: data.user!.id };
}

/** A second session of the same user (AAL1, from password sign-in). */
async function signedIn(email: string): Promise<TestClient> {
  const test = client();
  const { error } = await test.supabase.auth.signInWithPassword({ email, password: PASSWORD });
  expect(error).toBeNull();
  return test;
}

function totpCode(secret: string, stepOffset = 0): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: Date.now() + stepOffset * 30_000,
  });
}

/** A six-digit code that is valid in none of the accepted time steps. */
function wrongTotpCode(secret: string): string {
  const valid = new Set([-1, 0, 1, 2].map((offset) => totpCode(secret, offset)));
  let candidate = 123456;
  while (valid.has(String(candidate))) candidate += 1;
  return String(candidate);
}

function claimsOf(accessToken: string): {
  aal: string;
  amr: { method: string; timestamp: number }[];
  session_id: string;
  app_metadata: Record<string, unknown>;
} {
  return JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8'));
}

async function currentToken(supabase: SupabaseClient): Promise<string> {
  const { data } = await supabase.auth.getSession();
  expect(data.session).not.toBeNull();
  return data.session!.access_token;
}

async function enrollTotp(supabase: SupabaseClient, friendlyName = 'Authenticator') {
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName });
  expect(error).toBeNull();
  return data!;
}

/** Enrols a TOTP factor and verifies it, leaving the client's session at AAL2. */
async function enrollVerifiedTotp(supabase: SupabaseClient, friendlyName = 'Authenticator') {
  const factor = await enrollTotp(supabase, friendlyName);
  const { error } = await supabase.auth.mfa.challengeAndVerify({
    factorId: factor.id,
    code: totpCode(factor.totp.secret),
  });
  expect(error).toBeNull();
  return factor;
}

describe('TOTP factors', () => {
  it('enrols, challenges and verifies a TOTP factor, raising the session to AAL2', async () => {
    const { supabase, email, userId } = await signedUp();
    const before = await supabase.auth.getSession();
    const events: AuthChangeEvent[] = [];
    const { data: subscription } = supabase.auth.onAuthStateChange((event) => {
      events.push(event);
    });

    const { data: enrolled, error } = await supabase.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Work phone',
    });
    expect(error).toBeNull();
    expect(enrolled).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'totp',
      friendly_name: 'Work phone',
    });
    const { qr_code, secret, uri } = enrolled!.totp;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true);
    expect(qr_code).not.toContain('#');
    const issuer = new URL(server.url).host;
    expect(uri.startsWith(`otpauth://totp/${encodeURIComponent(issuer)}:`)).toBe(true);
    expect(uri).toContain(encodeURIComponent(email));
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain(`issuer=${encodeURIComponent(issuer)}`);

    const listed = await supabase.auth.mfa.listFactors();
    expect(listed.error).toBeNull();
    expect(listed.data!.all).toEqual([
      expect.objectContaining({
        id: enrolled!.id,
        status: 'unverified',
        factor_type: 'totp',
        friendly_name: 'Work phone',
      }),
    ]);
    expect(listed.data!.totp).toEqual([]);

    const challenge = await supabase.auth.mfa.challenge({ factorId: enrolled!.id });
    expect(challenge.error).toBeNull();
    expect(challenge.data).toMatchObject({ id: expect.any(String), type: 'totp' });
    const now = Math.floor(Date.now() / 1000);
    expect(challenge.data!.expires_at).toBeGreaterThanOrEqual(now + 295);
    expect(challenge.data!.expires_at).toBeLessThanOrEqual(now + 301);

    const wrong = await supabase.auth.mfa.verify({
      factorId: enrolled!.id,
      challengeId: challenge.data!.id,
      code: wrongTotpCode(secret),
    });
    expect(wrong.error).toMatchObject({
      status: 422,
      code: 'mfa_verification_failed',
      message: 'Invalid TOTP code entered',
    });

    const verified = await supabase.auth.mfa.verify({
      factorId: enrolled!.id,
      challengeId: challenge.data!.id,
      code: totpCode(secret),
    });
    expect(verified.error).toBeNull();
    expect(verified.data).toMatchObject({
      token_type: 'bearer',
      expires_in: expect.any(Number),
      refresh_token: expect.any(String),
      user: { id: userId, factors: [expect.objectContaining({ status: 'verified' })] },
    });
    expect(verified.data!.refresh_token).not.toBe(before.data.session!.refresh_token);
    const claims = claimsOf(verified.data!.access_token);
    expect(claims.aal).toBe('aal2');
    expect(claims.session_id).toBe(claimsOf(before.data.session!.access_token).session_id);
    expect(claims.amr.map((entry) => entry.method)).toEqual(
      expect.arrayContaining(['totp', 'password']),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events).toContain('MFA_CHALLENGE_VERIFIED');
    subscription.subscription.unsubscribe();

    // The client keeps the new session.
    expect(await currentToken(supabase)).toBe(verified.data!.access_token);
    const level = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    const factors = await supabase.auth.mfa.listFactors();
    expect(factors.data!.totp.map((factor) => factor.id)).toEqual([enrolled!.id]);

    // A challenge is good for one verification only.
    const again = await supabase.auth.mfa.verify({
      factorId: enrolled!.id,
      challengeId: challenge.data!.id,
      code: totpCode(secret),
    });
    expect(again.error).toMatchObject({
      status: 422,
      code: 'mfa_ip_address_mismatch',
      message: 'Challenge and verify IP addresses mismatch.',
    });

    // The AAL1 refresh token was swapped; refreshing keeps AAL2.
    const { rows } = await server.db.query<{ revoked: boolean }>(
      `select revoked from auth.refresh_tokens where token = $1`,
      [before.data.session!.refresh_token],
    );
    expect(rows[0]?.revoked).toBe(true);
    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(claimsOf(refreshed.data.session!.access_token).aal).toBe('aal2');

    const audit = await server.db.query<{ action: string }>(
      `select payload->>'action' as action from auth.audit_log_entries
       where payload->>'actor_id' = $1`,
      [userId],
    );
    expect(audit.rows.map((row) => row.action)).toEqual(
      expect.arrayContaining(['factor_in_progress', 'challenge_created', 'verification_attempted']),
    );
  });

  it('verifies with challengeAndVerify and signs out the AAL1 sessions of the user', async () => {
    const { supabase, email } = await signedUp();
    const other = await signedIn(email);
    expect((await other.supabase.auth.getUser()).error).toBeNull();

    const factor = await enrollTotp(supabase);
    const { data, error } = await supabase.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: totpCode(factor.totp.secret),
    });
    expect(error).toBeNull();
    expect(claimsOf(data!.access_token).aal).toBe('aal2');

    const stale = await other.supabase.auth.getUser();
    expect(stale.error).not.toBeNull();
    expect((await supabase.auth.getUser()).error).toBeNull();
  });

  it('accepts the code of the previous time step (window of one)', async () => {
    const { supabase } = await signedUp();
    const factor = await enrollTotp(supabase);
    const { error } = await supabase.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: totpCode(factor.totp.secret, -1),
    });
    expect(error).toBeNull();
  });
});

describe('enrolment rules', () => {
  it('rejects a second factor with the same friendly name', async () => {
    const { supabase } = await signedUp();
    await enrollTotp(supabase, 'Phone');
    const { error } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(error).toMatchObject({
      status: 422,
      code: 'mfa_factor_name_conflict',
      message: 'A factor with the friendly name "Phone" for this user already exists',
    });
  });

  it('rejects unknown factor types, WebAuthn, and bad phone numbers', async () => {
    const { supabase } = await signedUp();
    const unknown = await supabase.auth.mfa.enroll({
      factorType: 'sms' as 'totp',
      friendlyName: 'x',
    });
    expect(unknown.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'factor_type needs to be totp, phone, or webauthn',
    });

    const webauthn = await supabase.auth.mfa.enroll({
      factorType: 'webauthn',
      friendlyName: 'Key',
    });
    expect(webauthn.error).toMatchObject({
      status: 422,
      code: 'mfa_webauthn_enroll_not_enabled',
      message: 'MFA enroll is disabled for WebAuthn',
    });

    const badPhone = await supabase.auth.mfa.enroll({
      factorType: 'phone',
      friendlyName: 'Phone',
      phone: '12ab',
    });
    expect(badPhone.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Invalid phone number format (E.164 required)',
    });

    const noPhone = await supabase.auth.mfa.enroll({
      factorType: 'phone',
      friendlyName: 'Phone',
      phone: '',
    });
    expect(noPhone.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Phone number required to enroll Phone factor',
    });
  });

  it('allows at most 10 factors per user', async () => {
    const { supabase } = await signedUp();
    for (let index = 1; index <= 10; index += 1) await enrollTotp(supabase, `Factor ${index}`);
    const { error } = await supabase.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Factor 11',
    });
    expect(error).toMatchObject({
      status: 422,
      code: 'too_many_enrolled_mfa_factors',
      message: 'Maximum number of verified factors reached, unenroll to continue',
    });
    expect((await supabase.auth.mfa.listFactors()).data!.all).toHaveLength(10);
  });

  it('needs an AAL2 session to enrol another factor once one is verified', async () => {
    const { supabase, email } = await signedUp();
    await enrollVerifiedTotp(supabase, 'First');

    const aal1 = await signedIn(email);
    const level = await aal1.supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    const refused = await aal1.supabase.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Second',
    });
    expect(refused.error).toMatchObject({
      status: 403,
      code: 'insufficient_aal',
      message: 'AAL2 required to enroll a new factor',
    });

    const allowed = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Second' });
    expect(allowed.error).toBeNull();
  });

  it('refuses anonymous users and requests without a session', async () => {
    const anonymous = client();
    const signIn = await anonymous.supabase.auth.signInAnonymously();
    expect(signIn.error).toBeNull();
    const { error } = await anonymous.supabase.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Anon',
    });
    expect(error).toMatchObject({
      status: 403,
      code: 'no_authorization',
      message: 'Anonymous user not allowed to perform these actions',
    });

    const signedOut = client();
    const missing = await signedOut.supabase.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Nobody',
    });
    // Signed out, the client sends the anon key, a token without a user.
    expect(missing.error).toMatchObject({
      status: 403,
      code: 'bad_jwt',
      message: 'invalid claim: missing sub claim',
    });
  });
});

describe('challenges', () => {
  it('only challenges factors of the signed-in user', async () => {
    const alice = await signedUp();
    const bob = await signedUp();
    const factor = await enrollTotp(alice.supabase);

    const foreign = await bob.supabase.auth.mfa.challenge({ factorId: factor.id });
    expect(foreign.error).toMatchObject({
      status: 404,
      code: 'mfa_factor_not_found',
      message: 'Factor not found',
    });
    const unknown = await alice.supabase.auth.mfa.challenge({ factorId: crypto.randomUUID() });
    expect(unknown.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const malformed = await alice.supabase.auth.mfa.challenge({ factorId: 'not-a-uuid' });
    expect(malformed.error).toMatchObject({
      status: 404,
      code: 'validation_failed',
      message: 'factor_id must be an UUID',
    });
  });

  it('refuses challenges of another factor, expired ones, other IPs and empty codes', async () => {
    const { supabase, origin } = await signedUp();
    const first = await enrollTotp(supabase, 'First');
    const second = await enrollTotp(supabase, 'Second');
    const code = () => totpCode(first.totp.secret);

    const ofSecond = await supabase.auth.mfa.challenge({ factorId: second.id });
    const crossed = await supabase.auth.mfa.verify({
      factorId: first.id,
      challengeId: ofSecond.data!.id,
      code: code(),
    });
    expect(crossed.error).toMatchObject({
      status: 422,
      code: 'mfa_factor_not_found',
      message: 'MFA factor with the provided challenge ID not found',
    });
    const unknown = await supabase.auth.mfa.verify({
      factorId: first.id,
      challengeId: crypto.randomUUID(),
      code: code(),
    });
    expect(unknown.error).toMatchObject({ status: 422, code: 'mfa_factor_not_found' });

    const challenge = await supabase.auth.mfa.challenge({ factorId: first.id });
    const empty = await supabase.auth.mfa.verify({
      factorId: first.id,
      challengeId: challenge.data!.id,
      code: '',
    });
    expect(empty.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Code needs to be non-empty',
    });

    const homeIp = origin.ip;
    origin.ip = nextIp();
    const moved = await supabase.auth.mfa.verify({
      factorId: first.id,
      challengeId: challenge.data!.id,
      code: code(),
    });
    expect(moved.error).toMatchObject({
      status: 422,
      code: 'mfa_ip_address_mismatch',
      message: 'Challenge and verify IP addresses mismatch.',
    });
    origin.ip = homeIp;

    await server.db.query(
      `update auth.mfa_challenges set created_at = now() - interval '10 minutes' where id = $1`,
      [challenge.data!.id],
    );
    const expired = await supabase.auth.mfa.verify({
      factorId: first.id,
      challengeId: challenge.data!.id,
      code: code(),
    });
    expect(expired.error).toMatchObject({
      status: 422,
      code: 'mfa_challenge_expired',
      message: `MFA challenge ${challenge.data!.id} has expired, verify against another challenge or create a new challenge.`,
    });
    // The expired challenge is gone.
    const gone = await supabase.auth.mfa.verify({
      factorId: first.id,
      challengeId: challenge.data!.id,
      code: code(),
    });
    expect(gone.error).toMatchObject({ status: 422, code: 'mfa_factor_not_found' });

    const fresh = await supabase.auth.mfa.challengeAndVerify({ factorId: first.id, code: code() });
    expect(fresh.error).toBeNull();
  });
});

describe('phone factors', () => {
  it('texts a code on challenge and verifies with it', async () => {
    const { supabase, userId } = await signedUp();
    const phone = '+15555550123';
    const { data: enrolled, error } = await supabase.auth.mfa.enroll({
      factorType: 'phone',
      friendlyName: 'Mobile',
      phone,
    });
    expect(error).toBeNull();
    expect(enrolled).toEqual({
      id: expect.any(String),
      type: 'phone',
      friendly_name: 'Mobile',
      phone,
    });

    const whatsapp = await supabase.auth.mfa.challenge({
      factorId: enrolled!.id,
      channel: 'whatsapp',
    });
    expect(whatsapp.error).toMatchObject({ status: 400, code: 'validation_failed' });

    const challenge = await supabase.auth.mfa.challenge({ factorId: enrolled!.id });
    expect(challenge.error).toBeNull();
    expect(challenge.data).toMatchObject({ id: expect.any(String), type: 'phone' });
    const sms = await latestMessage(server.db, phone, 'auth.sms_mfa');
    expect(sms).toMatchObject({ channel: 'sms', metadata: { user_id: userId } });
    const code = codeIn(sms);
    expect(code).toMatch(/^\d{6}$/);
    const stored = await server.db.query<{ otp_code: string }>(
      `select otp_code from auth.mfa_challenges where id = $1`,
      [challenge.data!.id],
    );
    expect(stored.rows[0]?.otp_code).not.toBe(code);

    const tooSoon = await supabase.auth.mfa.challenge({ factorId: enrolled!.id });
    expect(tooSoon.error).toMatchObject({ status: 429, code: 'over_sms_send_rate_limit' });
    expect(tooSoon.error!.message).toMatch(
      /^For security purposes, you can only request this after \d+ seconds\.$/,
    );

    const wrong = await supabase.auth.mfa.verify({
      factorId: enrolled!.id,
      challengeId: challenge.data!.id,
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.error).toMatchObject({
      status: 422,
      code: 'mfa_verification_failed',
      message: 'Invalid MFA Phone code entered',
    });

    const verified = await supabase.auth.mfa.verify({
      factorId: enrolled!.id,
      challengeId: challenge.data!.id,
      code,
    });
    expect(verified.error).toBeNull();
    const claims = claimsOf(verified.data!.access_token);
    expect(claims.aal).toBe('aal2');
    expect(claims.amr.map((entry) => entry.method)).toContain('mfa/phone');
    const factors = await supabase.auth.mfa.listFactors();
    expect(factors.data!.phone).toEqual([
      expect.objectContaining({ id: enrolled!.id, phone: '15555550123', status: 'verified' }),
    ]);

    const duplicate = await supabase.auth.mfa.enroll({
      factorType: 'phone',
      friendlyName: 'Same number',
      phone,
    });
    expect(duplicate.error).toMatchObject({
      status: 422,
      code: 'mfa_verified_factor_exists',
      message: 'A verified phone factor already exists, unenroll the existing factor to continue',
    });
  });
});

describe('unenrolment', () => {
  it('removes an unverified factor from an AAL1 session', async () => {
    const { supabase } = await signedUp();
    const factor = await enrollTotp(supabase);
    const { data, error } = await supabase.auth.mfa.unenroll({ factorId: factor.id });
    expect(error).toBeNull();
    expect(data).toEqual({ id: factor.id });
    expect((await supabase.auth.mfa.listFactors()).data!.all).toEqual([]);

    const missing = await supabase.auth.mfa.unenroll({ factorId: factor.id });
    expect(missing.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
  });

  it('needs AAL2 to remove a verified factor, and then drops the session to AAL1', async () => {
    const { supabase, email, userId } = await signedUp();
    const factor = await enrollVerifiedTotp(supabase);

    const aal1 = await signedIn(email);
    const refused = await aal1.supabase.auth.mfa.unenroll({ factorId: factor.id });
    expect(refused.error).toMatchObject({
      status: 422,
      code: 'insufficient_aal',
      message: 'AAL2 required to unenroll verified factor',
    });

    const { data, error } = await supabase.auth.mfa.unenroll({ factorId: factor.id });
    expect(error).toBeNull();
    expect(data).toEqual({ id: factor.id });

    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const claims = claimsOf(refreshed.data.session!.access_token);
    expect(claims.aal).toBe('aal1');
    expect(claims.amr.map((entry) => entry.method)).not.toContain('totp');
    const level = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });

    const audit = await server.db.query(
      `select 1 from auth.audit_log_entries
       where payload->>'actor_id' = $1 and payload->>'action' = 'factor_unenrolled'`,
      [userId],
    );
    expect(audit.rows).toHaveLength(1);
  });
});
