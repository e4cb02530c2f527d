import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { Queryable } from '../db/database';
import { BodyReadError, BodyTooLargeError, readBodyText } from '../http/read-body';
import { recordAudit } from './audit';
import type { AuthDependencies, HandleAuth } from './context';
import { AuthError, OAuthError, errors } from './errors';
import { hitRateLimit, networkKey } from './rate-limits';
import { isRedirectAllowed } from './redirects';
import { clientIp, isUuid, readBody, userAgent } from './request';
import { authenticate, requireAdmin, type Authenticated } from './request-auth';
import { startSession } from './sessions';
import { refreshSession } from './token';
import { findUserById, isBanned, type UserRow } from './users';
import { adminPaging } from './admin-shared';

/**
 * The OAuth 2.1 server (GoTrue's `internal/api/oauthserver`, decision 041):
 * Cervana as the identity provider of third-party applications. Admins register
 * clients (or clients register themselves, when allowed); a client sends the
 * user to /oauth/authorize with a PKCE challenge; the site's consent page reads
 * the request and approves or denies it; the client exchanges the code at
 * /oauth/token for tokens of a session of its own, whose access tokens carry
 * `client_id` and `scope` and work on the data API like the user's own. The
 * user lists and revokes their grants at /user/oauth/grants.
 *
 * Every endpoint answers GoTrue's 404 `feature_disabled` while the server is off
 * (admin endpoints after the admin check, the user's after authentication).
 *
 * OpenID Connect (decision 041, "OpenID Connect"), as GoTrue adds it: the
 * `openid` scope, a `nonce` kept with the request, an ID token beside the
 * tokens of a code exchange, /oauth/userinfo, and the discovery document at
 * /.well-known/openid-configuration.
 */

const MAX_TOKEN_BODY_BYTES = 16 * 1024;
/** Scopes a client may ask for (GoTrue's, but `offline_access`: every grant here may refresh). */
const SUPPORTED_SCOPES = ['openid', 'email', 'profile', 'phone'];
/** GoTrue's default (`OAUTH_SERVER_DEFAULT_SCOPE`): no `openid`, so no ID token unless asked. */
const DEFAULT_SCOPE = 'email';
/** GoTrue's oauth_authorizations_nonce_length. */
const MAX_NONCE_LENGTH = 255;
/** Far above any real resource server's address; the column allows as much. */
const MAX_RESOURCE_LENGTH = 2048;
/** GoTrue's ID tokens live an hour, whatever the access tokens' lifetime. */
const ID_TOKEN_LIFETIME_SECONDS = 3600;
const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;

const oauthServerDisabled = () =>
  new AuthError(404, 'feature_disabled', 'OAuth server is disabled');
const clientNotFound = () => new AuthError(404, 'oauth_client_not_found', 'OAuth client not found');
const authorizationNotFound = () =>
  new AuthError(404, 'oauth_authorization_not_found', 'authorization not found');
const invalidClient = (detail?: string) =>
  new AuthError(
    400,
    'invalid_credentials',
    detail ? `Invalid client credentials: ${detail}` : 'Invalid client credentials',
  );

// ---------------------------------------------------------------- clients

interface ClientRow {
  id: string;
  client_secret_hash: string | null;
  registration_type: 'dynamic' | 'manual';
  client_type: 'public' | 'confidential';
  token_endpoint_auth_method: (typeof AUTH_METHODS)[number];
  redirect_uris: string;
  grant_types: string;
  client_name: string | null;
  client_uri: string | null;
  logo_uri: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

const CLIENT_COLUMNS = `id, client_secret_hash, registration_type, client_type, token_endpoint_auth_method,
  redirect_uris, grant_types, client_name, client_uri, logo_uri, created_at, updated_at`;

const splitList = (value: string) => value.split(',').filter(Boolean);
const iso = (value: string | Date) => new Date(value).toISOString();

/** GoTrue's client body; the secret only when just made. Empty optional fields are left out. */
function clientJson(client: ClientRow, secret?: string) {
  return {
    client_id: client.id,
    ...(secret ? { client_secret: secret } : {}),
    client_type: client.client_type,
    redirect_uris: splitList(client.redirect_uris),
    token_endpoint_auth_method: client.token_endpoint_auth_method,
    grant_types: splitList(client.grant_types),
    response_types: ['code'],
    ...(client.client_name ? { client_name: client.client_name } : {}),
    ...(client.client_uri ? { client_uri: client.client_uri } : {}),
    ...(client.logo_uri ? { logo_uri: client.logo_uri } : {}),
    registration_type: client.registration_type,
    created_at: iso(client.created_at),
    updated_at: iso(client.updated_at),
  };
}

function newSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashSecret(secret) };
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

function secretMatches(provided: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const a = createHash('sha256').update(provided).digest();
  const b = Buffer.from(storedHash, 'base64url');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * RFC 6749 §3.1.2 and GoTrue: absolute, no fragment, no script-capable scheme,
 * plain http only for loopback. Matched exactly at /oauth/authorize.
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri === '') return 'redirect URI cannot be empty';
  if (uri.length > 2048) return 'redirect URI is too long';
  // Whitespace, control characters and backslashes: URL parsers disagree on them.
  if ([...uri].some((char) => char <= ' ' || char === '\u007f' || char === '\\')) {
    return 'invalid URL format';
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'invalid URL format';
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (['javascript', 'data', 'file', 'vbscript', 'about', 'blob'].includes(scheme)) {
    return `scheme '${scheme}' is not allowed for security reasons`;
  }
  if (!url.host || !/^[a-z][a-z0-9+.-]*:\/\//i.test(uri)) return 'must have scheme and host';
  if (url.username || url.password) return 'credentials not allowed in redirect URI';
  if (scheme === 'http' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
    return 'HTTP scheme only allowed for localhost';
  }
  if (uri.includes('#')) return 'fragment not allowed in redirect URI';
  return undefined;
}

function optionalUrl(value: string, field: string): void {
  if (value === '') return;
  if (value.length > 2048) throw errors.validation(`${field} cannot exceed 2048 characters`);
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol)) {
    throw errors.validation(`${field} must be a valid URL`);
  }
}

