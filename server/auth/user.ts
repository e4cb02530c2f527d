import type { Context } from 'hono';
import { z } from 'zod';
import type { Transaction } from '../db/database';
import { recordAudit } from './audit';
import type { AuthDependencies } from './context';
import { confirmIdentityChange } from './create-user';
import { AuthError, errors } from './errors';
import { createFlowState, readCodeChallenge } from './flow-state';
import { sendEmailChange, sendSmsCode } from './messages';
import { WRONG_CODES_PER_CODE, deleteOneTimeToken, findOneTimeToken } from './one-time-tokens';
import { checkPasswordStrength, hashPassword, verifyPassword } from './passwords';
import {
  accountKey,
  countAttempt,
  currentHits,
  hitRateLimit,
  networkKey,
  refundHit,
  type LimitKey,
} from './rate-limits';
import { resolveRedirect } from './redirects';
import { clientIp, metadataObject, optionalString, readBody } from './request';
import { authenticate, isOAuthAppToken, type Authenticated } from './request-auth';
import { countFailedPassword, failedPasswordKey, hasSignedInFrom } from './token';
import { tokenHash } from './tokens';
import {
  findUserByEmail,
  findUserByPhone,
  isValidEmail,
  loadUserJson,
  mergeMetadata,
  normaliseEmail,
  normalisePhone,
  type UserRow,
} from './users';

export async function getUser(c: Context, deps: AuthDependencies): Promise<Response> {
  const { user, claims } = await authenticate(c, deps, { oauthApps: 'allow' });
  const audience = c.req.header('x-jwt-aud') ?? deps.config.audience;
  const tokenAudience = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
  if (tokenAudience !== undefined && tokenAudience !== audience) {
    throw errors.validation("Token audience doesn't match request audience");
  }
  return c.json(await loadUserJson(deps.db, user.id));
}

const updateBody = z.object({
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  current_password: optionalString,
  nonce: optionalString,
  data: metadataObject,
  app_metadata: metadataObject,
  channel: optionalString,
  code_challenge: optionalString,
  code_challenge_method: optionalString,
});

async function hasVerifiedFactor(tx: Transaction, userId: string): Promise<boolean> {
  const { rows } = await tx.query(
    `select 1 from auth.mfa_factors where user_id = $1 and status = 'verified' limit 1`,
    [userId],
  );
  return rows.length > 0;
}

async function sessionInfo(tx: Transaction, sessionId: string | undefined) {
  if (!sessionId) return { aal: 'aal1', ageHours: Number.POSITIVE_INFINITY, isRecovery: false };
  const { rows } = await tx.query<{ aal: string; age_hours: number; is_recovery: boolean }>(
    `select s.aal, extract(epoch from (now() - s.created_at)) / 3600 as age_hours,
            exists (select 1 from auth.mfa_amr_claims c where c.session_id = s.id and c.authentication_method = 'recovery') as is_recovery
     from auth.sessions s where s.id = $1`,
    [sessionId],
  );
  const row = rows[0];
  return {
    aal: row?.aal ?? 'aal1',
    ageHours: row?.age_hours ?? Number.POSITIVE_INFINITY,
    isRecovery: Boolean(row?.is_recovery),
  };
}

async function verifyNonce(
  tx: Transaction,
  user: UserRow,
  nonce: string,
  expirySeconds: number,
): Promise<void> {
  const address = (user.email ?? user.phone ?? '').toLowerCase();
  if (!address)
    throw new AuthError(
      422,
      'reauthentication_not_valid',
      'Reauthentication requires an email or a phone number',
    );
  const stored = await findOneTimeToken(tx, tokenHash(address, nonce), ['reauthentication_token']);
  if (!stored || stored.user_id !== user.id) throw nonceInvalid();
  if (stored.age_seconds > expirySeconds) throw errors.otpExpired();
  await deleteOneTimeToken(tx, user.id, 'reauthentication_token');
}

const nonceInvalid = () =>
  new AuthError(422, 'reauthentication_not_valid', 'Nonce has expired or is invalid');

