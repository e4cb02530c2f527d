import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Context } from 'hono';
import { z } from 'zod';
import type { Queryable } from '../db/database';
import { recordAudit, type AuditActor } from './audit';
import type { AuthDependencies } from './context';
import { AuthError, errors } from './errors';
import { readBody } from './request';
import { tokenResponse } from './sessions';
import { epochSeconds } from './time';
import { generateUuid } from './tokens';
import {
  authenticationCredential,
  refuseRegisteredKey,
  registeredKeys,
  registrationCredential,
} from './webauthn-credential';
import { findUserById, type FactorRow, type UserRow } from './users';

/**
 * WebAuthn second factors (security keys), as GoTrue's internal/api/mfa.go
 * offers them (decision 040). Enrolment makes an unverified factor; its first
 * challenge answers creation options and verify stores the credential; later
 * challenges answer request options and verify checks a signed assertion and
 * its sign counter. All WebAuthn checking is @simplewebauthn/server's.
 *
 * The relying party (id and origins) comes from the challenge request's
 * `webauthn: { rpId, rpOrigins }`, as auth-js sends it, and must be allowed
 * here: every origin is the site's or an exact URI_ALLOW_LIST entry's, and
 * the id is each origin's host or a domain above it. The challenge keeps
 * them, so verify checks the answer against what this server asked.
 */

/**
 * What this module uses of mfa.ts, handed in by it (mfa.ts imports this
 * module, so importing it back would be a cycle).
 */
export interface MfaShared {
  actorOf(user: UserRow): AuditActor;
  validateNewFactor(
    tx: Queryable,
    deps: AuthDependencies,
    user: UserRow,
    sessionId: string,
    friendlyName: string,
  ): Promise<void>;
  upgradeSession(
    tx: Queryable,
    user: UserRow,
    sessionId: string,
    factorId: string,
    method: 'mfa/webauthn',
    ip: string,
  ): Promise<string>;
  challengeExpired(challengeId: string): AuthError;
  ipMismatch(): AuthError;
}

/** GoTrue's audit action for a new factor (audit.ts's `factor_in_progress`). */
const ENROL_ACTION = 'factor_in_progress';

/** What a challenge keeps in `web_authn_session_data`. */
interface SessionData {
  type: 'create' | 'request';
  challenge: string;
  rp_id: string;
  rp_origins: string[];
}

/** What a verified factor keeps in `web_authn_credential`. */
interface StoredCredential {
  id: string;
  public_key: string;
  counter: number;
  transports?: string[];
  rp_id: string;
}

const sessionData = z.object({
  type: z.enum(['create', 'request']),
  challenge: z.string(),
  rp_id: z.string(),
  rp_origins: z.array(z.string()),
});

const storedCredential = z.object({
  id: z.string(),
  public_key: z.string(),
  counter: z.number(),
  transports: z.array(z.string()).optional(),
  rp_id: z.string(),
});

// ---------------------------------------------------------------------------
// POST /factors with factor_type webauthn