function validateRedirectUris(uris: string[]): void {
  if (uris.length === 0) throw errors.validation('redirect_uris cannot be empty');
  if (uris.length > 10) throw errors.validation('redirect_uris cannot exceed 10 items');
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw errors.validation(`invalid redirect_uri '${uri.slice(0, 256)}': ${problem}`);
    // The list is stored comma-separated, as GoTrue does.
    if (uri.includes(',')) throw errors.validation(`invalid redirect_uri: commas are not allowed`);
  }
}

function validateGrantTypes(types: string[]): void {
  if (types.length === 0) throw errors.validation('grant_types cannot be empty');
  if (types.some((type) => !(GRANT_TYPES as readonly string[]).includes(type))) {
    throw errors.validation(
      "grant_types must only contain 'authorization_code' and/or 'refresh_token'",
    );
  }
}

const text = (max: number) => z.union([z.string().max(max), z.null()]).optional();
const stringList = z.union([z.array(z.string().max(2048)).max(20), z.null()]).optional();

const registerBody = z.object({
  redirect_uris: stringList,
  client_type: text(32),
  token_endpoint_auth_method: text(32),
  grant_types: stringList,
  client_name: z
    .union([z.string().max(1024, 'client_name cannot exceed 1024 characters'), z.null()])
    .optional(),
  client_uri: text(4096),
  logo_uri: text(4096),
});

function clientTypeFor(method: string): 'public' | 'confidential' {
  return method === 'none' ? 'public' : 'confidential';
}

async function registerClient(
  c: Context,
  deps: AuthDependencies,
  registrationType: 'dynamic' | 'manual',
): Promise<Response> {
  const body = await readBody(c, registerBody);
  const uris = body.redirect_uris ?? [];
  if (uris.length === 0) throw errors.validation('redirect_uris is required');
  validateRedirectUris(uris);
  if (body.grant_types && body.grant_types.length > 0) validateGrantTypes(body.grant_types);
  optionalUrl(body.client_uri ?? '', 'client_uri');
  optionalUrl(body.logo_uri ?? '', 'logo_uri');
  const explicitType = body.client_type ?? '';
  if (explicitType !== '' && explicitType !== 'public' && explicitType !== 'confidential') {
    throw errors.validation("client_type must be 'public' or 'confidential'");
  }
  const method = body.token_endpoint_auth_method ?? '';
  if (method !== '' && !(AUTH_METHODS as readonly string[]).includes(method)) {
    throw errors.validation(
      'token_endpoint_auth_method must be one of: [none client_secret_basic client_secret_post]',
    );
  }
  if (explicitType !== '' && method !== '' && clientTypeFor(method) !== explicitType) {
    throw errors.validation(
      `client_type '${explicitType}' is inconsistent with token_endpoint_auth_method '${method}' (expected client_type '${clientTypeFor(method)}')`,
    );
  }
  const clientType = explicitType || (method ? clientTypeFor(method) : 'confidential');
  const authMethod = method || (clientType === 'public' ? 'none' : 'client_secret_basic');
  const grantTypes =
    body.grant_types && body.grant_types.length > 0
      ? [...new Set(body.grant_types)]
      : [...GRANT_TYPES];
  const credentials = clientType === 'confidential' ? newSecret() : undefined;

  const { rows } = await deps.db.query<ClientRow>(
    `insert into auth.oauth_clients (id, client_secret_hash, registration_type, client_type,
       token_endpoint_auth_method, redirect_uris, grant_types, client_name, client_uri, logo_uri)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     returning ${CLIENT_COLUMNS}`,
    [
      randomUUID(),
      credentials?.hash ?? null,
      registrationType,
      clientType,
      authMethod,
      uris.join(','),
      grantTypes.join(','),
      body.client_name || null,
      body.client_uri || null,
      body.logo_uri || null,
    ],
  );
  return c.json(clientJson(rows[0]!, credentials?.secret), 201);
}

async function findClient(db: Queryable, id: string): Promise<ClientRow | undefined> {
  const { rows } = await db.query<ClientRow>(
    `select ${CLIENT_COLUMNS} from auth.oauth_clients where id = $1 and deleted_at is null`,
    [id],
  );
  return rows[0];
}

/** GoTrue's LoadOAuthServerClient: the client in the path. */
async function clientInPath(c: Context, deps: AuthDependencies): Promise<ClientRow> {
  const id = c.req.param('client_id') ?? '';
  if (!isUuid(id)) throw errors.validation('invalid client_id format');
  const client = await findClient(deps.db, id);
  if (!client) throw clientNotFound();
  return client;
}

/** GET /admin/oauth/clients?page=&per_page=: newest first, paged as /admin/users is. */
async function listClients(c: Context, deps: AuthDependencies): Promise<Response> {
  const params = new URL(c.req.url).searchParams;
  const { page, perPage, offset } = adminPaging(params);
  const { rows: counted } = await deps.db.query<{ count: string }>(
    `select count(*)::text as count from auth.oauth_clients where deleted_at is null`,
  );
  const total = BigInt(counted[0]?.count ?? '0');
  const { rows } = await deps.db.query<ClientRow>(
    `select ${CLIENT_COLUMNS} from auth.oauth_clients where deleted_at is null
     order by created_at desc, id desc
     limit ${perPage} offset ${offset}`,
  );
  const totalPages = (total + perPage - 1n) / perPage;
  const link = (to: bigint) => `</admin/oauth/clients?page=${to}&per_page=${perPage}>`;
  let header = '';
  if (totalPages > page) header += `${link(page + 1n)}; rel="next", `;
  header += `${link(totalPages)}; rel="last"`;
  c.header('Link', header);
  c.header('X-Total-Count', String(total));
  return c.json({ clients: rows.map((row) => clientJson(row)) });
}

const updateBody = z.object({
  redirect_uris: z.array(z.string().max(2048)).max(20).optional(),
  grant_types: z.array(z.string().max(64)).max(10).optional(),
  client_name: z.string().max(1024, 'client_name cannot exceed 1024 characters').optional(),
  client_uri: z.string().max(4096).optional(),
  logo_uri: z.string().max(4096).optional(),
  token_endpoint_auth_method: z.string().max(32).optional(),
});

