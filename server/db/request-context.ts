import type { Database, Transaction } from './database';

/** The roles a request may run as; any other role in a token is refused upstream. */
export const API_ROLES = ['anon', 'authenticated', 'service_role'] as const;
export type ApiRole = (typeof API_ROLES)[number];

export function isApiRole(value: unknown): value is ApiRole {
  return typeof value === 'string' && (API_ROLES as readonly string[]).includes(value);
}

export interface RequestContext {
  role: ApiRole;
  /** The verified JWT claims; `role` is set to the request's role. */
  claims: Record<string, unknown>;
  method: string;
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The headers already as JSON (instead of `headers`). */
  headersJson?: string;
  /** `Prefer: timezone=` */
  timezone?: string;
  /** GET and HEAD run read-only, as PostgREST does. */
  readOnly?: boolean;
  searchPath?: string;
}

/**
 * Runs `work` in one transaction as the request's role with its claims set
 * transaction-locally (contract §6.3), so row-level security sees the caller.
 * Nothing leaks to the next request: every setting ends with the transaction.
 */
export function withRequestContext<T>(
  db: Database,
  context: RequestContext,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  const claims = JSON.stringify({ ...context.claims, role: context.role });
  return db.transaction(async (tx) => {
    // One round trip. Read-only may be switched on at any point of a transaction.
    await tx.query(
      `select set_config('search_path', $1, true),
              set_config('role', $2, true),
              set_config('request.jwt.claims', $3, true),
              set_config('request.method', $4, true),
              set_config('request.path', $5, true),
              set_config('request.headers', $6, true),
              set_config('transaction_read_only', $7, true),
              case when $8::text <> '' then set_config('timezone', $8, true) end`,
      [
        context.searchPath ?? 'public, extensions',
        context.role,
        claims,
        context.method,
        context.path,
        context.headersJson ?? JSON.stringify(context.headers),
        context.readOnly ? 'on' : 'off',
        context.timezone ?? '',
      ],
    );
    return work(tx);
  });
}
