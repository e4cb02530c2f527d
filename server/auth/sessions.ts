import type { Queryable } from '../db/database';
import type { AuthDependencies } from './context';
import { epochSeconds } from './time';
import { generateRefreshToken, generateUuid } from './tokens';
import { loadUserJson, type UserJson, type UserRow } from './users';

/** How a session was authenticated, as the `amr` claim names it. */
export type AuthMethod =
  | 'password'
  | 'otp'
  | 'magiclink'
  | 'recovery'
  | 'invite'
  | 'email_change'
  | 'email/signup'
  | 'anonymous'
  | 'totp'
  | 'mfa/phone'
  | 'mfa/webauthn'
  | 'sso/saml'
  | 'oauth'
  | 'passkey'
  /** A session opened for an OAuth client by exchanging an authorization code (GoTrue's name). */
  | 'oauth_provider/authorization_code';

export type Aal = 'aal1' | 'aal2';

export interface SessionContext {
  ip: string;
  userAgent: string | undefined;
}

export interface AccessTokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
  weak_password?: { message: string; reasons: string[] };
}

export async function recordAuthMethod(
  db: Queryable,
  sessionId: string,
  method: AuthMethod,
): Promise<void> {
  await db.query(
    `insert into auth.mfa_amr_claims (session_id, authentication_method, created_at, updated_at)
     values ($1, $2, now(), now())
     on conflict (session_id, authentication_method) do update set updated_at = now()`,
    [sessionId, method],
  );
}

export async function insertRefreshToken(
  db: Queryable,
  userId: string,
  sessionId: string,
  parent: string | null,
): Promise<string> {
  const token = generateRefreshToken();
  await db.query(
    `insert into auth.refresh_tokens (token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ($1, $2, false, now(), now(), $3, $4)`,
    [token, userId, parent, sessionId],
  );
  return token;
}

/** Opens a session for a user who just proved who they are, and returns its tokens. */
export async function startSession(
  db: Queryable,
  deps: AuthDependencies,
  user: UserRow,
  method: AuthMethod,
  context: SessionContext,
  /**
   * A session for an OAuth client: its tokens carry the client and the granted
   * scopes, at the assurance level of the session that approved it.
   */
  oauth?: { clientId: string; scopes: string; aal: 'aal1' | 'aal2' },
): Promise<AccessTokenResponse> {
  const sessionId = generateUuid();
  await db.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip, oauth_client_id, scopes)
     values ($1, $2, now(), now(), $7, $3, $4::inet, $5, $6)`,
    [
      sessionId,
      user.id,
      context.userAgent ?? null,
      isIp(context.ip) ? context.ip : null,
      oauth?.clientId ?? null,
      oauth?.scopes ?? null,
      oauth?.aal ?? 'aal1',
    ],
  );
  await recordAuthMethod(db, sessionId, method);
  await db.query(
    `update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1`,
    [user.id],
  );
  await db.query(`update auth.identities set last_sign_in_at = now() where user_id = $1`, [
    user.id,
  ]);
  const refreshToken = await insertRefreshToken(db, user.id, sessionId, null);
  return tokenResponse(db, deps, user.id, sessionId, refreshToken);
}

function isIp(value: string): boolean {
  return /^[\d.]+$/.test(value) || /^[\da-f:]+$/i.test(value);
}

/** The access token and session body for an existing session (after sign-in, refresh or MFA). */
export async function tokenResponse(
  db: Queryable,
  deps: AuthDependencies,
  userId: string,
  sessionId: string,
  refreshToken: string,
): Promise<AccessTokenResponse> {
  const user = await loadUserJson(db, userId);
  if (!user) throw new Error(`user ${userId} vanished while issuing its session`);
  const { rows: sessions } = await db.query<{
    aal: Aal | null;
    oauth_client_id: string | null;
    scopes: string | null;
  }>(`select aal, oauth_client_id, scopes from auth.sessions where id = $1`, [sessionId]);
  const { rows: claims } = await db.query<{ authentication_method: string; updated_at: string }>(
    `select authentication_method, updated_at from auth.mfa_amr_claims
     where session_id = $1 order by updated_at desc`,
    [sessionId],
  );
  const expiresIn = deps.config.jwtExpirySeconds;
  const issuedAt = Math.floor(Date.now() / 1000);
  const accessToken = await deps.ring.sign({
    aud: deps.config.audience,
    exp: issuedAt + expiresIn,
    iat: issuedAt,
    iss: deps.config.jwtIssuer,
    sub: user.id,
    email: user.email,
    phone: user.phone,
    app_metadata: user.app_metadata,
    user_metadata: user.user_metadata,
    role: user.role || deps.config.defaultRole,
    aal: sessions[0]?.aal ?? 'aal1',
    amr: claims.map((claim) => ({
      method: claim.authentication_method,
      timestamp: epochSeconds(claim.updated_at),
    })),
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
    // GoTrue's claims for a session an OAuth client holds.
    ...(sessions[0]?.oauth_client_id
      ? { client_id: sessions[0].oauth_client_id, scope: sessions[0].scopes ?? '' }
      : {}),
  });
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: expiresIn,
    expires_at: issuedAt + expiresIn,
    refresh_token: refreshToken,
    user,
  };
}