/** PUT /admin/oauth/clients/:client_id: only the fields given. */
async function updateClient(c: Context, deps: AuthDependencies): Promise<Response> {
  const client = await clientInPath(c, deps);
  const body = await readBody(c, updateBody);
  if (Object.values(body).every((value) => value === undefined)) {
    throw errors.validation('No fields provided for update');
  }
  if (body.redirect_uris) validateRedirectUris(body.redirect_uris);
  if (body.grant_types) validateGrantTypes(body.grant_types);
  if (body.client_uri !== undefined) optionalUrl(body.client_uri, 'client_uri');
  if (body.logo_uri !== undefined) optionalUrl(body.logo_uri, 'logo_uri');
  const method = body.token_endpoint_auth_method;
  if (method !== undefined) {
    if (!(AUTH_METHODS as readonly string[]).includes(method)) {
      throw errors.validation(
        'invalid token_endpoint_auth_method: must be one of [none client_secret_basic client_secret_post]',
      );
    }
    if (clientTypeFor(method) !== client.client_type) {
      const valid =
        client.client_type === 'public' ? '[none]' : '[client_secret_basic client_secret_post]';
      throw errors.validation(
        `token_endpoint_auth_method '${method}' is not valid for client_type '${client.client_type}'; valid methods: ${valid}`,
      );
    }
  }
  const { rows } = await deps.db.query<ClientRow>(
    `update auth.oauth_clients set
       redirect_uris = coalesce($2, redirect_uris),
       grant_types = coalesce($3, grant_types),
       client_name = case when $4::boolean then nullif($5, '') else client_name end,
       client_uri = case when $6::boolean then nullif($7, '') else client_uri end,
       logo_uri = case when $8::boolean then nullif($9, '') else logo_uri end,
       token_endpoint_auth_method = coalesce($10, token_endpoint_auth_method),
       updated_at = now()
     where id = $1 and deleted_at is null
     returning ${CLIENT_COLUMNS}`,
    [
      client.id,
      body.redirect_uris?.join(',') ?? null,
      body.grant_types ? [...new Set(body.grant_types)].join(',') : null,
      body.client_name !== undefined,
      body.client_name ?? '',
      body.client_uri !== undefined,
      body.client_uri ?? '',
      body.logo_uri !== undefined,
      body.logo_uri ?? '',
      method ?? null,
    ],
  );
  if (!rows[0]) throw clientNotFound();
  return c.json(clientJson(rows[0]));
}

/** POST /admin/oauth/clients/:client_id/regenerate_secret: the old secret stops working. */
async function regenerateSecret(c: Context, deps: AuthDependencies): Promise<Response> {
  const client = await clientInPath(c, deps);
  if (client.client_type !== 'confidential') {
    throw errors.validation('Cannot regenerate secret for public client');
  }
  const { secret, hash } = newSecret();
  const { rows } = await deps.db.query<ClientRow>(
    `update auth.oauth_clients set client_secret_hash = $2, updated_at = now()
     where id = $1 and deleted_at is null returning ${CLIENT_COLUMNS}`,
    [client.id, hash],
  );
  if (!rows[0]) throw clientNotFound();
  return c.json(clientJson(rows[0], secret));
}

/**
 * DELETE /admin/oauth/clients/:client_id: soft-deleted as GoTrue does; beyond
 * GoTrue, its sessions and pending requests end with it, so no token of a
 * removed application keeps working.
 */
async function deleteClient(c: Context, deps: AuthDependencies): Promise<Response> {
  const client = await clientInPath(c, deps);
  await deps.db.transaction(async (tx) => {
    await tx.query(
      `update auth.oauth_clients set deleted_at = now(), updated_at = now() where id = $1`,
      [client.id],
    );
    await tx.query(`delete from auth.sessions where oauth_client_id = $1`, [client.id]);
    await tx.query(`delete from auth.oauth_authorizations where client_id = $1`, [client.id]);
  });
  return c.body(null, 204);
}

// ---------------------------------------------------------- authorization

interface AuthorizationRow {
  id: string;
  client_id: string;
  user_id: string | null;
  redirect_uri: string;
  scope: string;
  state: string | null;
  code_challenge: string;
  status: 'pending' | 'approved' | 'denied' | 'expired' | 'exchanged';
  session_id: string | null;
  nonce: string | null;
  resource: string | null;
  approved_aal: 'aal1' | 'aal2' | null;
  expired: boolean;
}

const AUTHORIZATION_COLUMNS = `id, client_id, user_id, redirect_uri, scope, state, code_challenge,
  status, session_id, nonce, resource, approved_aal, expires_at <= now() as expired`;

function withQuery(uri: string, values: Record<string, string | undefined | null>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(values)) {
    if (value) url.searchParams.set(key, value);
  }
  return url.toString();
}

function errorRedirect(uri: string, error: string, description: string, state?: string | null) {
  return withQuery(uri, { error, error_description: description, state });
}

const parseScopes = (scope: string) => scope.split(/\s+/).filter(Boolean);

/**
 * RFC 8707 §2, as GoTrue checks it: an absolute URI without a fragment or a
 * query. It is kept with the request and must match at the code exchange.
 */
function resourceIndicatorProblem(resource: string | null): string | undefined {
  if (!resource) return undefined;
  if (resource.length > MAX_RESOURCE_LENGTH) {
    return `resource cannot exceed ${MAX_RESOURCE_LENGTH} characters`;
  }
  if (!URL.canParse(resource)) {
    return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(resource)
      ? 'resource must be a valid URI'
      : 'resource must be an absolute URI';
  }
  if (resource.includes('#')) return 'resource must not include a fragment component';
  if (resource.includes('?')) return 'resource must not include a query component';
  return undefined;
}

/** Why the remaining parameters are refused (sent back to the client's redirect URI), if they are. */
function authorizeProblem(params: URLSearchParams): string | undefined {
  const responseType = params.get('response_type') || 'code';
  if (responseType !== 'code') return 'only response_type=code is supported';
  const scope = params.get('scope') || DEFAULT_SCOPE;
  if (scope.length > 1024) return 'scope is too long';
  const scopes = parseScopes(scope);
  if (scopes.length === 0) return 'scope parameter cannot be empty';
  const unsupported = scopes.find((item) => !SUPPORTED_SCOPES.includes(item));
  if (unsupported) return `unsupported scope: ${unsupported.slice(0, 64)}`;
  if ((params.get('state') ?? '').length > 4096) return 'state is too long';
  if ((params.get('nonce') ?? '').length > MAX_NONCE_LENGTH) {
    return `nonce cannot exceed ${MAX_NONCE_LENGTH} characters`;
  }
  const resourceProblem = resourceIndicatorProblem(params.get('resource'));
  if (resourceProblem) return resourceProblem;
  const challenge = params.get('code_challenge') ?? '';
  const method = params.get('code_challenge_method') ?? '';
  if (!challenge || !method) {
    return 'PKCE flow requires both code_challenge and code_challenge_method';
  }
  // OAuth 2.1 §4.1.1: S256 whenever the client can; plain gives no protection against a leaked code.
  if (method !== 'S256') return "code_challenge_method must be 'S256'";
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(challenge)) {
    return 'code_challenge must be between 43 and 128 characters';
  }
  return undefined;
}

