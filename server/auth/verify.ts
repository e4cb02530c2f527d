import type { Context } from 'hono';
import { z } from 'zod';
import type { Transaction } from '../db/database';
import { recordAudit } from './audit';
import type { AuthDependencies } from './context';
import { confirmEmail, confirmIdentityChange, confirmPhone } from './create-user';
import { AuthError, errors } from './errors';
import { issueAuthCode } from './flow-state';
import {
  EMAIL_VERIFY_TYPES,
  PHONE_VERIFY_TYPES,
  countWrongCode,
  deleteOneTimeToken,
  findLatestToken,
  findOneTimeToken,
  lockCodesFor,
  settleFirstConfirmation,
  tokenTypesFor,
  type LiveCode,
  type StoredToken,
} from './one-time-tokens';
import { hitRateLimit, networkKey } from './rate-limits';
import { resolveRedirect } from './redirects';
import { clientIp, isTokenHash, optionalString, readBody, userAgent } from './request';
import { startSession, type AuthMethod } from './sessions';
import { tokenHash } from './tokens';
import { findUserById, isBanned, normaliseEmail, normalisePhone, type UserRow } from './users';

const verifyBody = z.object({
  type: optionalString,
  token: optionalString,
  token_hash: optionalString,
  email: optionalString,
  phone: optionalString,
});

const methodFor: Record<string, AuthMethod> = {
  signup: 'otp',
  email: 'otp',
  sms: 'otp',
  invite: 'invite',
  magiclink: 'magiclink',
  recovery: 'recovery',
  email_change: 'email_change',
  phone_change: 'otp',
};

/** What a verification did: a verified user, or (first leg of a secure email change) a message. */
type Outcome = { kind: 'verified'; user: UserRow } | { kind: 'message'; message: string };

const SECOND_LEG_MESSAGE =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

async function applyVerification(
  tx: Transaction,
  deps: AuthDependencies,
  type: string,
  stored: StoredToken,
  context: { ip: string },
): Promise<Outcome> {
  const expiry = PHONE_VERIFY_TYPES.includes(type)
    ? deps.config.smsOtpExpirySeconds
    : deps.config.emailOtpExpirySeconds;
  if (stored.age_seconds > expiry) throw errors.otpExpired();
  const user = await findUserById(tx, stored.user_id, true);
  if (!user) throw errors.otpExpired();
  if (isBanned(user)) throw errors.userBanned();
  await deleteOneTimeToken(tx, user.id, stored.token_type);

  switch (stored.token_type) {
    case 'confirmation_token':
    case 'recovery_token':
      await settleFirstConfirmation(tx, user, stored);
      if (type === 'sms' || (type !== 'email' && PHONE_VERIFY_TYPES.includes(type)))
        await confirmPhone(tx, user.id);
      else if (stored.relates_to.includes('@')) await confirmEmail(tx, user.id);
      else await confirmPhone(tx, user.id);
      break;
    case 'email_change_token_new':
    case 'email_change_token_current': {
      const status = (user.email_change_confirm_status ?? 0) + 1;
      const needsBoth = deps.config.secureEmailChange && Boolean(user.email);
      if (needsBoth && status < 2) {
        await tx.query(
          `update auth.users set email_change_confirm_status = $2, updated_at = now() where id = $1`,
          [user.id, status],
        );
        return { kind: 'message', message: SECOND_LEG_MESSAGE };
      }
      if (!user.email_change) throw errors.otpExpired();
      await tx.query(
        `update auth.users set email = $2, email_change = '', email_change_sent_at = null,
           email_change_confirm_status = 0, email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
         where id = $1`,
        [user.id, user.email_change],
      );
      await confirmIdentityChange(tx, user.id, 'email', user.email_change);
      await tx.query(`delete from auth.one_time_tokens where user_id = $1`, [user.id]);
      break;
    }
    case 'phone_change_token': {
      if (!user.phone_change) throw errors.otpExpired();
      await tx.query(
        `update auth.users set phone = phone_change, phone_change = '', phone_change_sent_at = null,
           phone_confirmed_at = now(), updated_at = now() where id = $1`,
        [user.id],
      );
      await confirmIdentityChange(tx, user.id, 'phone', user.phone_change);
      await tx.query(`delete from auth.one_time_tokens where user_id = $1`, [user.id]);
      break;
    }
    default:
      throw errors.otpExpired();
  }
  await recordAudit(
    tx,
    { id: user.id, username: user.email ?? user.phone ?? '' },
    'login',
    context.ip,
    {
      provider: type,
    },
  );
  return { kind: 'verified', user: (await findUserById(tx, user.id))! };
}

function assertType(type: string | undefined): string {
  if (!type) throw errors.validation('Verify requires a verification type');
  if (!(type in tokenTypesFor)) throw errors.validation('Unsupported verification type');
  return type;
}

