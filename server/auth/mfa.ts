import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Context, Hono } from 'hono';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { z } from 'zod';
import type { Queryable } from '../db/database';
import { authSms } from '../mail/auth-templates';
import { recordAudit, type AuditActor } from './audit';
import type { AuthDependencies, HandleAuth } from './context';
import { AuthError, errors } from './errors';
import { WRONG_CODES_PER_CODE } from './one-time-tokens';
import {
  accountKey,
  attemptsCounted,
  countAttempt,
  hitRateLimit,
  networkKey,
  refundHit,
} from './rate-limits';
import { clientIp, isUuid, optionalString, readBody } from './request';
import { challengeWebAuthn, enrollWebAuthn, verifyWebAuthn, type MfaShared } from './mfa-webauthn';
import { authenticate, type Authenticated } from './request-auth';
import { insertRefreshToken, recordAuthMethod, tokenResponse, type AuthMethod } from './sessions';
import { epochSeconds } from './time';
import { generateOtp, generateUuid } from './tokens';
import { sendSms } from './sms';
import { findUserById, normalisePhone, type FactorRow, type UserRow } from './users';

/**
 * MFA factors (GoTrue's internal/api/mfa.go): enroll, challenge, verify and
 * unenroll TOTP and phone factors; WebAuthn factors are mfa-webauthn.ts's.
 */

/** GoTrue's MFA_FACTOR_EXPIRY_DURATION: unverified, never challenged factors older than this are removed. */
const FACTOR_EXPIRY_SECONDS = 300;
/** GoTrue's MFA_MAX_VERIFIED_FACTORS default. */
const MAX_VERIFIED_FACTORS = 10;
/** GoTrue's MFA_PHONE_MAX_FREQUENCY default: one SMS challenge per factor per minute. */
const PHONE_CHALLENGE_FREQUENCY_SECONDS = 60;
/**
 * GoTrue limits challenge and verify per IP (MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY:
 * 15 a minute, bursts of 30), each endpoint on its own. Here: a number per
 * 2-minute window (RATE_LIMIT_MFA_CHALLENGE_AND_VERIFY, default 30).
 */
const CHALLENGE_AND_VERIFY_WINDOW_SECONDS = 120;
/**
 * Wrong codes one user may enter in an hour, over all challenges (each of which
 * is void after `WRONG_CODES_PER_CODE`): past it, verification answers 429 until
 * the hour ends, so new challenges do not buy more guesses.
 */
const WRONG_CODES_PER_USER_PER_HOUR = 20;

const TOTP_OPTIONS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;

const INVALID_CHANNEL =
  "Invalid channel, supported values are 'sms' or 'whatsapp'. 'whatsapp' is only supported if Twilio or Twilio Verify is used as the provider.";

const FACTOR_COLUMNS = `id, user_id, friendly_name, factor_type, status, secret, phone, last_challenged_at, created_at, updated_at`;

/** What mfa-webauthn.ts shares of this module. */
const shared: MfaShared = {
  actorOf,
  validateNewFactor,
  upgradeSession,
  challengeExpired,
  ipMismatch,
};

export function registerMfaRoutes(routes: Hono, handle: HandleAuth): void {
  routes.post('/factors', handle(enrollFactor));
  routes.post('/factors/:factorId/challenge', handle(challengeFactor));
  routes.post('/factors/:factorId/verify', handle(verifyFactor));
  routes.delete('/factors/:factorId', handle(unenrollFactor));
}

// ---------------------------------------------------------------------------
// Shared checks (GoTrue's middleware chain for /factors)

/** requireAuthentication + requireNotAnonymous. */
async function authenticateForFactors(c: Context, deps: AuthDependencies): Promise<Authenticated> {
  const auth = await authenticate(c, deps);
  if ((auth.claims as { is_anonymous?: unknown }).is_anonymous === true) {
    throw new AuthError(
      403,
      'no_authorization',
      'Anonymous user not allowed to perform these actions',
    );
  }
  return auth;
}

