import type { Queryable } from '../db/database';
import { toIsoTimestamp } from './time';

/** A row of auth.users, as this service reads it (timestamps are PostgreSQL text, UTC). */
export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  invited_at: string | null;
  confirmation_sent_at: string | null;
  confirmed_at: string | null;
  recovery_sent_at: string | null;
  email_change: string | null;
  email_change_sent_at: string | null;
  email_change_confirm_status: number | null;
  phone: string | null;
  phone_confirmed_at: string | null;
  phone_change: string | null;
  phone_change_sent_at: string | null;
  reauthentication_sent_at: string | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  banned_until: string | null;
  deleted_at: string | null;
  is_anonymous: boolean;
  is_sso_user: boolean;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown> | null;
  provider: string;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
  email: string | null;
}

export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: 'totp' | 'phone' | 'webauthn';
  status: 'verified' | 'unverified';
  secret: string | null;
  phone: string | null;
  last_challenged_at: string | null;
  created_at: string;
  updated_at: string;
}

export const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, invited_at,
  confirmation_sent_at, confirmed_at, recovery_sent_at, email_change, email_change_sent_at,
  email_change_confirm_status, phone, phone_confirmed_at, phone_change, phone_change_sent_at,
  reauthentication_sent_at, last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at,
  updated_at, banned_until, deleted_at, is_anonymous, is_sso_user`;

export async function findUserById(
  db: Queryable,
  id: string,
  forUpdate = false,
): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where id = $1 ${forUpdate ? 'for update' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users
     where lower(email) = lower($1) and is_sso_user = false and deleted_at is null`,
    [email],
  );
  return rows[0] ?? null;
}

export async function findUserByPhone(db: Queryable, phone: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where phone = $1 and deleted_at is null`,
    [phone],
  );
  return rows[0] ?? null;
}

export function isBanned(user: Pick<UserRow, 'banned_until'>): boolean {
  if (!user.banned_until) return false;
  const until = new Date(toIsoTimestamp(user.banned_until) ?? user.banned_until);
  return until.getTime() > Date.now();
}

/** Normalises an email the way GoTrue stores it. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL_PATTERN =
  /^[^\s@"(),:;<>[\]\\]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isValidEmail(email: string): boolean {
  return email.length <= 255 && EMAIL_PATTERN.test(email);
}

/** GoTrue stores phones as digits without the leading '+'; E.164 has 8–15 of them. */
export function normalisePhone(phone: string): string | null {
  const digits = phone
    .trim()
    .replace(/[\s().-]/g, '')
    .replace(/^\+/, '');
  return /^[1-9]\d{7,14}$/.test(digits) ? digits : null;
}

function omitEmpty<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(
      ([, field]) => field !== undefined && field !== null && field !== '',
    ),
  ) as Partial<T>;
}

export function serializeIdentity(identity: IdentityRow) {
  return {
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    ...(identity.identity_data ? { identity_data: identity.identity_data } : {}),
    provider: identity.provider,
    ...omitEmpty({ last_sign_in_at: toIsoTimestamp(identity.last_sign_in_at) }),
    created_at: toIsoTimestamp(identity.created_at),
    updated_at: toIsoTimestamp(identity.updated_at),
    ...omitEmpty({ email: identity.email ?? undefined }),
  };
}

export function serializeFactor(factor: FactorRow) {
  return {
    id: factor.id,
    created_at: toIsoTimestamp(factor.created_at),
    updated_at: toIsoTimestamp(factor.updated_at),
    status: factor.status,
    ...omitEmpty({ friendly_name: factor.friendly_name ?? undefined }),
    factor_type: factor.factor_type,
    phone: factor.phone ?? '',
    last_challenged_at: toIsoTimestamp(factor.last_challenged_at) ?? null,
  };
}

/** The user as GoTrue writes it in JSON: its fields, order and omissions (contract §2.3). */
export function serializeUser(user: UserRow, identities: IdentityRow[], factors: FactorRow[]) {
  return {
    id: user.id,
    aud: user.aud ?? '',
    role: user.role ?? '',
    email: user.email ?? '',
    ...omitEmpty({
      email_confirmed_at: toIsoTimestamp(user.email_confirmed_at),
      invited_at: toIsoTimestamp(user.invited_at),
    }),
    phone: user.phone ?? '',
    ...omitEmpty({
      phone_confirmed_at: toIsoTimestamp(user.phone_confirmed_at),
      confirmation_sent_at: toIsoTimestamp(user.confirmation_sent_at),
      confirmed_at: toIsoTimestamp(user.confirmed_at),
      recovery_sent_at: toIsoTimestamp(user.recovery_sent_at),
      new_email: user.email_change ?? undefined,
      email_change_sent_at: toIsoTimestamp(user.email_change_sent_at),
      new_phone: user.phone_change ?? undefined,
      phone_change_sent_at: toIsoTimestamp(user.phone_change_sent_at),
      reauthentication_sent_at: toIsoTimestamp(user.reauthentication_sent_at),
      last_sign_in_at: toIsoTimestamp(user.last_sign_in_at),
    }),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    ...(factors.length > 0 ? { factors: factors.map(serializeFactor) } : {}),
    identities: identities.map(serializeIdentity),
    created_at: toIsoTimestamp(user.created_at),
    updated_at: toIsoTimestamp(user.updated_at),
    ...omitEmpty({
      banned_until: toIsoTimestamp(user.banned_until),
      deleted_at: toIsoTimestamp(user.deleted_at),
    }),
    is_anonymous: user.is_anonymous,
  };
}

export type UserJson = ReturnType<typeof serializeUser>;

export async function loadUserJson(db: Queryable, userId: string): Promise<UserJson | null> {
  const user = await findUserById(db, userId);
  if (!user) return null;
  const [identities, factors] = await Promise.all([
    db.query<IdentityRow>(
      `select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email
       from auth.identities where user_id = $1 order by created_at`,
      [userId],
    ),
    db.query<FactorRow>(
      `select id, user_id, friendly_name, factor_type, status, secret, phone, last_challenged_at, created_at, updated_at
       from auth.mfa_factors where user_id = $1 order by created_at`,
      [userId],
    ),
  ]);
  return serializeUser(user, identities.rows, factors.rows);
}

/** GoTrue's metadata update: keys set to null are removed, others set. */
export function mergeMetadata(
  current: Record<string, unknown> | null,
  updates: Record<string, unknown> = {},
): Record<string, unknown> {
  const next = { ...current };
  for (const [key, value] of Object.entries(updates)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}