/** POST /verify: a code with its email or phone, or a token hash. */
export async function verifyPost(c: Context, deps: AuthDependencies): Promise<Response> {
  const body = await readBody(c, verifyBody);
  const ip = clientIp(c, deps.trustProxy);
  const type = assertType(body.type);
  if (body.token_hash && (body.email || body.phone || body.token)) {
    throw errors.validation('Only the token_hash and type should be provided');
  }
  if (!body.token_hash && !body.token)
    throw errors.validation('Verify requires either a token or a token hash');
  await hitRateLimit(
    deps.db,
    networkKey('verify', ip),
    deps.config.rateLimits.verifyPer5Minutes,
    300,
    errors.overRequestRateLimit,
  );
  const context = { ip, userAgent: userAgent(c) };

  // A wrong code must be counted even though the request fails: the miss is
  // returned, not thrown, from the transaction, so the count commits.
  const outcome = await deps.db.transaction(async (tx) => {
    const types = tokenTypesFor[type]!;
    let stored: StoredToken | null = null;
    /** The live codes of the address the request names (none for a token hash). */
    let live: LiveCode[] | undefined;
    if (body.token_hash) {
      stored = isTokenHash(body.token_hash)
        ? await findOneTimeToken(tx, body.token_hash, types)
        : null;
    } else if (PHONE_VERIFY_TYPES.includes(type)) {
      if (!body.phone) throw errors.validation('Verify requires a phone number for this type');
      const phone = normalisePhone(body.phone);
      if (!phone) throw errors.validation('Invalid phone number format (E.164 required)');
      live = await lockCodesFor(tx, phone, types);
      const testCode = deps.config.smsTestOtp.get(phone);
      if (testCode && testCode === body.token) {
        const { rows } = await tx.query<{ id: string }>(
          `select id from auth.users where phone = $1`,
          [phone],
        );
        stored = rows[0] ? await findLatestToken(tx, rows[0].id, types) : null;
        if (!stored && rows[0]) {
          // A test number verifies without a message having been sent (GoTrue's SMS_TEST_OTP).
          stored = {
            user_id: rows[0].id,
            token_type: types[0]!,
            token_hash: '',
            relates_to: phone,
            age_seconds: 0,
          };
        }
      } else {
        stored = await findOneTimeToken(tx, tokenHash(phone, body.token!), types);
      }
    } else if (EMAIL_VERIFY_TYPES.includes(type)) {
      if (!body.email) throw errors.validation('Verify requires an email address for this type');
      const email = normaliseEmail(body.email);
      if (!email.includes('@')) throw errors.validation('Invalid email format', 422);
      live = await lockCodesFor(tx, email, types);
      stored = await findOneTimeToken(tx, tokenHash(email, body.token!), types);
    }
    if (!stored) {
      if (!live) throw errors.otpExpired();
      // Too many wrong codes void the code: it then fails as any wrong or expired one does.
      await countWrongCode(tx, live);
      return { kind: 'wrong_code' as const };
    }
    const verified = await applyVerification(tx, deps, type, stored, context);
    if (verified.kind === 'message') return verified;
    return {
      kind: 'session' as const,
      session: await startSession(tx, deps, verified.user, methodFor[type] ?? 'otp', context),
    };
  });
  if (outcome.kind === 'wrong_code') throw errors.otpExpired();
  if (outcome.kind === 'message') return c.json({ msg: outcome.message, code: '200' });
  return c.json(outcome.session);
}

/** The redirect address with `params` as its fragment, replacing any fragment it had (as GoTrue does). */
function withFragment(redirectTo: string, params: URLSearchParams): string {
  const url = new URL(redirectTo);
  url.hash = params.toString();
  return url.toString();
}

/** GET /verify: the link in an email. Redirects back with the session, a PKCE code, or the error. */
export async function verifyGet(c: Context, deps: AuthDependencies): Promise<Response> {
  const redirectTo = resolveRedirect(deps.config, c.req.query('redirect_to'));
  const ip = clientIp(c, deps.trustProxy);
  const fail = (error: AuthError) => {
    const fragment = new URLSearchParams({
      error: error.status === 403 ? 'access_denied' : 'server_error',
      error_code: error.code,
      error_description:
        error.code === 'otp_expired' ? 'Email link is invalid or has expired' : error.message,
      sb: '',
    });
    return c.redirect(withFragment(redirectTo, fragment), 303);
  };
  try {
    const type = assertType(c.req.query('type'));
    const hash = c.req.query('token');
    if (!hash) throw errors.validation('Verify requires either a token or a token hash');
    if (!isTokenHash(hash)) throw errors.otpExpired();
    await hitRateLimit(
      deps.db,
      networkKey('verify', ip),
      deps.config.rateLimits.verifyPer5Minutes,
      300,
      errors.overRequestRateLimit,
    );
    const result = await deps.db.transaction(async (tx) => {
      const stored = await findOneTimeToken(tx, hash, tokenTypesFor[type]!);
      if (!stored) throw errors.otpExpired();
      const outcome = await applyVerification(tx, deps, type, stored, { ip });
      if (outcome.kind === 'message') return outcome;
      const flowMethods =
        type === 'signup'
          ? ['email/signup']
          : type === 'recovery'
            ? ['recovery']
            : type === 'magiclink'
              ? ['magiclink', 'otp']
              : [type];
      // PKCE: the browser exchanges this code (with its verifier) for the session.
      const code = await issueAuthCode(tx, outcome.user.id, flowMethods);
      if (code) return { kind: 'code' as const, code };
      const session = await startSession(tx, deps, outcome.user, methodFor[type] ?? 'otp', {
        ip,
        userAgent: userAgent(c),
      });
      return { kind: 'session' as const, session };
    });
    if (result.kind === 'message') {
      return c.redirect(
        withFragment(redirectTo, new URLSearchParams({ message: result.message, sb: '' })),
        303,
      );
    }
    if (result.kind === 'code') {
      const url = new URL(redirectTo);
      url.searchParams.set('code', result.code);
      return c.redirect(url.toString(), 303);
    }
    const session = result.session;
    const fragment = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: 'bearer',
      type,
      sb: '',
    });
    return c.redirect(withFragment(redirectTo, fragment), 303);
  } catch (error) {
    if (error instanceof AuthError) return fail(error);
    throw error;
  }
}
