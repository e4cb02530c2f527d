import type { Context } from 'hono';
import { z } from 'zod';
import type { Queryable, Transaction } from '../db/database';
import { recordAudit } from './audit';
import type { AuthDependencies } from './context';
import { AuthError, OAuthError, errors } from './errors';
import { consumeFlowState } from './flow-state';
import { hashPassword, verifyPassword, weakPasswordNote } from './passwords';
import { accountKey, currentHits, hitRateLimit, networkKey, type LimitKey } from './rate-limits';
import { clientIp, optionalString, readBody, userAgent } from './request';
import {
  insertRefreshToken,
  startSession,
  tokenResponse,
  type AccessTokenResponse,
  type AuthMethod,
} from './sessions';
import { phoneAllowed } from './sms';
import { matchesCodeChallenge } from './tokens';
import {
  findUserByEmail,
  findUserById,
  findUserByPhone,
  isBanned,
  normaliseEmail,
  normalisePhone,
} from './users';

/** Failed sign-ins per address before each further attempt is slowed down. */
const FREE_FAILURES = 5;
const SLOWDOWN_STEP_MS = 400;
const MAX_SLOWDOWN_MS = 4000;

/** Failed password attempts against one account (its email address or phone number), per hour. */
export function failedPasswordKey(identifier: string): LimitKey {
  return accountKey('failed', identifier);
}

/** Counts one failed password attempt against the account (sign-in, or a wrong current_password). */
export async function countFailedPassword(db: Queryable, identifier: string): Promise<void> {
  await hitRateLimit(
    db,
    failedPasswordKey(identifier),
    Number.MAX_SAFE_INTEGER,
    3600,
    errors.overRequestRateLimit,
  );
}

