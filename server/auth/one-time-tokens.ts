import type { Queryable } from '../db/database';
import { accountKey, countAttempt } from './rate-limits';
import { generateOtp, tokenHash } from './tokens';

/** Wrong codes a one-time code (or an MFA challenge) takes before it is void. */
export const WRONG_CODES_PER_CODE = 5;

export type OneTimeTokenType =
  | 'confirmation_token'
  | 'recovery_token'
  | 'email_change_token_new'
  | 'email_change_token_current'
  | 'phone_change_token'
  | 'reauthentication_token';

/** Which stored token types a /verify `type` may consume. */
export const tokenTypesFor: Record<string, OneTimeTokenType[]> = {
  signup: ['confirmation_token'],
  invite: ['confirmation_token'],
  magiclink: ['recovery_token', 'confirmation_token'],
  recovery: ['recovery_token'],
  email: ['confirmation_token', 'recovery_token'],
  email_change: ['email_change_token_new', 'email_change_token_current'],
  sms: ['confirmation_token', 'recovery_token'],
  phone_change: ['phone_change_token'],
};

export const EMAIL_VERIFY_TYPES = [
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change',
  'email',
];
export const PHONE_VERIFY_TYPES = ['sms', 'phone_change'];

export interface IssuedToken {
  otp: string;
  hash: string;
}

/**
 * A new one-time code for a user: only its hash is kept (one per user and type;
 * a new one replaces the old). `relatesTo` is the address it was sent to.
 *
 * A confirmation code also records whether it carries the account's password
 * (`bindsPassword`: sent for the sign-up that chose it): `auth.users.confirmation_token`
 * then holds its hash, else nothing. When a never-confirmed account is
 * confirmed, only that code keeps the password (see `settleFirstConfirmation`),
 * so a stranger who signed up first with the owner's address cannot keep a
 * password the owner never chose.
 */
export async function issueOneTimeToken(
  db: Queryable,
  userId: string,
  type: OneTimeTokenType,
  relatesTo: string,
  length: number,
  options: { bindsPassword?: boolean } = {},
): Promise<IssuedToken> {
  const otp = generateOtp(length);
  const hash = tokenHash(relatesTo, otp);
  await db.query(
    `insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values ($1, $2, $3, $4, now(), now())
     on conflict (user_id, token_type) do update
       set token_hash = excluded.token_hash, relates_to = excluded.relates_to,
           created_at = now(), updated_at = now()`,
    [userId, type, hash, relatesTo],
  );
  if (type === 'confirmation_token') {
    await db.query(`update auth.users set confirmation_token = $2 where id = $1`, [
      userId,
      options.bindsPassword ? hash : '',
    ]);
  }
  return { otp, hash };
}

/** Whether the user's live confirmation code carries the password (a resend keeps it so). */
export async function confirmationBindsPassword(db: Queryable, userId: string): Promise<boolean> {
  const { rows } = await db.query<{ binds: boolean }>(
    `select coalesce(u.confirmation_token, '') <> '' and exists (
       select 1 from auth.one_time_tokens t
       where t.user_id = u.id and t.token_type = 'confirmation_token' and t.token_hash = u.confirmation_token
     ) as binds
     from auth.users u where u.id = $1`,
    [userId],
  );
  return Boolean(rows[0]?.binds);
}

/**
 * The first confirmation of an account that was never confirmed (by any
 * address): the password stays only if the code used is the one sent for the
 * sign-up that chose it (any other code proves the address, not the password,
 * so the password is cleared and the owner sets one); and every session ends.
 * GoTrue's Confirm keeps the first sign-up's password, which lets whoever
 * signed up first with someone else's address sign in once the owner confirms.
 */
export async function settleFirstConfirmation(
  db: Queryable,
  user: {
    id: string;
    email_confirmed_at: string | null;
    phone_confirmed_at: string | null;
    is_anonymous: boolean;
  },
  consumed: Pick<StoredToken, 'token_type' | 'token_hash'>,
): Promise<void> {
  if (user.email_confirmed_at || user.phone_confirmed_at || user.is_anonymous) return;
  const bound =
    consumed.token_type === 'confirmation_token' && consumed.token_hash !== ''
      ? `confirmation_token = $2`
      : 'false';
  await db.query(
    `update auth.users set
       encrypted_password = case when ${bound} then encrypted_password else '' end,
       confirmation_token = '', updated_at = now()
     where id = $1`,
    bound === 'false' ? [user.id] : [user.id, consumed.token_hash],
  );
  await db.query(`delete from auth.sessions where user_id = $1`, [user.id]);
}

export interface StoredToken {
  user_id: string;
  token_type: OneTimeTokenType;
  /** '' for a test number's fixed code, which no stored token matches. */
  token_hash: string;
  relates_to: string;
  age_seconds: number;
}

export async function findOneTimeToken(
  db: Queryable,
  hash: string,
  types: OneTimeTokenType[],
): Promise<StoredToken | null> {
  const { rows } = await db.query<StoredToken>(
    `select user_id, token_type, token_hash, relates_to,
            extract(epoch from (now() at time zone 'utc' - created_at))::float8 as age_seconds
     from auth.one_time_tokens where token_hash = $1 and token_type = any($2::text[])
     for update`,
    [hash, types],
  );
  return rows[0] ?? null;
}

export async function findLatestToken(
  db: Queryable,
  userId: string,
  types: OneTimeTokenType[],
): Promise<StoredToken | null> {
  const { rows } = await db.query<StoredToken>(
    `select user_id, token_type, relates_to, token_hash,
            extract(epoch from (now() at time zone 'utc' - created_at))::float8 as age_seconds
     from auth.one_time_tokens where user_id = $1 and token_type = any($2::text[])
     order by created_at desc limit 1 for update`,
    [userId, types],
  );
  return rows[0] ?? null;
}

export async function deleteOneTimeToken(
  db: Queryable,
  userId: string,
  type: OneTimeTokenType,
): Promise<void> {
  await db.query(`delete from auth.one_time_tokens where user_id = $1 and token_type = $2`, [
    userId,
    type,
  ]);
}

/** A live code of an address, locked while a verification weighs a code against it. */
export interface LiveCode {
  id: string;
  /** created_at in epoch seconds: its wrong codes are counted from then. */
  issued: number;
}

/**
 * Locks an address's live codes of these types before a code sent for it is
 * looked up, so concurrent guesses at one address are weighed one at a time
 * and none slips past the count of wrong codes.
 */
export async function lockCodesFor(
  db: Queryable,
  relatesTo: string,
  types: OneTimeTokenType[],
): Promise<LiveCode[]> {
  const { rows } = await db.query<LiveCode>(
    `select id, extract(epoch from created_at)::float8 as issued
     from auth.one_time_tokens where relates_to = $1 and token_type = any($2::text[])
     order by id for update`,
    [relatesTo, types],
  );
  return rows;
}

/**
 * A code that matched none of the address's live codes (locked by
 * `lockCodesFor`): one wrong code is counted against each, and one that has
 * taken `WRONG_CODES_PER_CODE` is deleted, so it must be sent again. A code
 * sent again starts a new count (the count is kept per code and issue time).
 */
export async function countWrongCode(db: Queryable, codes: LiveCode[]): Promise<void> {
  for (const code of codes) {
    const attempts = await countAttempt(db, accountKey('wrong_code', code.id), code.issued);
    if (attempts >= WRONG_CODES_PER_CODE) {
      await db.query(`delete from auth.one_time_tokens where id = $1`, [code.id]);
    }
  }
}
