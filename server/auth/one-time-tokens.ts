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
 */
export async function issueOneTimeToken(
  db: Queryable,
  userId: string,
  type: OneTimeTokenType,
  relatesTo: string,
  length: number,
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
  return { otp, hash };
}

export interface StoredToken {
  user_id: string;
  token_type: OneTimeTokenType;
  relates_to: string;
  age_seconds: number;
}

export async function findOneTimeToken(
  db: Queryable,
  hash: string,
  types: OneTimeTokenType[],
): Promise<StoredToken | null> {
  const { rows } = await db.query<StoredToken>(
    `select user_id, token_type, relates_to,
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
): Promise<(StoredToken & { token_hash: string }) | null> {
  const { rows } = await db.query<StoredToken & { token_hash: string }>(
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
