import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { Transaction } from '../db/database';
import { adminGenerateLink, adminInvite } from './admin-links';
import { adminActor, adminPaging, loadTargetUser, requestAudience } from './admin-shared';
import { adminCreateUser, adminUpdateUser } from './admin-users';
import { recordAudit } from './audit';
import type { AuthDependencies, HandleAuth } from './context';
import { AuthError } from './errors';
import { clientIp, isUuid, readBody } from './request';
import { requireAdmin } from './request-auth';
import {
  USER_COLUMNS,
  loadUserJson,
  serializeFactor,
  serializeUser,
  type FactorRow,
  type IdentityRow,
  type UserRow,
} from './users';

/** GoTrue's admin API: every route needs a token whose role is an admin role. */
export function registerAdminRoutes(routes: Hono, handle: HandleAuth): void {
  routes.get('/admin/users', handle(listUsers));
  routes.post('/admin/users', handle(adminCreateUser));
  routes.get('/admin/users/:id', handle(getUser));
  routes.put('/admin/users/:id', handle(adminUpdateUser));
  routes.delete('/admin/users/:id', handle(deleteUser));
  routes.get('/admin/users/:id/factors', handle(listFactors));
  routes.delete('/admin/users/:id/factors/:factorId', handle(deleteFactor));
  routes.post('/admin/generate_link', handle(adminGenerateLink));
  routes.post('/invite', handle(adminInvite));
}

