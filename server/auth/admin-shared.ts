import type { Context } from 'hono';
import type { Queryable } from '../db/database';
import type { AuditActor } from './audit';
import type { AuthDependencies } from './context';
import { createUser } from './create-user';
import { AuthError, errors } from './errors';
import { isUuid } from './request';
import type { requireAdmin } from './request-auth';
import { USER_COLUMNS, findUserById, isValidEmail, normaliseEmail, type UserRow } from './users';

/** What the admin endpoints (admin.ts, admin-users.ts, admin-links.ts, oauth-server.ts) share. */

const MAX_PER_PAGE = 1000n;
const MAX_UINT64 = (1n << 64n) - 1n;
const MAX_OFFSET = (1n << 63n) - 1n;

/** Go's strconv.ParseUint, with its error text. */
function parseUint(value: string | null, fallback: bigint): bigint {
  if (!value) return fallback;
  const error = (reason: string) =>
    errors.validation(
      `Bad Pagination Parameters: strconv.ParseUint: parsing ${JSON.stringify(value)}: ${reason}`,
    );
  if (!/^\d+$/.test(value)) throw error('invalid syntax');
  const parsed = BigInt(value);
  if (parsed > MAX_UINT64) throw error('value out of range');
  return parsed;
}

/**
 * GoTrue's admin lists' `page` and `per_page` (50 by default, at most 1000), with
 * its errors, and the row offset they start at (kept within Postgres's bigint).
 */
export function adminPaging(params: URLSearchParams): {
  page: bigint;
  perPage: bigint;
  offset: bigint;
} {
  const page = parseUint(params.get('page'), 1n);
  let perPage = parseUint(params.get('per_page'), 50n);
  if (perPage === 0n)
    throw errors.validation('Bad Pagination Parameters: per_page must be greater than 0');
  if (perPage > MAX_PER_PAGE) perPage = MAX_PER_PAGE;
  const offset = (page > 1n ? page - 1n : 0n) * perPage;
  return { page, perPage, offset: offset > MAX_OFFSET ? MAX_OFFSET : offset };
}

type AdminClaims = Awaited<ReturnType<typeof requireAdmin>>;

/** The audit actor of an admin call: the token's subject (GoTrue: the nil UUID) and its role. */
export function adminActor(claims: AdminClaims): AuditActor {
  const sub = typeof claims.sub === 'string' && isUuid(claims.sub) ? claims.sub : undefined;
  const role = typeof claims.role === 'string' ? claims.role : '';
  return { id: sub ?? '00000000-0000-0000-0000-000000000000', username: role };
}

/** GoTrue's requestAud: the X-JWT-AUD header, else the configured audience (admin tokens' aud is ignored). */
export function requestAudience(c: Context, deps: AuthDependencies): string {
  return c.req.header('x-jwt-aud') || deps.config.audience;
}

export function validateEmailParam(email: string | undefined): string {
  if (!email) throw errors.validation('An email address is required');
  if (email.length > 255) throw errors.validation('An email address is too long');
  const normalised = normaliseEmail(email);
  if (!isValidEmail(normalised))
    throw errors.validation('Unable to validate email address: invalid format');
  return normalised;
}

/** GoTrue's IsDuplicatedEmail: another user of the audience has it, on the user or an identity. */
export async function emailTaken(db: Queryable, email: string, aud: string, exceptId?: string) {
  const { rows } = await db.query(
    `select 1 from auth.users u
     where u.aud = $2 and u.is_sso_user = false and ($3::uuid is null or u.id <> $3::uuid)
       and (lower(u.email) = lower($1) or exists (select 1 from auth.identities i
         where i.user_id = u.id and i.email = lower($1) and i.provider not like 'sso:%'))
     limit 1`,
    [email, aud, exceptId ?? null],
  );
  return rows.length > 0;
}

/** A user as the admin endpoints create it: identities carry only the address, not the metadata. */
export async function createAdminUser(
  db: Queryable,
  input: Parameters<typeof createUser>[1] & { appMetadata?: Record<string, unknown> },
): Promise<UserRow> {
  const { userMetadata, appMetadata, ...rest } = input;
  const user = await createUser(db, rest);
  await db.query(
    `update auth.users set raw_user_meta_data = $2, raw_app_meta_data = coalesce($3, raw_app_meta_data)
     where id = $1`,
    [user.id, JSON.stringify(userMetadata ?? {}), appMetadata ? JSON.stringify(appMetadata) : null],
  );
  return (await findUserById(db, user.id))!;
}

/** Throws GoTrue's 404s for a bad or unknown user id in the path. */
export async function loadTargetUser(db: Queryable, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw new AuthError(404, 'validation_failed', 'user_id must be an UUID');
  const user = await findUserById(db, id);
  if (!user) throw errors.userNotFound();
  return user;
}

/** GoTrue's FindUserByEmailAndAudience (SSO users aside). */
export async function findUserInAudience(db: Queryable, email: string, aud: string) {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users
     where lower(email) = lower($1) and aud = $2 and is_sso_user = false limit 1`,
    [email, aud],
  );
  return rows[0] ?? null;
}