/**
 * GET /oauth/authorize: a bad client or redirect URI is answered here (never
 * redirected to); anything else wrong goes back to the client's redirect URI
 * as OAuth says; a good request is stored and the browser sent to the site's
 * consent page with its id.
 */
async function authorize(c: Context, deps: AuthDependencies): Promise<Response> {
  const params = new URL(c.req.url).searchParams;
  const clientId = params.get('client_id') ?? '';
  const redirectUri = params.get('redirect_uri') ?? '';
  if (!clientId) throw errors.validation('client_id is required');
  if (!redirectUri) throw errors.validation('redirect_uri is required');
  if (!isUuid(clientId))
    throw new AuthError(400, 'oauth_client_not_found', 'invalid client_id format');
  const client = await findClient(deps.db, clientId);
  if (!client) throw new AuthError(400, 'oauth_client_not_found', 'invalid client_id');
  // Exact string match against the registered list: the one defence against open redirects.
  if (!splitList(client.redirect_uris).includes(redirectUri)) {
    throw errors.validation('invalid redirect_uri');
  }
  const state = params.get('state');
  const problem = authorizeProblem(params);
  if (problem)
    return c.redirect(errorRedirect(redirectUri, 'invalid_request', problem, state), 302);
  if (!splitList(client.grant_types).includes('authorization_code')) {
    return c.redirect(
      errorRedirect(
        redirectUri,
        'unauthorized_client',
        'client is not allowed to use the authorization code grant',
        state,
      ),
      302,
    );
  }
  const { authorizationPath, authorizationTtlSeconds } = deps.config.oauthServer;
  if (!authorizationPath) {
    return c.redirect(
      errorRedirect(redirectUri, 'server_error', 'oauth authorization path not configured', state),
      302,
    );
  }
  // Anyone may start a request, so each network may start only so many, and
  // requests a day past their expiry (codes long useless) are swept as new ones come.
  await hitRateLimit(
    deps.db,
    networkKey('oauth-authorize', clientIp(c, deps.trustProxy)),
    deps.config.oauthServer.authorizationsPer5Minutes,
    300,
    errors.overRequestRateLimit,
  );
  await deps.db.query(
    `delete from auth.oauth_authorizations where expires_at < now() - interval '1 day'`,
  );
  const id = randomBytes(24).toString('base64url');
  await deps.db.query(
    `insert into auth.oauth_authorizations (id, client_id, redirect_uri, scope, state,
       code_challenge, code_challenge_method, expires_at, nonce, resource)
     values ($1, $2, $3, $4, $5, $6, 's256', now() + make_interval(secs => $7), $8, $9)`,
    [
      id,
      client.id,
      redirectUri,
      [...new Set(parseScopes(params.get('scope') || DEFAULT_SCOPE))].join(' '),
      state || null,
      params.get('code_challenge'),
      authorizationTtlSeconds,
      params.get('nonce') || null,
      params.get('resource') || null,
    ],
  );
  const base = deps.config.siteUrl.replace(/\/+$/, '');
  const path = authorizationPath.startsWith('/') ? authorizationPath : `/${authorizationPath}`;
  return c.redirect(`${base}${path}?authorization_id=${id}`, 302);
}

/** GoTrue's validateRequestOrigin: a browser's Origin must be the site or an allowed redirect. */
function checkOrigin(c: Context, deps: AuthDependencies): void {
  const origin = c.req.header('origin');
  if (origin && !isRedirectAllowed(deps.config, origin)) {
    throw errors.validation('unauthorized request origin');
  }
}

/**
 * Loads the authorization for update; an expired one is marked so (committed)
 * and reported missing, as is one that belongs to someone else.
 */
