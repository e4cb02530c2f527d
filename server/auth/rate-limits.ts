import type { Queryable } from '../db/database';
import { networkOf } from '../http/client-ip';
import type { AuthError } from './errors';

declare const limitKeyBrand: unique symbol;
/**
 * A counter's key, built only by `networkKey` or `accountKey`: a limit never
 * counts a raw client address, so an IPv6 caller cannot step around it by
 * changing the low 64 bits of its address.
 */
export type LimitKey = string & { readonly [limitKeyBrand]: true };

/** The key of a per-caller limit: the caller's network (IPv4 address or IPv6 /64, see `networkOf`). */
export function networkKey(kind: string, ip: string): LimitKey {
  return `${kind}:${networkOf(ip)}` as LimitKey;
}

/** The key of a per-account (or per-token) limit: an address, phone number, user or token id. */
export function accountKey(kind: string, id: string): LimitKey {
  return `${kind}:${id}` as LimitKey;
}

/**
 * Fixed-window counters kept in the database (shared by every server). Each
 * call counts one hit and throws when the window's limit is passed. Called on
 * the database itself (not a transaction) the hit commits even when the
 * request then fails.
 */
export async function hitRateLimit(
  db: Queryable,
  key: LimitKey,
  limit: number,
  windowSeconds: number,
  error: () => AuthError,
): Promise<void> {
  if (limit <= 0) return;
  const { rows } = await db.query<{ hits: number }>(
    `insert into cervana.rate_limits (key, window_start, hits)
     values ($1, to_timestamp(floor(extract(epoch from now()) / $2) * $2), 1)
     on conflict (key, window_start) do update set hits = cervana.rate_limits.hits + 1
     returning hits`,
    [key, windowSeconds],
  );
  if ((rows[0]?.hits ?? 0) > limit) throw error();
}

/** Gives back one hit of the current window (an attempt counted in advance that turned out fine). */
export async function refundHit(
  db: Queryable,
  key: LimitKey,
  windowSeconds: number,
): Promise<void> {
  await db.query(
    `update cervana.rate_limits set hits = greatest(hits - 1, 0)
     where key = $1 and window_start = to_timestamp(floor(extract(epoch from now()) / $2) * $2)`,
    [key, windowSeconds],
  );
}

/** How many hits a key has in its current window, without counting one. */
export async function currentHits(
  db: Queryable,
  key: LimitKey,
  windowSeconds: number,
): Promise<number> {
  const { rows } = await db.query<{ hits: number }>(
    `select hits from cervana.rate_limits
     where key = $1 and window_start = to_timestamp(floor(extract(epoch from now()) / $2) * $2)`,
    [key, windowSeconds],
  );
  return rows[0]?.hits ?? 0;
}

/**
 * Counts one attempt against something that lives from `since` (a one-time
 * code, an MFA challenge) and returns the attempts so far: the window is the
 * thing's own lifetime, so the count never resets while it lasts. Rows are
 * pruned a day after `since`, when every such thing has expired.
 */
export async function countAttempt(
  db: Queryable,
  key: LimitKey,
  sinceEpochSeconds: number,
): Promise<number> {
  const { rows } = await db.query<{ hits: number }>(
    `insert into cervana.rate_limits (key, window_start, hits)
     values ($1, to_timestamp($2::float8), 1)
     on conflict (key, window_start) do update set hits = cervana.rate_limits.hits + 1
     returning hits`,
    [key, sinceEpochSeconds],
  );
  return rows[0]?.hits ?? 0;
}

/** The most attempts counted against a key in any window (see `countAttempt`). */
export async function attemptsCounted(db: Queryable, key: LimitKey): Promise<number> {
  const { rows } = await db.query<{ hits: number | null }>(
    `select max(hits) as hits from cervana.rate_limits where key = $1`,
    [key],
  );
  return rows[0]?.hits ?? 0;
}

export async function pruneRateLimits(db: Queryable): Promise<void> {
  await db.query(`delete from cervana.rate_limits where window_start < now() - interval '1 day'`);
}