/** loadFactor: the factor in the path, owned by the signed-in user. */
async function loadFactor(
  c: Context,
  db: Queryable,
  user: UserRow,
  forUpdate = false,
): Promise<FactorRow> {
  const factorId = c.req.param('factorId') ?? '';
  if (!isUuid(factorId)) {
    throw new AuthError(404, 'validation_failed', 'factor_id must be an UUID');
  }
  const { rows } = await db.query<FactorRow>(
    `select ${FACTOR_COLUMNS} from auth.mfa_factors where id = $1 and user_id = $2 ${forUpdate ? 'for update' : ''}`,
    [factorId, user.id],
  );
  const factor = rows[0];
  if (!factor) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
  return factor;
}

function actorOf(user: UserRow): AuditActor {
  return { id: user.id, username: user.email || user.phone || '' };
}

/** GoTrue's audit actions that audit.ts does not name yet (their log type is "factor" there too). */

/** The request IP as PostgreSQL's inet accepts it (challenges keep it, verify compares it). */
function requestIp(c: Context, deps: AuthDependencies): string {
  const ip = clientIp(c, deps.trustProxy);
  return isIP(ip) ? ip : '0.0.0.0';
}

async function limitChallengeAndVerify(
  deps: AuthDependencies,
  endpoint: 'challenge' | 'verify',
  ip: string,
): Promise<void> {
  await hitRateLimit(
    deps.db,
    networkKey(`mfa_${endpoint}`, ip),
    deps.config.rateLimits.mfaChallengeAndVerifyPer2Minutes,
    CHALLENGE_AND_VERIFY_WINDOW_SECONDS,
    errors.overRequestRateLimit,
  );
}

async function sessionAal(db: Queryable, sessionId: string): Promise<string | null> {
  const { rows } = await db.query<{ aal: string | null }>(
    `select aal from auth.sessions where id = $1`,
    [sessionId],
  );
  return rows[0]?.aal ?? null;
}

// ---------------------------------------------------------------------------
// POST /factors

const enrollBody = z.object({
  friendly_name: optionalString,
  factor_type: optionalString,
  issuer: optionalString,
  phone: optionalString,
});

async function enrollFactor(c: Context, deps: AuthDependencies): Promise<Response> {
  const { user, sessionId } = await authenticateForFactors(c, deps);
  if (!sessionId) {
    throw new AuthError(
      500,
      'unexpected_failure',
      'A valid session and a registered user are required to enroll a factor',
    );
  }
  const body = await readBody(c, enrollBody);
  const friendlyName = body.friendly_name ?? '';
  const { mfa } = deps.config;
  switch (body.factor_type) {
    case 'totp':
      if (!mfa.totpEnroll) {
        throw new AuthError(422, 'mfa_totp_enroll_not_enabled', 'MFA enroll is disabled for TOTP');
      }
      return enrollTotp(c, deps, user, sessionId, friendlyName, body.issuer);
    case 'phone':
      if (!mfa.phoneEnroll) {
        throw new AuthError(
          422,
          'mfa_phone_enroll_not_enabled',
          'MFA enroll is disabled for Phone',
        );
      }
      return enrollPhone(c, deps, user, sessionId, friendlyName, body.phone);
    case 'webauthn':
      if (!mfa.webauthnEnroll) {
        throw new AuthError(
          422,
          'mfa_webauthn_enroll_not_enabled',
          'MFA enroll is disabled for WebAuthn',
        );
      }
      return enrollWebAuthn(shared, c, deps, user, sessionId, friendlyName, requestIp(c, deps));
    default:
      throw errors.validation('factor_type needs to be totp, phone, or webauthn');
  }
}

