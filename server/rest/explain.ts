import type { QueryResult, Transaction } from '../db/database';

/**
 * `Accept: application/vnd.pgrst.plan` (postgrest-js's explain()): the request's
 * statement is planned instead of run, with `EXPLAIN`, in the same transaction,
 * role, claims and row-level security; the answer is the plan. Only with
 * `pgrst.db_plan_enabled` on (db-settings.ts); without it the media type is not
 * offered and the request ends in PostgREST's 406 PGRST107 as any other. Unlike
 * PostgREST, the transaction is always rolled back: `options=analyze` on a write
 * runs it, and it must not stay (decision 038).
 */

export type PlanFormat = 'json' | 'text';
export const PLAN_OPTIONS = ['analyze', 'verbose', 'settings', 'buffers', 'wal'] as const;
export type PlanOption = (typeof PLAN_OPTIONS)[number];

export interface ExplainRequest {
  format: PlanFormat;
  /** In PostgREST's order, each once; unknown options are ignored as PostgREST ignores them. */
  options: PlanOption[];
  /** The `for` media type (default application/json): the response the plan is of. */
  forMedia: string;
  /** The response's Content-Type, as PostgREST's toMime prints it. */
  contentType: string;
}

/** Longer Accept headers are not searched for a plan type (a browser's is ~200 characters). */
const MAX_ACCEPT = 4096;

/** `a=b; c="d;e"` media-type parameters, names lower-cased, quoted values unquoted. */
function mediaParameters(text: string): Map<string, string> {
  const parameters = new Map<string, string>();
  const pattern = /;\s*([^=;\s]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (const match of text.matchAll(pattern)) {
    const name = match[1]!.toLowerCase();
    let value = match[2]!.trim();
    if (value.startsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    if (!parameters.has(name)) parameters.set(name, value);
  }
  return parameters;
}

/** Splits an Accept header at the commas outside quotes. */
function acceptEntries(accept: string): string[] {
  return (accept.match(/(?:[^,"]|"(?:[^"\\]|\\.)*")+/g) ?? [])
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * The plan PostgREST would produce for this Accept header: its first entry
 * names a plan type and plans are enabled. Otherwise undefined (the request is
 * negotiated as usual, which answers 406 for a plan type alone).
 */
export function explainRequest(
  accept: string | undefined,
  planEnabled: boolean,
): ExplainRequest | undefined {
  if (!planEnabled || accept === undefined || accept.length > MAX_ACCEPT) return undefined;
  const first = acceptEntries(accept)[0];
  if (first === undefined) return undefined;
  const type = first.split(';')[0]!.trim().toLowerCase();
  let format: PlanFormat;
  if (type === 'application/vnd.pgrst.plan' || type === 'application/vnd.pgrst.plan+text')
    format = 'text';
  else if (type === 'application/vnd.pgrst.plan+json') format = 'json';
  else return undefined;
  const parameters = mediaParameters(first.slice(first.split(';')[0]!.length));
  const requested = (parameters.get('options') ?? '').split('|');
  const options = PLAN_OPTIONS.filter((option) => requested.includes(option));
  const forMedia = parameters.get('for') || 'application/json';
  // Printed back only when it is a plain type/subtype (it is echoed in a header).
  const forMime = /^[\w.+*-]{1,100}\/[\w.+*-]{1,100}$/.test(forMedia.split(';')[0]!.trim())
    ? forMedia.split(';')[0]!.trim().toLowerCase()
    : 'application/json';
  return {
    format,
    options,
    forMedia,
    contentType:
      `application/vnd.pgrst.plan+${format}; for="${forMime}"` +
      (options.length > 0 ? `; options=${options.join('|')}` : '') +
      '; charset=utf-8',
  };
}

export function explainStatement(explain: ExplainRequest, sql: string): string {
  const options = [
    `FORMAT ${explain.format.toUpperCase()}`,
    ...explain.options.map((option) => option.toUpperCase()),
  ];
  return `EXPLAIN (${options.join(', ')}) ${sql}`;
}

/** Thrown out of the request's transaction (rolling it back) with the plan's text. */
export class ExplainResult {
  constructor(
    readonly body: string,
    readonly contentType: string,
  ) {}
}

function planBody(explain: ExplainRequest, result: QueryResult<Record<string, unknown>>): string {
  const values = result.rows.map((row) => row['QUERY PLAN']);
  if (explain.format === 'json') {
    const value = values[0];
    return typeof value === 'string' ? value : JSON.stringify(value);
  }
  return values.map((value) => `${String(value)}\n`).join('');
}

/**
 * A verbose plan names its "Query Identifier" on Supabase, whose database loads
 * pg_stat_statements (`compute_query_id` on). It is a superuser's setting, so it
 * is set for this transaction as the session's user, and the request's role is
 * taken back at once; where the session's user may not set it, the plan simply
 * has no identifier.
 */
async function withQueryIdentifier(tx: Transaction): Promise<void> {
  await tx.query(
    `do $$
     declare requester text := current_user;
     begin
       reset role;
       begin
         perform set_config('compute_query_id', 'on', true);
       exception when insufficient_privilege then null;
       end;
       execute format('set local role %I', requester);
     end
     $$`,
  );
}

/** Explains the statement in `tx`, then rolls the transaction back with the plan. */
export async function explainIn(
  tx: Transaction,
  explain: ExplainRequest,
  sql: string,
  params: unknown[],
): Promise<never> {
  if (explain.options.includes('verbose')) await withQueryIdentifier(tx);
  const result = await tx.query<Record<string, unknown>>(explainStatement(explain, sql), params);
  throw new ExplainResult(planBody(explain, result), explain.contentType);
}

/**
 * `tx` whose first statement is explained instead of run (the handlers' first
 * statement is the request's own); it throws ExplainResult, rolling back.
 */
export function explainingTransaction(tx: Transaction, explain: ExplainRequest): Transaction {
  return {
    query: ((sql: string, params?: unknown[]) =>
      explainIn(tx, explain, sql, params ?? [])) as Transaction['query'],
    exec: () => Promise.reject(new Error('explain: unexpected script before the statement')),
  };
}