async function lockAuthorization(
  tx: Queryable,
  id: string,
): Promise<AuthorizationRow | 'expired' | undefined> {
  if (id.length > 64) return undefined;
  const { rows } = await tx.query<AuthorizationRow>(
    `select ${AUTHORIZATION_COLUMNS} from auth.oauth_authorizations where id = $1 for update`,
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  if (row.expired) {
    if (row.status === 'pending') {
      await tx.query(`update auth.oauth_authorizations set status = 'expired' where id = $1`, [id]);
    }
    return 'expired';
  }
  return row;
}

function newCode(): { code: string; hash: string } {
  const code = randomBytes(32).toString('base64url');
  return { code, hash: hashCode(code) };
}

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/**
 * Approves a request with the approving session's assurance level, which the
 * app's session will start at (a person who passed both steps gives it aal2).
 */
async function approve(
  tx: Queryable,
  authorization: AuthorizationRow,
  approver: Authenticated,
): Promise<string> {
  const { code, hash } = newCode();
  await tx.query(
    `update auth.oauth_authorizations
     set status = 'approved', code_hash = $2, approved_at = now(), approved_aal = $3
     where id = $1`,
    [authorization.id, hash, approver.claims.aal === 'aal2' ? 'aal2' : 'aal1'],
  );
  return withQuery(authorization.redirect_uri, { code, state: authorization.state });
}

async function activeConsent(
  db: Queryable,
  userId: string,
  clientId: string,
): Promise<{ scopes: string } | undefined> {
  const { rows } = await db.query<{ scopes: string }>(
    `select scopes from auth.oauth_consents
     where user_id = $1 and client_id = $2 and revoked_at is null`,
    [userId, clientId],
  );
  return rows[0];
}

/**
 * GET /oauth/authorizations/:id (the consent page, signed in): the request's
 * client, scopes and user. The first reader becomes its user; if they already
 * granted the client these scopes, it is approved at once and only
 * `redirect_url` is returned.
 */
async function getAuthorization(c: Context, deps: AuthDependencies): Promise<Response> {
  checkOrigin(c, deps);
  const approver = await authenticate(c, deps);
  const { user } = approver;
  const id = c.req.param('authorization_id') ?? '';
  const outcome = await deps.db.transaction(
    async (tx): Promise<AuthError | { redirect: string } | { authorization: AuthorizationRow }> => {
      const authorization = await lockAuthorization(tx, id);
      if (!authorization || authorization === 'expired') return authorizationNotFound();
      if (authorization.status !== 'pending') {
        return errors.validation('authorization request cannot be processed');
      }
      if (authorization.user_id && authorization.user_id !== user.id) {
        return authorizationNotFound();
      }
      if (!authorization.user_id) {
        await tx.query(`update auth.oauth_authorizations set user_id = $2 where id = $1`, [
          id,
          user.id,
        ]);
        const consent = await activeConsent(tx, user.id, authorization.client_id);
        const granted = new Set(parseScopes(consent?.scopes ?? ''));
        if (consent && parseScopes(authorization.scope).every((scope) => granted.has(scope))) {
          return { redirect: await approve(tx, authorization, approver) };
        }
      }
      return { authorization };
    },
  );
  if (outcome instanceof AuthError) throw outcome;
  if ('redirect' in outcome) return c.json({ redirect_url: outcome.redirect });
  const { authorization } = outcome;
  const client = await findClient(deps.db, authorization.client_id);
  if (!client) throw authorizationNotFound();
  return c.json({
    authorization_id: authorization.id,
    redirect_uri: authorization.redirect_uri,
    client: {
      id: client.id,
      ...(client.client_name ? { name: client.client_name } : {}),
      ...(client.client_uri ? { uri: client.client_uri } : {}),
      ...(client.logo_uri ? { logo_uri: client.logo_uri } : {}),
    },
    user: { id: user.id, ...(user.email ? { email: user.email } : {}) },
    scope: authorization.scope,
  });
}

const consentBody = z.object({ action: z.unknown() });

/** POST /oauth/authorizations/:id/consent {action: approve|deny}: where to send the browser. */
async function consent(c: Context, deps: AuthDependencies): Promise<Response> {
  checkOrigin(c, deps);
  const approver = await authenticate(c, deps);
  const { user } = approver;
  const body = await readBody(c, consentBody);
  if (body.action !== 'approve' && body.action !== 'deny') {
    throw errors.validation("action must be 'approve' or 'deny'");
  }
  const id = c.req.param('authorization_id') ?? '';
  const outcome = await deps.db.transaction(async (tx): Promise<AuthError | string> => {
    const authorization = await lockAuthorization(tx, id);
    if (!authorization || authorization === 'expired') return authorizationNotFound();
    if (authorization.status !== 'pending') {
      return errors.validation('authorization request is no longer pending');
    }
    if (authorization.user_id !== user.id) return authorizationNotFound();
    if (body.action === 'deny') {
      await tx.query(`update auth.oauth_authorizations set status = 'denied' where id = $1`, [id]);
      return errorRedirect(
        authorization.redirect_uri,
        'access_denied',
        'User denied the request',
        authorization.state,
      );
    }
    const redirect = await approve(tx, authorization, approver);
    await tx.query(
      `insert into auth.oauth_consents (id, user_id, client_id, scopes, granted_at)
       values ($1, $2, $3, $4, now())
       on conflict (user_id, client_id) do update set
         scopes = case when auth.oauth_consents.revoked_at is null
                       then (select string_agg(distinct s, ' ' order by s) from unnest(
                               string_to_array(auth.oauth_consents.scopes, ' ') || string_to_array(excluded.scopes, ' ')) s)
                       else excluded.scopes end,
         granted_at = now(), revoked_at = null`,
      [randomUUID(), user.id, authorization.client_id, authorization.scope],
    );
    return redirect;
  });
  if (outcome instanceof AuthError) throw outcome;
  return c.json({ redirect_url: outcome });
}

// ------------------------------------------------------------------ token

interface TokenParams {
  grant_type: string;
  code: string;
  refresh_token: string;
  redirect_uri: string;
  client_id: string;
  client_secret: string;
  code_verifier: string;
  resource: string;
}

const TOKEN_FIELDS = [
  'grant_type',
  'code',
  'refresh_token',
  'redirect_uri',
  'client_id',
  'client_secret',
  'code_verifier',
  'resource',
] as const;

/** The token request's fields, from a form (RFC 6749) or JSON body, both as GoTrue reads them. */
async function readTokenParams(c: Context): Promise<TokenParams> {
  let raw: string;
  try {
    raw = await readBodyText(c, MAX_TOKEN_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw errors.requestTooLarge();
    if (error instanceof BodyReadError) throw new OAuthError('invalid_request', 'Invalid body');
    throw error;
  }
  const params = Object.fromEntries(TOKEN_FIELDS.map((field) => [field, ''])) as Record<
    keyof TokenParams,
    string
  >;
  if ((c.req.header('content-type') ?? '').includes('application/json')) {
    let json: unknown;
    try {
      json = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch {
      throw new OAuthError('invalid_request', 'Invalid JSON body');
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new OAuthError('invalid_request', 'Invalid JSON body');
    }
    for (const field of TOKEN_FIELDS) {
      const value = (json as Record<string, unknown>)[field];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string') throw new OAuthError('invalid_request', `Invalid ${field}`);
      params[field] = value;
    }
  } else {
    const form = new URLSearchParams(raw);
    for (const field of TOKEN_FIELDS) {
      if (form.getAll(field).length > 1) {
        throw new OAuthError('invalid_request', `${field} given more than once`);
      }
      params[field] = form.get(field) ?? '';
    }
  }
  if (Object.values(params).some((value) => value.includes('\u0000'))) {
    throw new OAuthError('invalid_request', 'Invalid characters in request body');
  }
  return params;
}

/**
 * GoTrue's requireOAuthClientAuth: Basic (client_secret_basic) or body fields
 * (client_secret_post, or none for a public client), and the method used must
 * be the client's registered one.
 */
async function authenticateClient(
  c: Context,
  deps: AuthDependencies,
  params: TokenParams,
): Promise<ClientRow> {
  let clientId = params.client_id;
  let secret = params.client_secret;
  let method: (typeof AUTH_METHODS)[number];
  const header = c.req.header('authorization');
  if (header && header.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalidClient('invalid basic auth format');
    // RFC 6749 §2.3.1: both parts are form-encoded.
    try {
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw invalidClient('invalid basic auth encoding');
    }
    method = 'client_secret_basic';
  } else {
    method = secret ? 'client_secret_post' : 'none';
  }
  if (!clientId) throw new OAuthError('invalid_client', 'Client authentication required');
  if (!isUuid(clientId)) throw invalidClient('Invalid client_id format');
  const client = await findClient(deps.db, clientId);
  if (!client) throw invalidClient();
  if (method !== client.token_endpoint_auth_method) {
    throw invalidClient(
      `invalid authentication method: client is registered for '${client.token_endpoint_auth_method}' but '${method}' was used`,
    );
  }
  if (client.client_type === 'public') {
    if (secret) throw invalidClient('public clients must not provide client_secret');
  } else if (!secret || !secretMatches(secret, client.client_secret_hash)) {
    throw invalidClient(
      secret ? 'invalid client credentials' : 'confidential clients must provide client_secret',
    );
  }
  return client;
}

/** POST /oauth/token: authorization_code (with PKCE) and refresh_token, for an authenticated client. */
async function tokenEndpoint(c: Context, deps: AuthDependencies): Promise<Response> {
  const params = await readTokenParams(c);
  if (!params.grant_type) throw new OAuthError('invalid_request', 'grant_type is required');
  const client = await authenticateClient(c, deps, params);
  if (!splitList(client.grant_types).includes(params.grant_type)) {
    throw new OAuthError(
      'unsupported_grant_type',
      `Client is not allowed to use grant type: ${params.grant_type.slice(0, 64)}`,
    );
  }
  c.header('Cache-Control', 'no-store');
  if (params.grant_type === 'authorization_code') return codeGrant(c, deps, client, params);
  if (params.grant_type === 'refresh_token') {
    if (!params.refresh_token) {
      throw new OAuthError('invalid_request', 'refresh_token is required for refresh_token grant');
    }
    if (params.refresh_token.length > 255) {
      throw new OAuthError('invalid_grant', 'Invalid Refresh Token: Refresh Token Not Found');
    }
    const { response } = await refreshSession(c, deps, params.refresh_token, client.id);
    return c.json(oauthTokens(response));
  }
  throw new OAuthError('unsupported_grant_type', `Unsupported grant type: ${params.grant_type}`);
}

const oauthTokens = (response: {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
}) => ({
  access_token: response.access_token,
  token_type: response.token_type,
  expires_in: response.expires_in,
  refresh_token: response.refresh_token,
});

async function codeGrant(
  c: Context,
  deps: AuthDependencies,
  client: ClientRow,
  params: TokenParams,
): Promise<Response> {
  if (!params.code) {
    throw new OAuthError('invalid_request', 'code is required for authorization_code grant');
  }
  if (params.code.length > 255) throw new OAuthError('invalid_grant', 'Invalid authorization code');
  const ip = clientIp(c, deps.trustProxy);
  // A code used twice ends the session it was first exchanged for (OAuth 2.1 §4.1.3):
  // that must commit although the request fails, so the outcome is returned, not thrown.
  const outcome = await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<AuthorizationRow>(
      `select ${AUTHORIZATION_COLUMNS} from auth.oauth_authorizations where code_hash = $1 for update`,
      [hashCode(params.code)],
    );
    const authorization = rows[0];
    if (!authorization) return new OAuthError('invalid_grant', 'Invalid authorization code');
    if (authorization.client_id !== client.id) {
      return new OAuthError('invalid_grant', 'Authorization code was not issued for this client');
    }
    if (params.resource && params.resource !== authorization.resource) {
      return new OAuthError(
        'invalid_grant',
        'Authorization code resource does not match the resource parameter',
      );
    }
    if (authorization.status === 'exchanged') {
      if (authorization.session_id) {
        await tx.query(`delete from auth.sessions where id = $1`, [authorization.session_id]);
      }
      return new OAuthError('invalid_grant', 'Invalid authorization code');
    }
    if (authorization.status !== 'approved') {
      return new OAuthError('invalid_grant', 'Invalid authorization code');
    }
    if (authorization.expired) {
      return new OAuthError('invalid_grant', 'Authorization code has expired');
    }
    if (params.redirect_uri && params.redirect_uri !== authorization.redirect_uri) {
      return new OAuthError('invalid_grant', 'Invalid redirect_uri');
    }
    if (!params.code_verifier) {
      return new OAuthError('invalid_grant', 'PKCE verification failed: code verifier is required');
    }
    if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(params.code_verifier)) {
      return new OAuthError(
        'invalid_grant',
        'PKCE verification failed: code verifier must be 43-128 unreserved characters',
      );
    }
    const challenge = createHash('sha256').update(params.code_verifier).digest('base64url');
    if (challenge !== authorization.code_challenge) {
      return new OAuthError(
        'invalid_grant',
        'PKCE verification failed: code challenge does not match',
      );
    }
    const user = authorization.user_id ? await findUserById(tx, authorization.user_id) : null;
    if (!user || user.deleted_at) {
      return new OAuthError('invalid_grant', 'User not found for authorization code');
    }
    if (isBanned(user)) return new OAuthError('access_denied', 'User is banned');
    const openid = parseScopes(authorization.scope).includes('openid');
    // GoTrue signs ID tokens only with an asymmetric key (a client cannot check an
    // HS256 one without the server's secret) and answers 500 when the key is HS256;
    // here that is decided before the code is spent, so nothing is issued.
    if (openid && deps.ring.algorithm === 'HS256') {
      return new AuthError(500, 'unexpected_failure', 'Error generating ID token');
    }
    const session = await startSession(
      tx,
      deps,
      user,
      'oauth_provider/authorization_code',
      { ip, userAgent: userAgent(c) },
      {
        clientId: client.id,
        scopes: authorization.scope,
        aal: authorization.approved_aal ?? 'aal1',
      },
    );
    const sessionId = JSON.parse(
      Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString(),
    ).session_id as string;
    await tx.query(
      `update auth.oauth_authorizations set status = 'exchanged', session_id = $2 where id = $1`,
      [authorization.id, sessionId],
    );
    await recordAudit(tx, { id: user.id, username: user.email ?? user.phone ?? '' }, 'login', ip, {
      provider_type: 'oauth_provider_authorization_code',
      client_id: client.id,
    });
    if (!openid) return oauthTokens(session);
    // Signed before the exchange commits; `user` as read before it, so its last
    // sign-in is when the person authenticated, not this exchange.
    const idToken = await signIdToken(deps, {
      user,
      clientId: client.id,
      nonce: authorization.nonce,
      scopes: parseScopes(authorization.scope),
    });
    return { ...oauthTokens(session), id_token: idToken };
  });
  if (outcome instanceof OAuthError || outcome instanceof AuthError) throw outcome;
  return c.json(outcome);
}