/** Wrong reauthentication codes one user, and one client network, may send in an hour. */
const WRONG_NONCES_PER_USER_PER_HOUR = 10;
const WRONG_NONCES_PER_NETWORK_PER_HOUR = 30;

/**
 * Counts a reauthentication code before it is checked, and commits the count
 * (on the database, not the update's transaction), so concurrent guesses are
 * all counted: against the user and the client network for the hour (given
 * back once the code is right, so only wrong codes use them up), and against
 * the code itself, which is void once it has taken `WRONG_CODES_PER_CODE` wrong
 * ones (as an emailed code is). Returns how to give back the hour's counts.
 */
async function countNonceAttempt(
  deps: AuthDependencies,
  user: UserRow,
  ip: string,
): Promise<() => Promise<void>> {
  const keys = [
    [accountKey('wrong_nonce', user.id), WRONG_NONCES_PER_USER_PER_HOUR],
    [networkKey('wrong_nonce', ip), WRONG_NONCES_PER_NETWORK_PER_HOUR],
  ] as const;
  const counted: LimitKey[] = [];
  const refund = async () => {
    for (const key of counted) await refundHit(deps.db, key, 3600);
  };
  try {
    for (const [key, limit] of keys) {
      counted.push(key);
      await hitRateLimit(deps.db, key, limit, 3600, errors.overRequestRateLimit);
    }
  } catch (error) {
    // A refused attempt is not checked, so it is not a wrong code either.
    await refund();
    throw error;
  }
  const { rows } = await deps.db.query<{ id: string; issued: number }>(
    `select id, extract(epoch from created_at)::float8 as issued from auth.one_time_tokens
     where user_id = $1 and token_type = 'reauthentication_token'`,
    [user.id],
  );
  const code = rows[0];
  if (code) {
    const attempts = await countAttempt(deps.db, accountKey('wrong_code', code.id), code.issued);
    // This attempt is the one after the last wrong code the code may take.
    if (attempts > WRONG_CODES_PER_CODE) {
      await deps.db.query(`delete from auth.one_time_tokens where id = $1`, [code.id]);
    }
  }
  return refund;
}

/**
 * What a password change voids, as GoTrue's UpdatePassword does: every other
 * session (their refresh tokens go with them, and their access tokens are
 * refused wherever a session is checked), and every pending link and code
 * (confirmation, recovery, magic link, email and phone change, reauthentication)
 * and PKCE flow. The session that changed the password stays; a token without
 * a session ends them all.
 */
async function endOtherSessionsAndLinks(
  tx: Transaction,
  userId: string,
  sessionId: string | undefined,
): Promise<void> {
  if (sessionId) {
    await tx.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [
      userId,
      sessionId,
    ]);
  } else {
    await tx.query(`delete from auth.sessions where user_id = $1`, [userId]);
  }
  await tx.query(`delete from auth.one_time_tokens where user_id = $1`, [userId]);
  await tx.query(`delete from auth.flow_state where user_id = $1`, [userId]);
  await tx.query(
    `update auth.users set confirmation_token = '', confirmation_sent_at = null, recovery_sent_at = null,
       email_change_sent_at = null, phone_change_sent_at = null, reauthentication_sent_at = null
     where id = $1`,
    [userId],
  );
}

/**
 * Password changes one user may request in an hour. Each can cost three bcrypt
 * runs (current password, same-password check, new hash), so they are counted,
 * and committed, before any of them.
 */
const PASSWORD_CHANGES_PER_USER_PER_HOUR = 10;

/** The addresses a user signs in with, as failed sign-ins are counted against them. */
function signInIdentifiers(user: UserRow): string[] {
  return [user.email ? normaliseEmail(user.email) : '', user.phone ?? ''].filter(Boolean);
}

/**
 * A current_password is a password guess: refused, like a sign-in, once the
 * account has had too many failed attempts this hour, unless the caller's
 * address is one the owner signed in from before.
 */
async function checkCurrentPasswordBudget(
  deps: AuthDependencies,
  user: UserRow,
  ip: string,
): Promise<void> {
  const limit = deps.config.rateLimits.failedSignInsPerAccountPerHour;
  for (const identifier of signInIdentifiers(user)) {
    if ((await currentHits(deps.db, failedPasswordKey(identifier), 3600)) >= limit) {
      if (await hasSignedInFrom(deps.db, user.id, ip)) return;
      throw errors.overRequestRateLimit();
    }
  }
}