/** GoTrue's validateFactors: stale factors go, then name, count and AAL rules. */
async function validateNewFactor(
  tx: Queryable,
  deps: AuthDependencies,
  user: UserRow,
  sessionId: string,
  friendlyName: string,
): Promise<void> {
  // Like GoTrue, this sweeps every user's abandoned enrolments, not only this user's.
  await tx.query(
    `delete from auth.mfa_factors f
     where f.status <> 'verified'
       and not exists (select 1 from auth.mfa_challenges ch where ch.factor_id = f.id)
       and f.created_at + make_interval(secs => $1) < now()`,
    [FACTOR_EXPIRY_SECONDS],
  );
  const { rows: factors } = await tx.query<Pick<FactorRow, 'friendly_name' | 'status'>>(
    `select friendly_name, status from auth.mfa_factors where user_id = $1`,
    [user.id],
  );
  let verified = 0;
  for (const factor of factors) {
    // GoTrue compares names as given, so a second unnamed factor conflicts with the first.
    if ((factor.friendly_name ?? '') === friendlyName) {
      throw new AuthError(
        422,
        'mfa_factor_name_conflict',
        `A factor with the friendly name ${JSON.stringify(friendlyName)} for this user already exists`,
      );
    }
    if (factor.status === 'verified') verified += 1;
  }
  if (factors.length >= deps.config.mfa.maxFactors || verified >= MAX_VERIFIED_FACTORS) {
    throw new AuthError(
      422,
      'too_many_enrolled_mfa_factors',
      'Maximum number of verified factors reached, unenroll to continue',
    );
  }
  if (verified > 0 && (await sessionAal(tx, sessionId)) !== 'aal2') {
    throw new AuthError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
  }
}