// ------------------------------------------------------- OpenID Connect

const epoch = (value: string | Date) => Math.floor(new Date(value).getTime() / 1000);

/** GoTrue's profile-scope claims: `name` (falling back to the email), `picture`, `preferred_username`, `updated_at`. */
function profileClaims(user: UserRow): Record<string, string | number> {
  const metadata = user.raw_user_meta_data ?? {};
  const text = (key: string) => {
    const value = metadata[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const claims: Record<string, string | number> = {};
  const name = text('name') ?? (user.email || undefined);
  if (name) claims.name = name;
  const picture = text('picture') ?? text('avatar_url');
  if (picture) claims.picture = picture;
  const username = text('preferred_username') ?? text('username');
  if (username) claims.preferred_username = username;
  if (epoch(user.updated_at) > 0) claims.updated_at = epoch(user.updated_at);
  return claims;
}

/**
 * GoTrue's GenerateIDToken (OIDC Core §2): iss, sub, aud = the client, an hour's
 * exp, iat, auth_time (the user's last sign-in, which preceded the consent),
 * nonce when one was sent, `client_id`, and the claims of the scopes granted.
 * Signed by the ring's signing key, so it verifies against /.well-known/jwks.json.
 */
async function signIdToken(
  deps: AuthDependencies,
  params: { user: UserRow; clientId: string; nonce: string | null; scopes: string[] },
): Promise<string> {
  const { user, scopes } = params;
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: deps.config.jwtIssuer,
    sub: user.id,
    aud: params.clientId,
    iat: now,
    exp: now + ID_TOKEN_LIFETIME_SECONDS,
    auth_time: user.last_sign_in_at ? epoch(user.last_sign_in_at) : now,
    ...(params.nonce ? { nonce: params.nonce } : {}),
    client_id: params.clientId,
  };
  if (scopes.includes('email')) {
    if (user.email) claims.email = user.email;
    claims.email_verified = Boolean(user.email_confirmed_at);
  }
  if (scopes.includes('phone')) {
    if (user.phone) claims.phone_number = user.phone;
    claims.phone_number_verified = Boolean(user.phone_confirmed_at);
  }
  if (scopes.includes('profile')) Object.assign(claims, profileClaims(user));
  return deps.ring.sign(claims);
}

/**
 * RFC 6750 §3: a refused bearer token is 401 with `WWW-Authenticate` (where
 * GoTrue's userinfo answers its requireAuthentication's 403 bad_jwt or
 * session_not_found), the body keeping GoTrue's error code and message.
 */
async function authenticateBearer(c: Context, deps: AuthDependencies): Promise<Authenticated> {
  try {
    return await authenticate(c, deps, { oauthApps: 'allow' });
  } catch (error) {
    if (!(error instanceof AuthError) || error.status >= 500) throw error;
    if (error.code === 'no_authorization') {
      c.header('WWW-Authenticate', 'Bearer');
      throw error;
    }
    // RFC 6750 §3: printable ASCII without the quote and backslash.
    const description = error.message.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, '?');
    c.header(
      'WWW-Authenticate',
      `Bearer error="invalid_token", error_description="${description}"`,
    );
    throw new AuthError(401, error.code, error.message);
  }
}

