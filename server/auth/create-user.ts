import type { Queryable } from '../db/database';
import { generateUuid } from './tokens';
import { findUserById, type UserRow } from './users';

export interface NewUser {
  id?: string;
  email?: string;
  phone?: string;
  encryptedPassword?: string;
  userMetadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  emailConfirmed?: boolean;
  phoneConfirmed?: boolean;
  isAnonymous?: boolean;
  invited?: boolean;
  role: string;
  aud: string;
}

/** Inserts a user and its email/phone identity, as GoTrue does on sign-up. */
export async function createUser(db: Queryable, input: NewUser): Promise<UserRow> {
  const id = input.id ?? generateUuid();
  const providers = [...(input.email ? ['email'] : []), ...(input.phone ? ['phone'] : [])];
  const appMetadata = input.isAnonymous
    ? { ...(input.appMetadata ?? {}) }
    : { provider: providers[0] ?? 'email', providers, ...(input.appMetadata ?? {}) };
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, phone, encrypted_password,
        email_confirmed_at, phone_confirmed_at, invited_at, raw_app_meta_data, raw_user_meta_data,
        is_anonymous, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, $3, $4, $5, $6,
        case when $7 then now() end, case when $8 then now() end, case when $9 then now() end,
        $10, $11, $12, now(), now())`,
    [
      id,
      input.aud,
      input.role,
      input.email ?? null,
      input.phone ?? null,
      input.encryptedPassword ?? '',
      Boolean(input.emailConfirmed),
      Boolean(input.phoneConfirmed),
      Boolean(input.invited),
      JSON.stringify(appMetadata),
      JSON.stringify(input.userMetadata ?? {}),
      Boolean(input.isAnonymous),
    ],
  );
  if (input.email) {
    await db.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
       values ($1, $2, $3, 'email', now(), now())`,
      [
        id,
        id,
        JSON.stringify({
          ...(input.userMetadata ?? {}),
          sub: id,
          email: input.email,
          email_verified: Boolean(input.emailConfirmed),
          phone_verified: false,
        }),
      ],
    );
  }
  if (input.phone) {
    await db.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
       values ($1, $2, $3, 'phone', now(), now())`,
      [
        id,
        id,
        JSON.stringify({
          ...(input.userMetadata ?? {}),
          sub: id,
          phone: input.phone,
          email_verified: false,
          phone_verified: Boolean(input.phoneConfirmed),
        }),
      ],
    );
  }
  const user = await findUserById(db, id);
  if (!user) throw new Error('created user not found');
  return user;
}

/**
 * Marks an address verified on the user and in its identity's data. The first
 * confirmation also sets `user_metadata.email_verified` and clears the user's
 * other pending links and codes, as GoTrue's Confirm does.
 */
export async function confirmEmail(db: Queryable, userId: string): Promise<void> {
  const first = await db.query(
    `update auth.users set email_confirmed_at = now(),
       raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb,
       updated_at = now()
     where id = $1 and email_confirmed_at is null`,
    [userId],
  );
  if (first.rowCount > 0) {
    await db.query(`delete from auth.one_time_tokens where user_id = $1`, [userId]);
  }
  await db.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
     where user_id = $1 and provider = 'email'`,
    [userId],
  );
}

export async function confirmPhone(db: Queryable, userId: string): Promise<void> {
  const first = await db.query(
    `update auth.users set phone_confirmed_at = now(), updated_at = now()
     where id = $1 and phone_confirmed_at is null`,
    [userId],
  );
  if (first.rowCount > 0) {
    await db.query(`delete from auth.one_time_tokens where user_id = $1`, [userId]);
  }
  await db.query(
    `update auth.identities set identity_data = identity_data || '{"phone_verified": true}'::jsonb, updated_at = now()
     where user_id = $1 and provider = 'phone'`,
    [userId],
  );
}

/**
 * After a confirmed email or phone change: updates the provider's identity, or
 * creates it when the user had none (an anonymous user, or an email user adding
 * a phone), as GoTrue's verify does; the user stops being anonymous.
 */
export async function confirmIdentityChange(
  db: Queryable,
  userId: string,
  provider: 'email' | 'phone',
  address: string,
): Promise<void> {
  const verifiedKey = provider === 'email' ? 'email_verified' : 'phone_verified';
  const updated = await db.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object($3::text, $4::text, $5::text, true),
       updated_at = now()
     where user_id = $1 and provider = $2`,
    [userId, provider, provider, address, verifiedKey],
  );
  if (updated.rowCount === 0) {
    await db.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
       values ($1::text, $1::uuid, $3, $2, now(), now(), now())`,
      [
        userId,
        provider,
        JSON.stringify({
          sub: userId,
          [provider]: address,
          email_verified: provider === 'email',
          phone_verified: provider === 'phone',
        }),
      ],
    );
  }
  await db.query(
    `update auth.users set is_anonymous = false, updated_at = now() where id = $1 and is_anonymous`,
    [userId],
  );
  await updateProviders(db, userId);
}

/** GoTrue's UpdateAppMetaDataProviders: `providers` from the identities, `provider` the first. */
export async function updateProviders(db: Queryable, userId: string): Promise<void> {
  const { rows } = await db.query<{ provider: string }>(
    `select provider from auth.identities where user_id = $1 order by created_at, id`,
    [userId],
  );
  const providers = [...new Set(rows.map((row) => row.provider))];
  const update: Record<string, unknown> = { providers };
  if (providers.length > 0) update.provider = providers[0];
  await db.query(
    `update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || $2::jsonb,
       updated_at = now() where id = $1`,
    [userId, JSON.stringify(update)],
  );
}
