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

/** Marks an address verified on the user and in its identity's data. */
export async function confirmEmail(db: Queryable, userId: string): Promise<void> {
  await db.query(
    `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() where id = $1`,
    [userId],
  );
  await db.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
     where user_id = $1 and provider = 'email'`,
    [userId],
  );
}

export async function confirmPhone(db: Queryable, userId: string): Promise<void> {
  await db.query(
    `update auth.users set phone_confirmed_at = coalesce(phone_confirmed_at, now()), updated_at = now() where id = $1`,
    [userId],
  );
  await db.query(
    `update auth.identities set identity_data = identity_data || '{"phone_verified": true}'::jsonb, updated_at = now()
     where user_id = $1 and provider = 'phone'`,
    [userId],
  );
}