/** Go's url.QueryEscape. */
function queryEscape(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** GoTrue's Link header: the request's own query (keys sorted, as Go encodes it) with another page. */
function pageLink(params: URLSearchParams, page: bigint): string {
  const keys = [...new Set(params.keys())].sort();
  const query = keys
    .flatMap((key) =>
      (key === 'page' ? [String(page)] : params.getAll(key)).map(
        (value) => `${queryEscape(key)}=${queryEscape(value)}`,
      ),
    )
    .join('&');
  return `</admin/users?${query}>`;
}

const IDENTITY_COLUMNS = `id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email`;
const FACTOR_COLUMNS = `id, user_id, friendly_name, factor_type, status, secret, phone, last_challenged_at, created_at, updated_at`;

function byUser<Row extends { user_id: string }>(rows: Row[]): Map<string, Row[]> {
  const grouped = new Map<string, Row[]>();
  for (const row of rows) grouped.set(row.user_id, [...(grouped.get(row.user_id) ?? []), row]);
  return grouped;
}

/** GET /admin/users?page=&per_page=[&filter=]: newest first. */
async function listUsers(c: Context, deps: AuthDependencies): Promise<Response> {
  await requireAdmin(c, deps);
  const aud = requestAudience(c, deps);
  const params = new URL(c.req.url).searchParams;
  const { page, perPage, offset } = adminPaging(params);
  const filter = params.get('filter') ?? '';
  const where = `aud = $1 ${filter ? `and (email like $2 or raw_user_meta_data->>'full_name' ilike $2)` : ''}`;
  const whereParams = filter ? [aud, `%${filter}%`] : [aud];

  const { rows: counted } = await deps.db.query<{ count: string }>(
    `select count(*)::text as count from auth.users where ${where}`,
    whereParams,
  );
  const total = BigInt(counted[0]?.count ?? '0');
  const { rows: users } = await deps.db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where ${where}
     order by created_at desc, id desc
     limit ${perPage} offset ${offset}`,
    whereParams,
  );
  const ids = users.map((user) => user.id);
  const [identities, factors] = await Promise.all([
    deps.db.query<IdentityRow>(
      `select ${IDENTITY_COLUMNS} from auth.identities where user_id = any($1::uuid[]) order by created_at`,
      [ids],
    ),
    deps.db.query<FactorRow>(
      `select ${FACTOR_COLUMNS} from auth.mfa_factors where user_id = any($1::uuid[]) order by created_at`,
      [ids],
    ),
  ]);
  const identitiesOf = byUser(identities.rows);
  const factorsOf = byUser(factors.rows);

  const totalPages = (total + perPage - 1n) / perPage;
  let link = '';
  if (totalPages > page) link += `${pageLink(params, page + 1n)}; rel="next", `;
  link += `${pageLink(params, totalPages)}; rel="last"`;
  c.header('Link', link);
  c.header('X-Total-Count', String(total));
  return c.json({
    users: users.map((user) =>
      serializeUser(user, identitiesOf.get(user.id) ?? [], factorsOf.get(user.id) ?? []),
    ),
    aud,
  });
}

/** GET /admin/users/:id */
async function getUser(c: Context, deps: AuthDependencies): Promise<Response> {
  await requireAdmin(c, deps);
  const user = await loadTargetUser(deps.db, c.req.param('id') ?? '');
  return c.json(await loadUserJson(deps.db, user.id));
}

/** GoTrue's obfuscateValue: base64url(sha256(user id + value)). */
function obfuscate(userId: string, value: string): string {
  return createHash('sha256')
    .update(userId + value)
    .digest('base64url');
}

/** GoTrue's SoftDeleteUser and SoftDeleteUserIdentities, plus its factor and session clean-up. */
async function softDelete(tx: Transaction, user: UserRow): Promise<void> {
  await tx.query(
    `update auth.users set email = $2, phone = $3, email_change = $4, phone_change = $5,
       encrypted_password = null, confirmation_token = '', recovery_token = '',
       email_change_token_current = '', email_change_token_new = '', phone_change_token = '',
       raw_user_meta_data = '{}', raw_app_meta_data = '{}', deleted_at = now(), updated_at = now()
     where id = $1`,
    [
      user.id,
      obfuscate(user.id, user.email ?? ''),
      obfuscate(user.id, user.phone ?? '').slice(0, 15),
      obfuscate(user.id, user.email_change ?? ''),
      obfuscate(user.id, user.phone_change ?? '').slice(0, 15),
    ],
  );
  const { rows: identities } = await tx.query<IdentityRow>(
    `select ${IDENTITY_COLUMNS} from auth.identities where user_id = $1`,
    [user.id],
  );
  for (const identity of identities) {
    await tx.query(
      `update auth.identities set identity_data = '{}', provider_id = $2, updated_at = now() where id = $1`,
      [identity.id, obfuscate(user.id, `${identity.provider}:${identity.provider_id}`)],
    );
  }
  for (const table of ['one_time_tokens', 'mfa_factors', 'sessions']) {
    await tx.query(`delete from auth.${table} where user_id = $1`, [user.id]);
  }
}

const deleteBody = z.object({
  should_soft_delete: z.union([z.boolean(), z.null()]).optional(),
});

/** DELETE /admin/users/:id, body {should_soft_delete?} */
async function deleteUser(c: Context, deps: AuthDependencies): Promise<Response> {
  const claims = await requireAdmin(c, deps);
  const user = await loadTargetUser(deps.db, c.req.param('id') ?? '');
  const body = await readBody(c, deleteBody);
  await deps.db.transaction(async (tx) => {
    await recordAudit(tx, adminActor(claims), 'user_deleted', clientIp(c, deps.trustProxy), {
      user_id: user.id,
      user_email: user.email ?? '',
      user_phone: user.phone ?? '',
    });
    if (!body.should_soft_delete) {
      await tx.query(`delete from auth.users where id = $1`, [user.id]);
    } else if (!user.deleted_at) {
      await softDelete(tx, user);
    }
  });
  return c.json({});
}

/** GET /admin/users/:id/factors */
async function listFactors(c: Context, deps: AuthDependencies): Promise<Response> {
  await requireAdmin(c, deps);
  const user = await loadTargetUser(deps.db, c.req.param('id') ?? '');
  const { rows } = await deps.db.query<FactorRow>(
    `select ${FACTOR_COLUMNS} from auth.mfa_factors where user_id = $1 order by created_at`,
    [user.id],
  );
  return c.json(rows.map(serializeFactor));
}

async function loadFactor(c: Context, deps: AuthDependencies) {
  const claims = await requireAdmin(c, deps);
  const user = await loadTargetUser(deps.db, c.req.param('id') ?? '');
  const factorId = c.req.param('factorId') ?? '';
  if (!isUuid(factorId)) throw new AuthError(404, 'validation_failed', 'factor_id must be an UUID');
  const { rows } = await deps.db.query<FactorRow>(
    `select ${FACTOR_COLUMNS} from auth.mfa_factors where user_id = $1 and id = $2`,
    [user.id, factorId],
  );
  if (!rows[0]) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
  return { claims, user, factor: rows[0] };
}

const AMR_METHOD: Record<FactorRow['factor_type'], string> = {
  totp: 'totp',
  phone: 'mfa/phone',
  webauthn: 'mfa/webauthn',
};

/** DELETE /admin/users/:id/factors/:factorId: the sessions it raised to aal2 fall back to aal1. */
async function deleteFactor(c: Context, deps: AuthDependencies): Promise<Response> {
  const { claims, user, factor } = await loadFactor(c, deps);
  await deps.db.transaction(async (tx) => {
    await recordAudit(tx, adminActor(claims), 'factor_deleted', clientIp(c, deps.trustProxy), {
      user_id: user.id,
      factor_id: factor.id,
    });
    await tx.query(`delete from auth.mfa_factors where id = $1`, [factor.id]);
    await tx.query(
      `delete from auth.mfa_amr_claims where authentication_method = $2
         and session_id in (select id from auth.sessions where factor_id = $1)`,
      [factor.id, AMR_METHOD[factor.factor_type]],
    );
    await tx.query(
      `update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now()
       where user_id = $1 and factor_id = $2`,
      [user.id, factor.id],
    );
  });
  return c.json(serializeFactor(factor));
}