/**
 * GET and POST /oauth/userinfo (GoTrue's OAuthUserInfo, OIDC Core §5.3): `sub` always,
 * then what the session's granted scopes allow: email → email, email_verified;
 * profile → name, picture, preferred_username, updated_at, user_metadata;
 * phone → phone, phone_verified (GoTrue's names here, not the ID token's).
 * A token of an ordinary (non-OAuth) session has no scopes: `sub` alone, as on GoTrue.
 */
async function userinfo(c: Context, deps: AuthDependencies): Promise<Response> {
  const { user, sessionId } = await authenticateBearer(c, deps);
  c.header('Cache-Control', 'no-store');
  const claims: Record<string, unknown> = { sub: user.id };
  if (!sessionId) return c.json(claims);
  const { rows } = await deps.db.query<{ scopes: string | null }>(
    `select scopes from auth.sessions where id = $1 and user_id = $2`,
    [sessionId, user.id],
  );
  const scopes = parseScopes(rows[0]?.scopes ?? '');
  if (scopes.includes('email')) {
    if (user.email) claims.email = user.email;
    if (user.email_confirmed_at) claims.email_verified = true;
  }
  if (scopes.includes('profile')) {
    Object.assign(claims, profileClaims(user));
    if (user.raw_user_meta_data) claims.user_metadata = user.raw_user_meta_data;
  }
  if (scopes.includes('phone')) {
    if (user.phone) claims.phone = user.phone;
    if (user.phone_confirmed_at) claims.phone_verified = true;
  }
  return c.json(claims);
}

// ----------------------------------------------------------------- grants

/** GET /user/oauth/grants: the applications the user granted, and what. */
async function listGrants(c: Context, deps: AuthDependencies): Promise<Response> {
  const { user } = await authenticate(c, deps);
  const { rows } = await deps.db.query<
    Pick<ClientRow, 'id' | 'client_name' | 'client_uri' | 'logo_uri'> & {
      scopes: string;
      granted_at: string | Date;
    }
  >(
    `select cl.id, cl.client_name, cl.client_uri, cl.logo_uri, co.scopes, co.granted_at
     from auth.oauth_consents co join auth.oauth_clients cl on cl.id = co.client_id
     where co.user_id = $1 and co.revoked_at is null and cl.deleted_at is null
     order by co.granted_at desc`,
    [user.id],
  );
  return c.json(
    rows.map((row) => ({
      client: {
        id: row.id,
        ...(row.client_name ? { name: row.client_name } : {}),
        ...(row.client_uri ? { uri: row.client_uri } : {}),
        ...(row.logo_uri ? { logo_uri: row.logo_uri } : {}),
      },
      scopes: parseScopes(row.scopes),
      granted_at: iso(row.granted_at),
    })),
  );
}

