import type { Queryable } from '../db/database';
import type { AuthError } from './errors';

/**
 * Fixed-window counters kept in the database (shared by every server). Each
 * call counts one hit and throws when the window's limit is passed.
 */
export async function hitRateLimit(
  db: Queryable,
  key: string,
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

/** How many hits a key has in its current window, without counting one. */
export async function currentHits(
  db: Queryable,
  key: string,
  windowSeconds: number,
): Promise<number> {
  const { rows } = await db.query<{ hits: number }>(
    `select hits from cervana.rate_limits
     where key = $1 and window_start = to_timestamp(floor(extract(epoch from now()) / $2) * $2)`,
    [key, windowSeconds],
  );
  return rows[0]?.hits ?? 0;
}

export async function pruneRateLimits(db: Queryable): Promise<void> {
  await db.query(`delete from cervana.rate_limits where window_start < now() - interval '1 day'`);
}