/** Awaits the update; a wrong current password then counts as a failed sign-in (after the rollback). */
async function countingWrongCurrentPassword(
  deps: AuthDependencies,
  user: UserRow,
  update: Promise<void>,
): Promise<void> {
  try {
    await update;
  } catch (error) {
    if (error instanceof AuthError && error.code === 'current_password_invalid') {
      for (const identifier of signInIdentifiers(user)) {
        await countFailedPassword(deps.db, identifier);
      }
    }
    throw error;
  }
}

/** Awaits the update; unless its nonce was wrong, the nonce's counts for the hour are given back. */
async function nonceCounted(
  update: Promise<void>,
  refund: (() => Promise<void>) | undefined,
): Promise<void> {
  try {
    await update;
  } catch (error) {
    if (refund && !(error instanceof AuthError && error.code === 'reauthentication_not_valid'))
      await refund();
    throw error;
  }
  await refund?.();
}

/** PUT /user: metadata, password, email and phone changes for the signed-in user. */
export async function updateUser(c: Context, deps: AuthDependencies): Promise<Response> {
  const auth: Authenticated = await authenticate(c, deps);
  const body = await readBody(c, updateBody);
  const { config } = deps;
  const ip = clientIp(c, deps.trustProxy);
  if (body.app_metadata) throw errors.notAdmin('Updating app_metadata requires admin privileges');

  const email = body.email ? normaliseEmail(body.email) : undefined;
  if (email && !isValidEmail(email))
    throw errors.validation('Unable to validate email address: invalid format');
  const phone = body.phone ? normalisePhone(body.phone) : undefined;
  if (body.phone && !phone) throw errors.validation('Invalid phone number format (E.164 required)');
  const challenge = readCodeChallenge(body);
  const redirectTo = resolveRedirect(config, c.req.query('redirect_to'));

  const user = auth.user;
  const changesEmail = Boolean(email && email !== user.email);
  const changesPhone = Boolean(phone && phone !== user.phone);
  const changesPassword = Boolean(body.password);
  if (changesPassword) {
    await hitRateLimit(
      deps.db,
      accountKey('password_change', user.id),
      PASSWORD_CHANGES_PER_USER_PER_HOUR,
      3600,
      errors.overRequestRateLimit,
    );
    if (body.current_password !== undefined) await checkCurrentPasswordBudget(deps, user, ip);
  }
  // A nonce is checked only with a password (even an empty one).
  const refundNonce =
    body.password !== undefined && body.nonce ? await countNonceAttempt(deps, user, ip) : undefined;

  const update = deps.db.transaction(async (tx) => {
    const session = await sessionInfo(tx, auth.sessionId);
    if (
      (changesPassword || changesEmail || changesPhone) &&
      session.aal !== 'aal2' &&
      (await hasVerifiedFactor(tx, user.id))
    ) {
      throw new AuthError(
        401,
        'insufficient_aal',
        'AAL2 session is required to update email or password when MFA is enabled.',
      );
    }
    if (user.is_anonymous && changesPassword && !email && !phone) {
      throw errors.validation(
        'Updating password of an anonymous user without an email or phone is not allowed',
        422,
      );
    }
    if (changesEmail && (await findUserByEmail(tx, email!))) throw errors.emailExists();
    if (changesPhone && (await findUserByPhone(tx, phone!))) throw errors.phoneExists();

    if (body.password !== undefined) {
      if (config.passwordChangeRequiresReauthentication && session.ageHours > 24) {
        if (!body.nonce)
          throw new AuthError(
            400,
            'reauthentication_needed',
            'Password update requires reauthentication',
          );
        await verifyNonce(tx, user, body.nonce, config.emailOtpExpirySeconds);
      } else if (body.nonce) {
        await verifyNonce(tx, user, body.nonce, config.emailOtpExpirySeconds);
      }
      if (body.password !== '') {
        checkPasswordStrength(config.password, body.password);
        const hasPassword = Boolean(user.encrypted_password);
        if (hasPassword && !session.isRecovery) {
          if (config.passwordChangeRequiresCurrentPassword && !body.current_password) {
            throw new AuthError(
              400,
              'current_password_required',
              'Current password required when setting new password.',
            );
          }
          if (
            body.current_password !== undefined &&
            !(await verifyPassword(body.current_password, user.encrypted_password))
          ) {
            throw new AuthError(
              400,
              'current_password_invalid',
              'Current password required when setting new password.',
            );
          }
        }
        if (hasPassword && (await verifyPassword(body.password, user.encrypted_password)))
          throw errors.samePassword();
        await tx.query(
          `update auth.users set encrypted_password = $2, updated_at = now() where id = $1`,
          [user.id, await hashPassword(body.password)],
        );
        await endOtherSessionsAndLinks(tx, user.id, auth.sessionId);
        await recordAudit(
          tx,
          { id: user.id, username: user.email ?? user.phone ?? '' },
          'user_updated_password',
          ip,
        );
      }
    }

    if (body.data) {
      await tx.query(
        `update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1`,
        [user.id, JSON.stringify(mergeMetadata(user.raw_user_meta_data ?? {}, body.data))],
      );
    }

    if (changesEmail) {
      if (user.is_anonymous && config.mailerAutoconfirm) {
        // Like signing up: an anonymous user's first address needs no confirmation here.
        await tx.query(
          `update auth.users set email = $2, email_change = '', email_confirmed_at = now(), updated_at = now() where id = $1`,
          [user.id, email],
        );
        await confirmIdentityChange(tx, user.id, 'email', email!);
      } else {
        if (challenge) await createFlowState(tx, user.id, challenge, 'email_change');
        await sendEmailChange(tx, deps, { ip, redirectTo }, user, email!);
      }
    }

    if (changesPhone) {
      if (config.smsAutoconfirm) {
        await tx.query(
          `update auth.users set phone = $2, phone_change = '', phone_confirmed_at = now(), updated_at = now() where id = $1`,
          [user.id, phone],
        );
        await confirmIdentityChange(tx, user.id, 'phone', phone!);
      } else {
        await tx.query(
          `update auth.users set phone_change = $2, updated_at = now() where id = $1`,
          [user.id, phone],
        );
        await sendSmsCode(tx, deps, { ip }, user, 'phone_change', phone!);
      }
    }
    await recordAudit(
      tx,
      { id: user.id, username: user.email ?? user.phone ?? '' },
      'user_modified',
      ip,
    );
  });
  await countingWrongCurrentPassword(deps, user, nonceCounted(update, refundNonce));
  return c.json(await loadUserJson(deps.db, user.id));
}

