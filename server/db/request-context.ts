import type { Database, PipelinedStatement, QueryResult, Transaction } from './database';

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
  /**
   * The caller's address as this server determined it (`request.client_ip`),
   * set on its own so that no header, however large, can make it fall away.
   */
  clientIp?: string;
}

/** How long one API statement may run when the database sets no other limit. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 8000;

/**
 * The one statement that sets a request's role, claims and settings,
 * transaction-locally, and refuses (401, PGRST303) a token whose session has
 * ended or whose user is banned.
 */
function contextStatement(db: Database, context: RequestContext): PipelinedStatement {
  return {
    // Read-only may be switched on at any point of a transaction.
    sql: `select set_config('search_path', $1, true),
              set_config('role', $2, true),
              set_config('request.jwt.claims', $3, true),
              set_config('request.method', $4, true),
              set_config('request.path', $5, true),
              set_config('request.headers', $6, true),
              set_config('transaction_read_only', $7, true),
              case when $8::text <> '' then set_config('timezone', $8, true) end,
              set_config('request.client_ip', $9, true),
              set_config('statement_timeout', $10, true),
              auth.require_live_session($11, $12)`,
    params: [
      context.searchPath ?? 'public, extensions',
      context.role,
      JSON.stringify({ ...context.claims, role: context.role }),
      context.method,
      context.path,
      context.headersJson ?? JSON.stringify(context.headers),
      context.readOnly ? 'on' : 'off',
      context.timezone ?? '',
      context.clientIp ?? '',
      String(db.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS),
      // A user's token counts only while its session lives and its user is not
      // banned (decision 025): checked in this same statement, so no extra round trip.
      typeof context.claims.session_id === 'string' ? context.claims.session_id : '',
      typeof context.claims.sub === 'string' ? context.claims.sub : '',
    ],
  };
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
  const settings = contextStatement(db, context);
  return db.transaction(async (tx) => {
    await tx.query(settings.sql, [...settings.params]);
    return work(tx);
  });
}

/**
 * The same for statements that do not depend on each other's results: the
 * settings and the statements go to the database together and come back
 * together (one round trip instead of four), still as one transaction.
 */
export async function pipelineInRequestContext(
  db: Database,
  context: RequestContext,
  statements: readonly PipelinedStatement[],
): Promise<QueryResult<Record<string, unknown>>[]> {
  const results = await db.pipeline([contextStatement(db, context), ...statements]);
  return results.slice(1);
}