/** Whether the user signed in from this IP address in the last 30 days (the audit log; OAuth clients' exchanges aside). */
export async function hasSignedInFrom(db: Queryable, userId: string, ip: string): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from auth.audit_log_entries
     where ip_address = $2 and payload ->> 'actor_id' = $1 and payload ->> 'action' = 'login'
       and created_at > now() - interval '30 days'
       -- An OAuth client's code exchange comes from the client's address, not the user's.
       and payload -> 'traits' ->> 'provider_type' is distinct from 'oauth_provider_authorization_code'
     limit 1`,
    [userId, ip.slice(0, 64)],
  );
  return rows.length > 0;
}

export async function token(c: Context, deps: AuthDependencies): Promise<Response> {
  switch (c.req.query('grant_type')) {
    case 'password':
      return passwordGrant(c, deps);
    case 'refresh_token':
      return refreshGrant(c, deps);
    case 'pkce':
      return pkceGrant(c, deps);
    case 'id_token':
      return idTokenGrant(c);
    case 'web3':
      throw errors.web3Disabled();
    default:
      throw new AuthError(400, 'invalid_credentials', 'unsupported_grant_type');
  }
}

function withSessionHeaders(
  c: Context,
  response: { user: { id: string }; access_token: string },
  sessionId: string,
) {
  c.header('sb-auth-user-id', response.user.id);
  c.header('sb-auth-session-id', sessionId);
}

const passwordBody = z.object({
  email: optionalString,
  phone: optionalString,
  password: optionalString,
});

async function passwordGrant(c: Context, deps: AuthDependencies): Promise<Response> {
  const { config } = deps;
  const body = await readBody(c, passwordBody);
  const ip = clientIp(c, deps.trustProxy);
  if (body.email && body.phone) {
    throw errors.validation('Only an email address or phone number should be provided on login.');
  }
  if (!body.email && !body.phone) throw errors.validation('missing email or phone');
  if (body.email && !config.emailEnabled) {
    throw new AuthError(422, 'email_provider_disabled', 'Email logins are disabled');
  }
  if (body.phone && !phoneAllowed(config, normalisePhone(body.phone))) {
    throw new AuthError(422, 'phone_provider_disabled', 'Phone logins are disabled');
  }
  const password = body.password ?? '';
  const identifier = body.email
    ? normaliseEmail(body.email)
    : (normalisePhone(body.phone!) ?? body.phone!.trim());
  const failureKey = failedPasswordKey(identifier);

  await hitRateLimit(
    deps.db,
    networkKey('signin', ip),
    config.rateLimits.signInSignUpPer5Minutes,
    300,
    errors.overRequestRateLimit,
  );
  const user = body.email
    ? await findUserByEmail(deps.db, identifier)
    : await findUserByPhone(deps.db, identifier);
  const failures = await currentHits(deps.db, failureKey, 3600);
  // Past the hourly limit only addresses the owner has signed in from may still try,
  // so guessing from elsewhere stops without locking the owner out.
  if (
    failures >= config.rateLimits.failedSignInsPerAccountPerHour &&
    !(user && (await hasSignedInFrom(deps.db, user.id, ip)))
  ) {
    throw errors.overRequestRateLimit();
  }
  // Slow down repeated failures for this address, whether or not an account has it.
  if (failures >= FREE_FAILURES) {
    const delay = Math.min((failures - FREE_FAILURES + 1) * SLOWDOWN_STEP_MS, MAX_SLOWDOWN_MS);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
  const isValid = await verifyPassword(password, user?.encrypted_password);
  if (!user || !isValid || user.is_anonymous) {
    await countFailedPassword(deps.db, identifier);
    throw errors.invalidCredentials();
  }
  if (isBanned(user)) throw errors.userBanned();
  if (body.email && !user.email_confirmed_at && !config.mailerAutoconfirm)
    throw errors.emailNotConfirmed();
  if (body.phone && !user.phone_confirmed_at && !config.smsAutoconfirm)
    throw errors.phoneNotConfirmed();

  return deps.db.transaction(async (tx) => {
    if (user.encrypted_password?.startsWith('$argon2')) {
      // Imported argon2 hash: move it to bcrypt now that we know the password.
      await tx.query(`update auth.users set encrypted_password = $2 where id = $1`, [
        user.id,
        await hashPassword(password),
      ]);
    }
    const response = await startSession(tx, deps, user, 'password', {
      ip,
      userAgent: userAgent(c),
    });
    await recordAudit(tx, { id: user.id, username: identifier }, 'login', ip, {
      provider: body.email ? 'email' : 'phone',
    });
    const weak = weakPasswordNote(config.password, password);
    withSessionHeaders(c, response, sessionIdOf(response.access_token));
    return c.json(weak ? { ...response, weak_password: weak } : response);
  });
}

function sessionIdOf(accessToken: string): string {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as {
    session_id: string;
  };
  return payload.session_id;
}

const refreshBody = z.object({ refresh_token: optionalString });

interface RefreshTokenRow {
  id: number;
  token: string;
  user_id: string;
  revoked: boolean;
  session_id: string | null;
  seconds_since_update: number;
}

async function refreshGrant(c: Context, deps: AuthDependencies): Promise<Response> {
  const body = await readBody(c, refreshBody);
  if (!body.refresh_token) throw new OAuthError('invalid_request', 'refresh_token required');
  if (body.refresh_token.length < 12) throw errors.validation('Refresh token is not valid');
  const { response, sessionId, rotated } = await refreshSession(c, deps, body.refresh_token, null);
  if (rotated) withSessionHeaders(c, response, sessionId);
  return c.json(response);
}

/**
 * Exchanges a refresh token for the session's next tokens (rotation, reuse
 * window and reuse detection as GoTrue). `clientId` is the authenticated OAuth
 * client (/oauth/token), null on /token: a session opened for a client may be
 * refreshed by that client alone, and a client may refresh no other session.
 */
export async function refreshSession(
  c: Context,
  deps: AuthDependencies,
  refreshToken: string,
  clientId: string | null,
): Promise<{ response: AccessTokenResponse; sessionId: string; rotated: boolean }> {
  const { config } = deps;
  const ip = clientIp(c, deps.trustProxy);
  await hitRateLimit(
    deps.db,
    networkKey('refresh', ip),
    config.rateLimits.tokenRefreshPer5Minutes,
    300,
    errors.overRequestRateLimit,
  );

  // A reuse outside the window revokes the whole session: that must commit even
  // though the request fails, so the outcome is returned, not thrown, from the transaction.
  type Outcome = { response: AccessTokenResponse; sessionId: string; rotated: boolean };
  const outcome = await deps.db.transaction(
    async (tx): Promise<Outcome | AuthError | OAuthError> => {
      const { rows } = await tx.query<RefreshTokenRow>(
        `select id, token, user_id, revoked, session_id,
              extract(epoch from (now() - updated_at))::float8 as seconds_since_update
       from auth.refresh_tokens where token = $1 for update`,
        [refreshToken],
      );
      const current = rows[0];
      if (!current)
        return new AuthError(
          400,
          'refresh_token_not_found',
          'Invalid Refresh Token: Refresh Token Not Found',
        );
      const user = await findUserById(tx, current.user_id);
      if (!user || user.deleted_at) {
        return new AuthError(
          400,
          'refresh_token_not_found',
          'Invalid Refresh Token: Refresh Token Not Found',
        );
      }
      if (isBanned(user)) return errors.userBanned();
      const session = current.session_id
        ? (
            await tx.query<{ id: string; expired: boolean; oauth_client_id: string | null }>(
              `select id, coalesce(not_after < now(), false) as expired, oauth_client_id
             from auth.sessions where id = $1 for update`,
              [current.session_id],
            )
          ).rows[0]
        : undefined;
      if (!session)
        return new AuthError(
          400,
          'session_not_found',
          'Invalid Refresh Token: No Valid Session Found',
        );
      if (session.expired)
        return new AuthError(400, 'session_expired', 'Invalid Refresh Token: Session Expired');
      if (session.oauth_client_id) {
        if (!clientId)
          return new OAuthError(
            'invalid_client',
            'Client authentication required for OAuth session',
          );
        if (clientId !== session.oauth_client_id)
          return new OAuthError(
            'invalid_client',
            "Client does not match the session's OAuth client",
          );
      } else if (clientId) {
        return new OAuthError(
          'invalid_client',
          'Client authentication not allowed for non-OAuth session',
        );
      }

      if (current.revoked) {
        if (
          config.refreshTokenRotation &&
          current.seconds_since_update > config.refreshTokenReuseIntervalSeconds
        ) {
          // Reused after the grace window: treat the family as stolen.
          await tx.query(`delete from auth.sessions where id = $1`, [session.id]);
          await recordAudit(
            tx,
            { id: user.id, username: user.email ?? user.phone ?? '' },
            'token_revoked',
            ip,
          );
          return new AuthError(
            400,
            'refresh_token_already_used',
            'Invalid Refresh Token: Already Used',
          );
        }
        // Within the window (concurrent refreshes): hand out the session's active token again.
        const active = await tx.query<{ token: string }>(
          `select token from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1`,
          [session.id],
        );
        const activeToken =
          active.rows[0]?.token ??
          (await insertRefreshToken(tx, user.id, session.id, current.token));
        return {
          response: await tokenResponse(tx, deps, user.id, session.id, activeToken),
          sessionId: session.id,
          rotated: false,
        };
      }

      let next = current.token;
      if (config.refreshTokenRotation) {
        await tx.query(
          `update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1`,
          [current.id],
        );
        next = await insertRefreshToken(tx, user.id, session.id, current.token);
      }
      await tx.query(
        `update auth.sessions set refreshed_at = now() at time zone 'utc', updated_at = now() where id = $1`,
        [session.id],
      );
      await recordAudit(
        tx,
        { id: user.id, username: user.email ?? user.phone ?? '' },
        'token_refreshed',
        ip,
      );
      const response = await tokenResponse(tx, deps, user.id, session.id, next);
      return { response, sessionId: session.id, rotated: true };
    },
  );
  if (outcome instanceof AuthError || outcome instanceof OAuthError) throw outcome;
  return outcome;
}

const pkceBody = z.object({ auth_code: optionalString, code_verifier: optionalString });

const methodForFlow: Record<string, AuthMethod> = {
  'email/signup': 'email/signup',
  magiclink: 'magiclink',
  recovery: 'recovery',
  invite: 'invite',
  email_change: 'email_change',
  otp: 'otp',
};

async function pkceGrant(c: Context, deps: AuthDependencies): Promise<Response> {
  const body = await readBody(c, pkceBody);
  if (!body.auth_code || !body.code_verifier) {
    throw errors.validation(
      'invalid request: both auth code and code verifier should be non-empty',
    );
  }
  const ip = clientIp(c, deps.trustProxy);
  return deps.db.transaction(async (tx: Transaction) => {
    const flow = await consumeFlowState(
      tx,
      body.auth_code!,
      body.code_verifier!,
      matchesCodeChallenge,
    );
    const user = await findUserById(tx, flow.userId);
    if (!user)
      throw new AuthError(
        404,
        'flow_state_not_found',
        'invalid flow state, no valid flow state found',
      );
    if (isBanned(user)) throw errors.userBanned();
    const response = await startSession(
      tx,
      deps,
      user,
      methodForFlow[flow.authenticationMethod] ?? 'otp',
      {
        ip,
        userAgent: userAgent(c),
      },
    );
    return c.json(response);
  });
}

const idTokenBody = z.object({
  provider: optionalString,
  issuer: optionalString,
  client_id: optionalString,
  id_token: optionalString,
});

/** The `iss` of an ID token, read without verifying it, as GoTrue does for Apple and Azure. */
function unverifiedIssuer(idToken: string): string | undefined {
  const parts = idToken.split('.');
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]*$/.test(parts[1]!)) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    if (payload === null) return '';
    if (typeof payload !== 'object' || Array.isArray(payload)) return undefined;
    const issuer = (payload as { iss?: unknown }).iss;
    if (issuer === undefined || issuer === null) return '';
    return typeof issuer === 'string' ? issuer : undefined;
  } catch {
    return undefined;
  }
}

const APPLE_ISSUERS = ['https://appleid.apple.com', 'https://account.apple.com'];
const AZURE_ISSUER = /^https:\/\/login[.]microsoftonline[.]com\/([^/]+)\/v2[.]0\/?$/;

/** GoTrue's issuer for a provider whose token it must first read (Apple, Azure). */
function detectedIssuer(
  name: 'Apple' | 'Azure',
  idToken: string,
  requested: string | undefined,
  accepts: (issuer: string) => boolean,
): string {
  const issuer = unverifiedIssuer(idToken);
  if (issuer === undefined) {
    throw errors.validation(`Unable to detect issuer in ID token for ${name} provider`);
  }
  if (!accepts(issuer)) {
    throw errors.validation(`Detected ID token issuer is not an ${name} ID token issuer`);
  }
  if (requested && requested !== issuer) {
    throw errors.validation('Provided issuer does not match ID token issuer');
  }
  return issuer;
}

/**
 * No OpenID Connect provider is configured, and custom providers are off:
 * GoTrue's answers (token_oidc.go) for each kind of provider, in its order.
 */
async function idTokenGrant(c: Context): Promise<Response> {
  const body = await readBody(c, idTokenBody);
  if (!body.id_token) throw new OAuthError('invalid request', 'id_token required');
  const provider = body.provider ?? '';
  const requested = body.issuer;
  if (!provider && (!body.client_id || !requested)) {
    throw new OAuthError('invalid request', 'provider or client_id and issuer required');
  }
  let issuer: string;
  if (provider === 'apple' || APPLE_ISSUERS.includes(requested ?? '')) {
    issuer = detectedIssuer('Apple', body.id_token, requested, (iss) =>
      APPLE_ISSUERS.includes(iss),
    );
  } else if (provider === 'google' || requested === 'https://accounts.google.com') {
    issuer = 'https://accounts.google.com';
  } else if (provider === 'azure' || AZURE_ISSUER.test(requested ?? '')) {
    issuer = detectedIssuer('Azure', body.id_token, requested, (iss) =>
      /^https:\/\/(login\.microsoftonline\.com|sts\.windows\.net)\//.test(iss),
    );
  } else {
    const known: [string, string][] = [
      ['facebook', 'https://www.facebook.com'],
      ['kakao', 'https://kauth.kakao.com'],
      ['vercel_marketplace', 'https://marketplace.vercel.com'],
      ['snapchat', 'https://accounts.snapchat.com/accounts/oauth2/token'],
    ];
    const match =
      provider === 'keycloak'
        ? ['keycloak', '']
        : known.find(([name, iss]) => provider === name || requested === iss);
    if (!match) {
      if (provider.startsWith('custom:')) {
        throw errors.validation('Custom OAuth providers are disabled');
      }
      throw errors.validation(`Custom OIDC provider ${JSON.stringify(provider)} not allowed`);
    }
    issuer = match[1]!;
  }
  throw new AuthError(
    400,
    'provider_disabled',
    `Provider (issuer ${JSON.stringify(issuer)}) is not enabled`,
  );
}