async function insertFactor(
  tx: Queryable,
  factor: {
    id: string;
    userId: string;
    friendlyName: string;
    type: 'totp' | 'phone';
    secret?: string;
    phone?: string;
  },
): Promise<void> {
  await tx.query(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret, phone, created_at, updated_at)
     values ($1, $2, $3, $4, 'unverified', $5, $6, now(), now())`,
    [
      factor.id,
      factor.userId,
      factor.friendlyName,
      factor.type,
      factor.secret ?? null,
      factor.phone ?? null,
    ],
  );
}

async function enrollTotp(
  c: Context,
  deps: AuthDependencies,
  user: UserRow,
  sessionId: string,
  friendlyName: string,
  requestedIssuer: string | undefined,
): Promise<Response> {
  let issuer = requestedIssuer ?? '';
  if (!issuer) {
    try {
      issuer = new URL(deps.config.siteUrl).host;
    } catch {
      throw new AuthError(500, 'unexpected_failure', 'site url is improperly formatted');
    }
  }
  const ip = requestIp(c, deps);
  const factorId = generateUuid();
  const totp = new TOTP({
    ...TOTP_OPTIONS,
    issuer,
    label: user.email || user.phone || '',
    secret: new Secret({ size: 20 }),
  });
  const uri = totp.toString();
  // Named colours instead of hex: the client embeds the SVG in a data: URL, where '#' would end it.
  const qrCode = (await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'H' }))
    .replaceAll('"#ffffff"', '"white"')
    .replaceAll('"#000000"', '"black"');

  await deps.db.transaction(async (tx) => {
    await findUserById(tx, user.id, true); // one enrolment at a time per user
    await validateNewFactor(tx, deps, user, sessionId, friendlyName);
    await insertFactor(tx, {
      id: factorId,
      userId: user.id,
      friendlyName,
      type: 'totp',
      secret: totp.secret.base32,
    });
    await recordAudit(tx, actorOf(user), 'factor_in_progress', ip, { factor_id: factorId });
  });
  return c.json({
    id: factorId,
    type: 'totp',
    friendly_name: friendlyName,
    totp: { qr_code: qrCode, secret: totp.secret.base32, uri },
  });
}

async function enrollPhone(
  c: Context,
  deps: AuthDependencies,
  user: UserRow,
  sessionId: string,
  friendlyName: string,
  rawPhone: string | undefined,
): Promise<Response> {
  if (!rawPhone) throw errors.validation('Phone number required to enroll Phone factor');
  const phone = normalisePhone(rawPhone);
  if (!phone) throw errors.validation('Invalid phone number format (E.164 required)');
  const ip = requestIp(c, deps);
  const factorId = generateUuid();

  await deps.db.transaction(async (tx) => {
    await findUserById(tx, user.id, true);
    const { rows: samePhone } = await tx.query<Pick<FactorRow, 'id' | 'status'>>(
      `select id, status from auth.mfa_factors where user_id = $1 and factor_type = 'phone' and phone = $2`,
      [user.id, phone],
    );
    if (samePhone.some((factor) => factor.status === 'verified')) {
      throw new AuthError(
        422,
        'mfa_verified_factor_exists',
        'A verified phone factor already exists, unenroll the existing factor to continue',
      );
    }
    // An unfinished enrolment of the same number is replaced by this one.
    if (samePhone.length > 0) {
      await tx.query(`delete from auth.mfa_factors where id = any($1::uuid[])`, [
        samePhone.map((factor) => factor.id),
      ]);
    }
    await validateNewFactor(tx, deps, user, sessionId, friendlyName);
    await insertFactor(tx, { id: factorId, userId: user.id, friendlyName, type: 'phone', phone });
    await recordAudit(tx, actorOf(user), 'factor_in_progress', ip, {
      factor_id: factorId,
      factor_type: 'phone',
    });
  });
  return c.json({ id: factorId, type: 'phone', friendly_name: friendlyName, phone: rawPhone });
}

// ---------------------------------------------------------------------------
// POST /factors/:factorId/challenge

const challengeBody = z.object({ channel: optionalString });

function verificationDisabled(factorType: FactorRow['factor_type'], deps: AuthDependencies) {
  const { mfa } = deps.config;
  if (factorType === 'phone' && !mfa.phoneVerify) {
    return new AuthError(
      422,
      'mfa_phone_verify_not_enabled',
      'MFA verification is disabled for Phone',
    );
  }
  if (factorType === 'totp' && !mfa.totpVerify) {
    return new AuthError(
      422,
      'mfa_totp_verify_not_enabled',
      'MFA verification is disabled for TOTP',
    );
  }
  return undefined;
}

async function challengeFactor(c: Context, deps: AuthDependencies): Promise<Response> {
  const { user } = await authenticateForFactors(c, deps);
  const factor = await loadFactor(c, deps.db, user);
  const ip = requestIp(c, deps);
  await limitChallengeAndVerify(deps, 'challenge', ip);
  if (factor.factor_type === 'webauthn')
    return challengeWebAuthn(shared, c, deps, user, factor, ip);
  const disabled = verificationDisabled(factor.factor_type, deps);
  if (disabled) throw disabled;

  let channel = 'sms';
  if (factor.factor_type === 'phone') {
    const body = await readBody(c, challengeBody);
    channel = body.channel || 'sms';
    if (channel !== 'sms') throw errors.validation(INVALID_CHANNEL);
  }

  const challengeId = generateUuid();
  const createdAt = await deps.db.transaction(async (tx) => {
    // Locked, so two concurrent challenges of a phone factor cannot both pass the frequency check.
    const current = await loadFactor(c, tx, user, true);
    let otpHash: string | null = null;
    let code: string | null = null;
    if (current.factor_type === 'phone') {
      const { rows: wait } = await tx.query<{ seconds_left: number | null }>(
        `select extract(epoch from (last_challenged_at + make_interval(secs => $2) - now()))::float8 as seconds_left
         from auth.mfa_factors where id = $1`,
        [current.id, PHONE_CHALLENGE_FREQUENCY_SECONDS],
      );
      const secondsLeft = wait[0]?.seconds_left ?? null;
      if (secondsLeft !== null && secondsLeft >= 0)
        throw errors.smsTooSoon(Math.floor(secondsLeft));
      code = generateOtp(deps.config.otpLength);
      otpHash = hashPhoneCode(challengeId, code);
    }
    const { rows } = await tx.query<{ created_at: string }>(
      `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address, otp_code)
       values ($1, $2, now(), $3::inet, $4) returning created_at`,
      [challengeId, current.id, ip, otpHash],
    );
    await tx.query(`update auth.mfa_factors set last_challenged_at = now() where id = $1`, [
      current.id,
    ]);
    if (code !== null && current.phone) {
      await sendSms(
        tx,
        deps,
        { ip },
        {
          to: current.phone,
          userId: user.id,
          purpose: 'mfa',
          template: 'auth.sms_mfa',
          text: authSms.mfa(code),
          metadata: { factor_id: current.id, channel },
        },
      );
    }
    await recordAudit(tx, actorOf(user), 'challenge_created', ip, {
      factor_id: current.id,
      factor_status: current.status,
    });
    return rows[0]!.created_at;
  });

  return c.json({
    id: challengeId,
    type: factor.factor_type,
    expires_at: epochSeconds(createdAt) + deps.config.mfa.challengeExpirySeconds,
  });
}

/** Phone codes are kept only as a hash, bound to their challenge. */
function hashPhoneCode(challengeId: string, code: string): string {
  return createHash('sha256').update(`${challengeId}:${code}`).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

// ---------------------------------------------------------------------------
// POST /factors/:factorId/verify

const verifyBody = z.object({
  challenge_id: z.unknown().optional(),
  code: z.unknown().optional(),
  webauthn: z.unknown().optional(),
});

/** GoTrue decodes challenge_id into a UUID: a malformed one fails as bad JSON. */
function readChallengeId(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw new AuthError(
      400,
      'bad_json',
      `Could not parse request body as JSON: json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go struct field VerifyFactorParams.challenge_id of type uuid.UUID`,
    );
  }
  if (!isUuid(value)) {
    throw new AuthError(
      400,
      'bad_json',
      `Could not parse request body as JSON: uuid: incorrect UUID length ${value.length} in string ${JSON.stringify(value)}`,
    );
  }
  return value.toLowerCase();
}

function readCode(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') {
    throw new AuthError(
      400,
      'bad_json',
      `Could not parse request body as JSON: json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go struct field VerifyFactorParams.code of type string`,
    );
  }
  return value;
}

interface ChallengeRow {
  id: string;
  verified_at: string | null;
  same_ip: boolean;
  expired: boolean;
  otp_code: string | null;
  /** created_at in epoch seconds: the window its wrong codes are counted in. */
  created: number;
}

function challengeExpired(challengeId: string): AuthError {
  return new AuthError(
    422,
    'mfa_challenge_expired',
    `MFA challenge ${challengeId} has expired, verify against another challenge or create a new challenge.`,
  );
}

/**
 * Counts this attempt against the user and the challenge before the code is
 * checked, so concurrent guesses cannot slip past either count: 429 once the
 * user has used the hour's attempts, and the challenge deleted (expired) once
 * it has had its `WRONG_CODES_PER_CODE`. A right code gives the user's attempt
 * back; a wrong one that uses the challenge's last attempt deletes it.
 */
async function reserveCodeAttempt(
  deps: AuthDependencies,
  user: UserRow,
  challenge: ChallengeRow,
): Promise<{ refund(): Promise<void>; wrongCode(error: AuthError): Promise<never> }> {
  const userKey = accountKey('mfa_wrong_codes', user.id);
  await hitRateLimit(
    deps.db,
    userKey,
    WRONG_CODES_PER_USER_PER_HOUR,
    3600,
    errors.overRequestRateLimit,
  );
  const attempts = await countAttempt(
    deps.db,
    accountKey('mfa_wrong_code', challenge.id),
    challenge.created,
  );
  const deleteChallenge = () =>
    deps.db.query(`delete from auth.mfa_challenges where id = $1`, [challenge.id]);
  if (attempts > WRONG_CODES_PER_CODE) {
    await deleteChallenge();
    throw challengeExpired(challenge.id);
  }
  return {
    refund: () => refundHit(deps.db, userKey, 3600),
    async wrongCode(error) {
      if (attempts >= WRONG_CODES_PER_CODE) await deleteChallenge();
      throw error;
    },
  };
}

async function verifyFactor(c: Context, deps: AuthDependencies): Promise<Response> {
  const { user, sessionId } = await authenticateForFactors(c, deps);
  const factor = await loadFactor(c, deps.db, user);
  const ip = requestIp(c, deps);
  await limitChallengeAndVerify(deps, 'verify', ip);
  const body = await readBody(c, verifyBody);
  const challengeId = readChallengeId(body.challenge_id);
  const code = readCode(body.code);
  if (code === '' && factor.factor_type !== 'webauthn') {
    throw errors.validation('Code needs to be non-empty');
  }
  if (factor.factor_type === 'webauthn') {
    if (!deps.config.mfa.webauthnVerify) {
      // GoTrue answers with the enroll code here (sic).
      throw new AuthError(
        422,
        'mfa_webauthn_enroll_not_enabled',
        'MFA verification is disabled for WebAuthn',
      );
    }
    return verifyWebAuthn(shared, c, deps, user, sessionId, factor, ip, challengeId, body.webauthn);
  }
  const disabled = verificationDisabled(factor.factor_type, deps);
  if (disabled) throw disabled;

  // validateChallenge
  const { rows } = challengeId
    ? await deps.db.query<ChallengeRow>(
        `select id, verified_at, otp_code, ip_address = $3::inet as same_ip,
                created_at + make_interval(secs => $4) < now() as expired,
                extract(epoch from created_at)::float8 as created
         from auth.mfa_challenges where id = $1 and factor_id = $2`,
        [challengeId, factor.id, ip, deps.config.mfa.challengeExpirySeconds],
      )
    : { rows: [] as ChallengeRow[] };
  const challenge = rows[0];
  if (!challenge) {
    // A challenge voided by wrong codes reads as expired: the client should start another.
    if (
      challengeId &&
      (await attemptsCounted(deps.db, accountKey('mfa_wrong_code', challengeId))) >=
        WRONG_CODES_PER_CODE
    ) {
      throw challengeExpired(challengeId);
    }
    throw new AuthError(
      422,
      'mfa_factor_not_found',
      'MFA factor with the provided challenge ID not found',
    );
  }
  if (challenge.verified_at || !challenge.same_ip) throw ipMismatch();
  if (challenge.expired) {
    await deps.db.query(`delete from auth.mfa_challenges where id = $1`, [challenge.id]);
    throw challengeExpired(challenge.id);
  }
  const attempt = await reserveCodeAttempt(deps, user, challenge);

  if (factor.factor_type === 'totp') {
    const valid =
      factor.secret !== null &&
      TOTP.validate({
        ...TOTP_OPTIONS,
        token: code,
        secret: Secret.fromBase32(factor.secret),
        window: 1,
      }) !== null;
    if (!valid) {
      await attempt.wrongCode(
        new AuthError(422, 'mfa_verification_failed', 'Invalid TOTP code entered'),
      );
    }
  } else {
    const valid =
      challenge.otp_code !== null &&
      sameHash(challenge.otp_code, hashPhoneCode(challenge.id, code));
    if (!valid) {
      await attempt.wrongCode(
        new AuthError(422, 'mfa_verification_failed', 'Invalid MFA Phone code entered'),
      );
    }
  }
  await attempt.refund();

  if (!sessionId) {
    throw new AuthError(500, 'unexpected_failure', 'Cannot read SessionId claim as UUID');
  }
  const method: AuthMethod = factor.factor_type === 'totp' ? 'totp' : 'mfa/phone';
  const response = await deps.db.transaction(async (tx) => {
    await recordAudit(tx, actorOf(user), 'verification_attempted', ip, {
      factor_id: factor.id,
      challenge_id: challenge.id,
      factor_type: factor.factor_type,
    });
    // Only one request can consume a challenge.
    const consumed = await tx.query(
      `update auth.mfa_challenges set verified_at = now() where id = $1 and verified_at is null`,
      [challenge.id],
    );
    if (consumed.rowCount === 0) throw ipMismatch();
    await tx.query(
      `update auth.mfa_factors set status = 'verified', updated_at = now()
       where id = $1 and status <> 'verified'`,
      [factor.id],
    );
    const refreshToken = await upgradeSession(tx, user, sessionId, factor.id, method, ip);
    // Sessions still at AAL1 are signed out, and other unfinished enrolments of this type dropped.
    await tx.query(`delete from auth.sessions where user_id = $1 and aal < 'aal2'`, [user.id]);
    await tx.query(
      `delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and factor_type = $2`,
      [user.id, factor.factor_type],
    );
    return tokenResponse(tx, deps, user.id, sessionId, refreshToken);
  });
  return c.json(response);
}

function ipMismatch(): AuthError {
  return new AuthError(
    422,
    'mfa_ip_address_mismatch',
    'Challenge and verify IP addresses mismatch.',
  );
}

/**
 * GoTrue's updateMFASessionAndClaims: records the factor's method, swaps the
 * session's refresh token (so the AAL1 one cannot refresh into AAL2) and
 * raises the session to AAL2. Returns the new refresh token.
 */
async function upgradeSession(
  tx: Queryable,
  user: UserRow,
  sessionId: string,
  factorId: string,
  method: AuthMethod,
  ip: string,
): Promise<string> {
  const { rows: sessions } = await tx.query<{ id: string }>(
    `select id from auth.sessions where id = $1 and user_id = $2 for update`,
    [sessionId, user.id],
  );
  if (!sessions[0]) throw errors.sessionNotFound();
  await recordAuthMethod(tx, sessionId, method);
  const { rows: active } = await tx.query<{ id: number; token: string }>(
    `select id, token from auth.refresh_tokens where session_id = $1 and revoked = false
     order by id desc limit 1 for update`,
    [sessionId],
  );
  const current = active[0];
  if (current) {
    await tx.query(
      `update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1`,
      [current.id],
    );
    await recordAudit(tx, actorOf(user), 'token_revoked', ip);
  }
  const refreshToken = await insertRefreshToken(tx, user.id, sessionId, current?.token ?? null);
  await tx.query(
    `update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1`,
    [sessionId, factorId],
  );
  return refreshToken;
}

// ---------------------------------------------------------------------------
// DELETE /factors/:factorId

async function unenrollFactor(c: Context, deps: AuthDependencies): Promise<Response> {
  const { user, sessionId } = await authenticateForFactors(c, deps);
  const factor = await loadFactor(c, deps.db, user);
  if (!sessionId) {
    throw new AuthError(
      500,
      'unexpected_failure',
      'A valid session and factor are required to unenroll a factor',
    );
  }
  if (factor.status === 'verified' && (await sessionAal(deps.db, sessionId)) !== 'aal2') {
    throw errors.insufficientAal('AAL2 required to unenroll verified factor');
  }
  const ip = requestIp(c, deps);
  const method: AuthMethod =
    factor.factor_type === 'phone'
      ? 'mfa/phone'
      : factor.factor_type === 'webauthn'
        ? 'mfa/webauthn'
        : 'totp';
  await deps.db.transaction(async (tx) => {
    await tx.query(`delete from auth.mfa_factors where id = $1`, [factor.id]);
    await recordAudit(tx, actorOf(user), 'factor_unenrolled', ip, {
      factor_id: factor.id,
      factor_status: factor.status,
      session_id: sessionId,
    });
    // Sessions that reached AAL2 with this factor fall back to AAL1.
    await tx.query(
      `delete from auth.mfa_amr_claims where authentication_method = $2
         and session_id in (select id from auth.sessions where user_id = $1 and factor_id = $3)`,
      [user.id, method, factor.id],
    );
    await tx.query(
      `update auth.sessions set aal = 'aal1', factor_id = null where user_id = $1 and factor_id = $2`,
      [user.id, factor.id],
    );
  });
  return c.json({ id: factor.id });
}