/** DELETE /user/oauth/grants?client_id=: the grant ends, and every session the client holds for the user. */
async function revokeGrant(c: Context, deps: AuthDependencies): Promise<Response> {
  const { user } = await authenticate(c, deps);
  const clientId = c.req.query('client_id') ?? '';
  if (!clientId) throw errors.validation('client_id query parameter is required');
  if (!isUuid(clientId)) throw errors.validation('invalid client_id format');
  const revoked = await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `update auth.oauth_consents set revoked_at = now()
       where user_id = $1 and client_id = $2 and revoked_at is null returning id`,
      [user.id, clientId],
    );
    if (rows.length === 0) return false;
    await tx.query(`delete from auth.sessions where user_id = $1 and oauth_client_id = $2`, [
      user.id,
      clientId,
    ]);
    await tx.query(
      `delete from auth.oauth_authorizations where user_id = $1 and client_id = $2 and status <> 'exchanged'`,
      [user.id, clientId],
    );
    await recordAudit(
      tx,
      { id: user.id, username: user.email ?? user.phone ?? '' },
      'token_revoked',
      clientIp(c, deps.trustProxy),
      { oauth_client_id: clientId, action: 'revoke_oauth_grant' },
    );
    return true;
  });
  if (!revoked) {
    throw new AuthError(404, 'oauth_consent_not_found', 'No active grant found for this client');
  }
  return c.body(null, 204);
}

// ----------------------------------------------------------------- routes

/**
 * GoTrue's one document for OpenID Connect Discovery 1.0 and RFC 8414 (it
 * serves the same at both addresses). The signing algorithms are GoTrue's list
 * as it is; the ID tokens themselves are signed with the ring's asymmetric key.
 */
function metadata(deps: AuthDependencies) {
  const base = `${deps.config.apiUrl.replace(/\/+$/, '')}/auth/v1`;
  return {
    issuer: deps.config.jwtIssuer,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    jwks_uri: `${base}/.well-known/jwks.json`,
    userinfo_endpoint: `${base}/oauth/userinfo`,
    ...(deps.config.oauthServer.enabled && deps.config.oauthServer.allowDynamicRegistration
      ? { registration_endpoint: `${base}/oauth/clients/register` }
      : {}),
    scopes_supported: SUPPORTED_SCOPES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANT_TYPES],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256', 'HS256', 'ES256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    claims_supported: [
      'sub',
      'aud',
      'iss',
      'exp',
      'iat',
      'auth_time',
      'nonce',
      'email',
      'email_verified',
      'phone_number',
      'phone_number_verified',
      'name',
      'picture',
      'preferred_username',
      'updated_at',
    ],
    code_challenge_methods_supported: ['S256'],
  };
}

export function registerOAuthServerRoutes(routes: Hono, handle: HandleAuth): void {
  const gate = (
    handler: (c: Context, deps: AuthDependencies) => Promise<Response>,
    before?: 'admin' | 'user',
  ) =>
    handle(async (c, deps) => {
      if (before === 'admin') await requireAdmin(c, deps);
      if (before === 'user') await authenticate(c, deps);
      if (!deps.config.oauthServer.enabled) throw oauthServerDisabled();
      return handler(c, deps);
    });

  routes.get(
    '/.well-known/oauth-authorization-server',
    gate(async (c, deps) =>
      c.json(metadata(deps), 200, { 'Cache-Control': 'public, max-age=600' }),
    ),
  );
  // As on GoTrue, discovery answers whether or not the OAuth server is on.
  routes.get(
    '/.well-known/openid-configuration',
    handle(async (c, deps) =>
      c.json(metadata(deps), 200, { 'Cache-Control': 'public, max-age=600' }),
    ),
  );

  routes.post(
    '/admin/oauth/clients',
    gate((c, deps) => registerClient(c, deps, 'manual'), 'admin'),
  );
  routes.get('/admin/oauth/clients', gate(listClients, 'admin'));
  routes.get(
    '/admin/oauth/clients/:client_id',
    gate(async (c, deps) => c.json(clientJson(await clientInPath(c, deps))), 'admin'),
  );
  routes.put('/admin/oauth/clients/:client_id', gate(updateClient, 'admin'));
  routes.delete('/admin/oauth/clients/:client_id', gate(deleteClient, 'admin'));
  routes.post('/admin/oauth/clients/:client_id/regenerate_secret', gate(regenerateSecret, 'admin'));
  routes.all(
    '/admin/oauth/*',
    gate(async () => {
      throw errors.notFound();
    }, 'admin'),
  );

  routes.post(
    '/oauth/clients/register',
    gate(async (c, deps) => {
      if (!deps.config.oauthServer.allowDynamicRegistration) {
        throw new AuthError(
          403,
          'oauth_dynamic_client_registration_disabled',
          'Dynamic client registration is not enabled',
        );
      }
      await hitRateLimit(
        deps.db,
        networkKey('oauth-register', clientIp(c, deps.trustProxy)),
        deps.config.oauthServer.dynamicRegistrationsPerHour,
        3600,
        errors.overRequestRateLimit,
      );
      return registerClient(c, deps, 'dynamic');
    }),
  );
  routes.get('/oauth/authorize', gate(authorize));
  routes.get('/oauth/authorizations/:authorization_id', gate(getAuthorization));
  routes.post('/oauth/authorizations/:authorization_id/consent', gate(consent));
  routes.post('/oauth/token', gate(tokenEndpoint));
  // OIDC Core §5.3.1: the UserInfo endpoint takes GET and POST (the token in the header).
  routes.get('/oauth/userinfo', gate(userinfo));
  routes.post('/oauth/userinfo', gate(userinfo));
  for (const path of ['/oauth', '/oauth/*']) {
    routes.all(
      path,
      gate(async () => {
        throw errors.notFound();
      }),
    );
  }

  routes.get('/user/oauth/grants', gate(listGrants, 'user'));
  routes.delete('/user/oauth/grants', gate(revokeGrant, 'user'));
}
