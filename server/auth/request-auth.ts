import type { Context } from 'hono';
import type { JWTPayload } from 'jose';
import { JwtVerificationError } from '../keys/key-ring';
import type { AuthDependencies } from './context';
import { AuthError, errors } from './errors';
import { isUuid } from './request';
import { findUserById, isBanned, type UserRow } from './users';

export interface Authenticated {
  claims: JWTPayload & { session_id?: string; aal?: string; role?: string };
  user: UserRow;
  /** The session the token belongs to; undefined for tokens without session_id. */
  sessionId: string | undefined;
  token: string;
}

function bearerToken(c: Context): string | undefined {
  const header = c.req.header('authorization');
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/** The jwt library's wording, which GoTrue passes through in its bad_jwt messages. */
function describe(error: JwtVerificationError): string {
  switch (error.reason) {
    case 'expired':
      return 'token has invalid claims: token is expired';
    case 'signature':
    case 'unknown-key':
      return 'token signature is invalid: signature is invalid';
    case 'claims':
      return `token has invalid claims: ${error.message}`;
    default:
      return `token is malformed: ${error.message}`;
  }
}

export async function verifyBearer(
  c: Context,
  deps: AuthDependencies,
): Promise<{ token: string; claims: Authenticated['claims'] }> {
  const token = bearerToken(c);
  if (!token) throw errors.noAuthorization();
  try {
    return { token, claims: (await deps.ring.verify(token)) as Authenticated['claims'] };
  } catch (error) {
    if (error instanceof JwtVerificationError) throw errors.badJwt(describe(error));
    throw error;
  }
}

/**
 * Whether a token was issued to a third-party app by the OAuth server
 * (decision 041): its access tokens name the app in `client_id`.
 */
export function isOAuthAppToken(claims: JWTPayload): boolean {
  return typeof claims.client_id === 'string' && claims.client_id !== '';
}

/**
 * GoTrue's requireAuthentication: a valid user token for an existing, unbanned
 * user and session. An app's OAuth token acts as the user on the data, storage
 * and realtime APIs and may read who the user is, but it never manages the
 * account: without `oauthApps: 'allow'` (GET /user, /logout, userinfo) it is
 * refused, or an app could grant itself more scopes, add a passkey or a factor,
 * or change the password, and so outlive the revocation of its grant. GoTrue
 * accepts it everywhere; we do not.
 */
export async function authenticate(
  c: Context,
  deps: AuthDependencies,
  options: { oauthApps?: 'allow' } = {},
): Promise<Authenticated> {
  const { token, claims } = await verifyBearer(c, deps);
  if (options.oauthApps !== 'allow' && isOAuthAppToken(claims)) {
    throw new AuthError(
      403,
      'oauth_app_token_not_allowed',
      'An app’s access token cannot manage the account: sign in as yourself to do this',
    );
  }
  if (typeof claims.sub !== 'string' || claims.sub === '') {
    throw new AuthError(403, 'bad_jwt', 'invalid claim: missing sub claim');
  }
  if (!isUuid(claims.sub))
    throw new AuthError(400, 'bad_jwt', 'invalid claim: sub claim must be a UUID');
  const user = await findUserById(deps.db, claims.sub);
  if (!user || user.deleted_at) {
    throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  }
  const sessionId =
    typeof claims.session_id === 'string' && claims.session_id !== ''
      ? claims.session_id
      : undefined;
  if (sessionId) {
    if (!isUuid(sessionId)) throw errors.sessionNotFound();
    const { rows } = await deps.db.query(
      `select 1 from auth.sessions where id = $1 and user_id = $2`,
      [sessionId, user.id],
    );
    if (rows.length === 0) throw errors.sessionNotFound();
  }
  if (isBanned(user)) throw new AuthError(403, 'user_banned', 'User is banned');
  return { claims, user, sessionId, token };
}

/** Admin endpoints: any valid token whose role is an admin role (service_role by default). */
export async function requireAdmin(
  c: Context,
  deps: AuthDependencies,
): Promise<Authenticated['claims']> {
  const { claims } = await verifyBearer(c, deps);
  if (typeof claims.role !== 'string' || !deps.config.adminRoles.includes(claims.role)) {
    throw errors.notAdmin('User not allowed');
  }
  return claims;
}