const LOGOUT_SCOPES = ['global', 'local', 'others'] as const;

/** POST /logout?scope=global|local|others → 204. */
export async function logout(c: Context, deps: AuthDependencies): Promise<Response> {
  const scope = c.req.query('scope') ?? 'global';
  if (!(LOGOUT_SCOPES as readonly string[]).includes(scope)) {
    throw errors.validation(`Unsupported logout scope "${scope}"`);
  }
  const { user, sessionId, claims } = await authenticate(c, deps, { oauthApps: 'allow' });
  // An app signs only itself out, never the person's other sessions.
  if (isOAuthAppToken(claims) && scope !== 'local') {
    throw new AuthError(
      403,
      'oauth_app_token_not_allowed',
      'An app’s access token can only sign out its own session (scope=local)',
    );
  }
  const ip = clientIp(c, deps.trustProxy);
  await deps.db.transaction(async (tx) => {
    if (!sessionId || scope === 'global') {
      await tx.query(`delete from auth.sessions where user_id = $1`, [user.id]);
    } else if (scope === 'local') {
      await tx.query(`delete from auth.sessions where id = $1`, [sessionId]);
    } else {
      await tx.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [
        user.id,
        sessionId,
      ]);
    }
    await recordAudit(tx, { id: user.id, username: user.email ?? user.phone ?? '' }, 'logout', ip, {
      scope,
    });
  });
  return c.body(null, 204);
}