export async function enrollWebAuthn(
  shared: MfaShared,
  c: Context,
  deps: AuthDependencies,
  user: UserRow,
  sessionId: string,
  friendlyName: string,
  ip: string,
): Promise<Response> {
  const factorId = generateUuid();
  await deps.db.transaction(async (tx) => {
    await findUserById(tx, user.id, true); // one enrolment at a time per user
    await shared.validateNewFactor(tx, deps, user, sessionId, friendlyName);
    await tx.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at)
       values ($1, $2, $3, 'webauthn', 'unverified', now(), now())`,
      [factorId, user.id, friendlyName],
    );
    await recordAudit(tx, shared.actorOf(user), ENROL_ACTION, ip, {
      factor_id: factorId,
      factor_type: 'webauthn',
    });
  });
  return c.json({ id: factorId, type: 'webauthn', friendly_name: friendlyName });
}

// ---------------------------------------------------------------------------
// POST /factors/:factorId/challenge for a WebAuthn factor

const challengeBody = z.object({
  webauthn: z
    .union([
      z.object({
        rpId: z.union([z.string().max(253), z.null()]).optional(),
        rpOrigins: z.union([z.array(z.string().max(2048)).max(10), z.null()]).optional(),
      }),
      z.null(),
    ])
    .optional(),
});

export async function challengeWebAuthn(
  shared: MfaShared,
  c: Context,
  deps: AuthDependencies,
  user: UserRow,
  factor: FactorRow,
  ip: string,
): Promise<Response> {
  if (!deps.config.mfa.webauthnVerify) throw verifyDisabled();
  const body = await readBody(c, challengeBody);
  const party = relyingParty(deps, body.webauthn?.rpId ?? undefined, body.webauthn?.rpOrigins);
  const challengeId = generateUuid();

  const { session, options } = await deps.db.transaction(async (tx) => {
    const current = await lockFactor(tx, factor.id, user.id);
    let session: SessionData;
    let options: unknown;
    if (current.status === 'unverified') {
      // Keys the user already has (factors and passkeys) are not registered twice.
      const others = await registeredKeys(tx, user.id);
      const created = await generateRegistrationOptions({
        rpName: siteHost(deps),
        rpID: party.rpId,
        userName: user.email || user.phone || user.id,
        userID: uuidBytes(user.id),
        attestationType: 'none',
        excludeCredentials: others,
        authenticatorSelection: { residentKey: 'discouraged', userVerification: 'preferred' },
        timeout: deps.config.mfa.challengeExpirySeconds * 1000,
      });
      session = { type: 'create', challenge: created.challenge, ...partyData(party) };
      options = created;
    } else {
      const credential = credentialOf(current);
      const requested = await generateAuthenticationOptions({
        rpID: party.rpId,
        allowCredentials: [{ id: credential.id, transports: credential.transports }],
        userVerification: 'preferred',
        timeout: deps.config.mfa.challengeExpirySeconds * 1000,
      });
      session = { type: 'request', challenge: requested.challenge, ...partyData(party) };
      options = requested;
    }
    await tx.query(
      `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address, web_authn_session_data)
       values ($1, $2, now(), $3::inet, $4::jsonb)`,
      [challengeId, current.id, ip, JSON.stringify(session)],
    );
    await tx.query(`update auth.mfa_factors set last_challenged_at = now() where id = $1`, [
      current.id,
    ]);
    await recordAudit(tx, shared.actorOf(user), 'challenge_created', ip, {
      factor_id: current.id,
      factor_status: current.status,
    });
    return { session, options };
  });

  const { rows } = await deps.db.query<{ created_at: string }>(
    `select created_at from auth.mfa_challenges where id = $1`,
    [challengeId],
  );
  const createdAt = rows[0]?.created_at ?? new Date().toISOString();
  return c.json({
    id: challengeId,
    type: 'webauthn',
    expires_at: epochSeconds(createdAt) + deps.config.mfa.challengeExpirySeconds,
    // go-webauthn wraps the options as { publicKey }, which auth-js unwraps.
    webauthn: { type: session.type, credential_options: { publicKey: options } },
  });
}

// ---------------------------------------------------------------------------
// POST /factors/:factorId/verify for a WebAuthn factor

const webauthnParams = z.object({
  type: z.unknown().optional(),
  credential_response: z.unknown().optional(),
});

interface ChallengeRow {
  id: string;
  verified_at: string | null;
  same_ip: boolean;
  expired: boolean;
  web_authn_session_data: unknown;
}

export async function verifyWebAuthn(
  shared: MfaShared,
  c: Context,
  deps: AuthDependencies,
  user: UserRow,
  sessionId: string | undefined,
  factor: FactorRow,
  ip: string,
  challengeId: string | undefined,
  rawParams: unknown,
): Promise<Response> {
  // GoTrue's checks of the `webauthn` parameter, in its order.
  if (rawParams === undefined || rawParams === null) {
    throw errors.validation('WebAuthn config required');
  }
  const params = webauthnParams.safeParse(rawParams);
  if (!params.success) throw errors.validation('WebAuthn config required');
  const type = params.data.type;
  if (type !== 'create' && type !== 'request') {
    throw errors.validation('WebAuthn type must be create or request');
  }
  const rawResponse = params.data.credential_response;
  if (rawResponse === undefined || rawResponse === null) {
    throw errors.validation('credential_response required');
  }

  // validateChallenge
  const { rows } = challengeId
    ? await deps.db.query<ChallengeRow>(
        `select id, verified_at, web_authn_session_data, ip_address = $3::inet as same_ip,
                created_at + make_interval(secs => $4) < now() as expired
         from auth.mfa_challenges where id = $1 and factor_id = $2`,
        [challengeId, factor.id, ip, deps.config.mfa.challengeExpirySeconds],
      )
    : { rows: [] as ChallengeRow[] };
  const challenge = rows[0];
  const session = sessionData.safeParse(challenge?.web_authn_session_data);
  if (!challenge || !session.success) {
    throw new AuthError(
      422,
      'mfa_factor_not_found',
      'MFA factor with the provided challenge ID not found',
    );
  }
  if (challenge.verified_at || !challenge.same_ip) throw shared.ipMismatch();
  if (challenge.expired) {
    await deps.db.query(`delete from auth.mfa_challenges where id = $1`, [challenge.id]);
    throw shared.challengeExpired(challenge.id);
  }
  if (type !== session.data.type) {
    throw errors.validation(`WebAuthn type must be ${session.data.type} for this challenge`);
  }
  const expected = session.data;
  // The answer's shape is checked before the challenge is spent on it.
  const registration =
    type === 'create' ? registrationCredential.safeParse(rawResponse) : undefined;
  const assertion =
    type === 'request' ? authenticationCredential.safeParse(rawResponse) : undefined;
  if (registration?.success === false || assertion?.success === false) {
    throw errors.validation('Invalid credential_response');
  }

  // A challenge answers one attempt, right or wrong: consumed before the
  // response is checked, so a replay or a concurrent second answer finds nothing.
  const consumed = await deps.db.query(`delete from auth.mfa_challenges where id = $1`, [
    challenge.id,
  ]);
  if (consumed.rowCount === 0) {
    throw new AuthError(
      422,
      'mfa_factor_not_found',
      'MFA factor with the provided challenge ID not found',
    );
  }

  let update: { credential?: StoredCredential; aaguid?: string; counter?: number };
  if (registration?.success) {
    if (factor.status === 'verified') throw verificationFailed();
    const result = await verifyRegistrationResponse({
      response: registration.data,
      expectedChallenge: expected.challenge,
      expectedOrigin: expected.rp_origins,
      expectedRPID: expected.rp_id,
      requireUserVerification: false,
    }).catch(() => ({ verified: false as const }));
    if (!result.verified) throw verificationFailed();
    const { credential, aaguid } = result.registrationInfo;
    await refuseRegisteredKey(deps.db, user.id, credential.id);
    update = {
      credential: {
        id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports,
        rp_id: expected.rp_id,
      },
      aaguid,
    };
  } else if (assertion?.success) {
    if (factor.status !== 'verified') throw verificationFailed();
    const stored = credentialOf(await withCredential(deps.db, factor));
    if (assertion.data.id !== stored.id || stored.rp_id !== expected.rp_id) {
      throw verificationFailed();
    }
    const result = await verifyAuthenticationResponse({
      response: assertion.data,
      expectedChallenge: expected.challenge,
      expectedOrigin: expected.rp_origins,
      expectedRPID: expected.rp_id,
      credential: {
        id: stored.id,
        publicKey: Buffer.from(stored.public_key, 'base64url'),
        counter: stored.counter,
        transports: stored.transports,
      },
      requireUserVerification: false,
    }).catch(() => ({ verified: false as const, authenticationInfo: undefined }));
    if (!result.verified || !result.authenticationInfo) throw verificationFailed();
    update = { counter: result.authenticationInfo.newCounter };
  } else {
    throw errors.validation('Invalid credential_response');
  }

  if (!sessionId) {
    throw new AuthError(500, 'unexpected_failure', 'Cannot read SessionId claim as UUID');
  }
  const lastChallenge = JSON.stringify({
    challenge: expected.challenge,
    type,
    rp_id: expected.rp_id,
  });
  const tokens = await deps.db.transaction(async (tx) => {
    await recordAudit(tx, shared.actorOf(user), 'verification_attempted', ip, {
      factor_id: factor.id,
      challenge_id: challenge.id,
      factor_type: 'webauthn',
    });
    if (update.credential) {
      const saved = await tx.query(
        `update auth.mfa_factors
         set status = 'verified', web_authn_credential = $2::jsonb, web_authn_aaguid = $3::uuid,
             last_webauthn_challenge_data = $4::jsonb, updated_at = now()
         where id = $1 and status = 'unverified'`,
        [factor.id, JSON.stringify(update.credential), update.aaguid ?? null, lastChallenge],
      );
      if (saved.rowCount === 0) throw verificationFailed();
    } else {
      // The counter only moves forward, also against a concurrent assertion.
      const counter = update.counter ?? 0;
      const saved = await tx.query(
        `update auth.mfa_factors
         set web_authn_credential = jsonb_set(web_authn_credential, '{counter}', to_jsonb($2::bigint)),
             last_webauthn_challenge_data = $3::jsonb, updated_at = now()
         where id = $1 and status = 'verified'
           and ($2::bigint = 0 or (web_authn_credential ->> 'counter')::bigint < $2::bigint)`,
        [factor.id, counter, lastChallenge],
      );
      if (saved.rowCount === 0) throw verificationFailed();
    }
    const refreshToken = await shared.upgradeSession(
      tx,
      user,
      sessionId,
      factor.id,
      'mfa/webauthn',
      ip,
    );
    await tx.query(`delete from auth.sessions where user_id = $1 and aal < 'aal2'`, [user.id]);
    await tx.query(
      `delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and factor_type = 'webauthn'`,
      [user.id],
    );
    return tokenResponse(tx, deps, user.id, sessionId, refreshToken);
  });
  return c.json(tokens);
}

// ---------------------------------------------------------------------------
// Helpers

function verifyDisabled(): AuthError {
  return new AuthError(
    422,
    'mfa_webauthn_verify_not_enabled',
    'MFA verification is disabled for WebAuthn',
  );
}

/**
 * GoTrue answers a failed WebAuthn check with a 500; here it is the client's
 * failure, in the code TOTP and phone use for a wrong code.
 */
function verificationFailed(): AuthError {
  return new AuthError(422, 'mfa_verification_failed', 'Failed to validate WebAuthn MFA response');
}

function siteHost(deps: AuthDependencies): string {
  try {
    return new URL(deps.config.siteUrl).host;
  } catch {
    throw new AuthError(500, 'unexpected_failure', 'site url is improperly formatted');
  }
}

interface RelyingParty {
  rpId: string;
  origins: string[];
}

function partyData(party: RelyingParty): Pick<SessionData, 'rp_id' | 'rp_origins'> {
  return { rp_id: party.rpId, rp_origins: party.origins };
}

/** The origins WebAuthn may run on: the site's, and those of exact URI_ALLOW_LIST entries. */
function allowedOrigins(deps: AuthDependencies): Set<string> {
  const allowed = new Set<string>();
  for (const entry of [deps.config.siteUrl, ...deps.config.redirectAllowList]) {
    if (entry.includes('*')) continue;
    const origin = httpOrigin(entry);
    if (origin) allowed.add(origin);
  }
  return allowed;
}

function httpOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The request's relying party, checked against what this server allows. */
export function relyingParty(
  deps: AuthDependencies,
  requestedId: string | undefined,
  requestedOrigins: string[] | null | undefined,
): RelyingParty {
  const allowed = allowedOrigins(deps);
  const site = httpOrigin(deps.config.siteUrl);
  const raw = requestedOrigins && requestedOrigins.length > 0 ? requestedOrigins : [site ?? ''];
  const origins: string[] = [];
  for (const value of raw) {
    const origin = httpOrigin(value);
    // Only a bare origin (no path, no trailing slash) is an origin.
    if (!origin || origin !== value || !allowed.has(origin)) {
      throw errors.validation(`WebAuthn origin ${JSON.stringify(value)} is not allowed`);
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  const rpId = (requestedId || new URL(origins[0]!).hostname).toLowerCase();
  for (const origin of origins) {
    const host = new URL(origin).hostname;
    // A domain above the host, never a bare top-level one ("test", "com").
    if (host !== rpId && !(host.endsWith(`.${rpId}`) && rpId.includes('.'))) {
      throw errors.validation(
        `WebAuthn rpId ${JSON.stringify(rpId)} is not the host of ${origin} or a domain above it`,
      );
    }
  }
  return { rpId, origins };
}

async function lockFactor(tx: Queryable, factorId: string, userId: string): Promise<FactorRow> {
  const { rows } = await tx.query<FactorRow & { web_authn_credential: unknown }>(
    `select id, user_id, friendly_name, factor_type, status, secret, phone, last_challenged_at,
            created_at, updated_at, web_authn_credential
     from auth.mfa_factors where id = $1 and user_id = $2 for update`,
    [factorId, userId],
  );
  const factor = rows[0];
  if (!factor) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
  return factor;
}

/** The credential of a verified WebAuthn factor (loaded with its `web_authn_credential`). */
function credentialOf(factor: FactorRow): StoredCredential {
  const parsed = storedCredential.safeParse(
    (factor as FactorRow & { web_authn_credential?: unknown }).web_authn_credential,
  );
  if (!parsed.success) throw verificationFailed();
  return parsed.data;
}

/** Reads a WebAuthn factor again with its credential (mfa.ts loads factors without it). */
async function withCredential(db: Queryable, factor: FactorRow): Promise<FactorRow> {
  const { rows } = await db.query<{ web_authn_credential: unknown }>(
    `select web_authn_credential from auth.mfa_factors where id = $1`,
    [factor.id],
  );
  return { ...factor, web_authn_credential: rows[0]?.web_authn_credential } as FactorRow;
}

/** GoTrue's WebAuthnID: the user id's 16 bytes. */
function uuidBytes(id: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(id.replaceAll('-', ''), 'hex'));
}
