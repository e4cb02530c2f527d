import { clientIp, type TrustProxy } from '../http/client-ip';
import { sqlHeadersJson } from '../http/sql-headers';
import type { Context } from 'hono';
import type { Database, PipelinedStatement, QueryResult, Transaction } from '../db/database';
import {
  pipelineInRequestContext,
  withRequestContext,
  type RequestContext,
} from '../db/request-context';
import type { KeyRing } from '../keys/key-ring';
import type { Logger } from '../logger';
import { RestError, restErrors } from './errors';
import {
  negotiateMedia,
  parsePreferences,
  type Negotiated,
  type Preferences,
  type ResponseMedia,
} from './parse/preferences';
import { explainIn, explainingTransaction, explainRequest, type ExplainRequest } from './explain';
import { closest } from './relationships';
import { ident } from './sql/sql';
import { requestRole, type RequestRole } from './request-role';
import { qualifiedName, type Relation, type SchemaCache } from './schema-cache';

/** What every /rest/v1 handler receives. */
export interface RestDependencies {
  db: Database;
  ring: KeyRing;
  logger: Logger;
  /** The exposed schemas, the first being the default (PostgREST's db-schemas). */
  schemas: string[];
  trustProxy: TrustProxy;
  schemaCache(): Promise<SchemaCache>;
}

export interface RestRequest {
  c: Context;
  deps: RestDependencies;
  cache: SchemaCache;
  schema: string;
  role: RequestRole;
  preferences: Preferences;
  /** The Accept header to negotiate with: as sent, or an explained request's `for` type. */
  accept: string | undefined;
  /** `Accept: application/vnd.pgrst.plan…` with plans enabled: the statement is explained. */
  explain: ExplainRequest | undefined;
  /**
   * Whether a write's transaction ends in ROLLBACK: `Prefer: tx=rollback` where
   * `pgrst.db_tx_end` lets the client choose, or `rollback…` without `tx=commit`.
   */
  rollsBack: boolean;
  /** The query string as sent (after `?`, empty without one). */
  rawQuery: string;
  /** The parsed query string (parsed on first use: a cached read never needs it). */
  readonly search: URLSearchParams;
}

/** The request's schema: `Accept-Profile` (reads) or `Content-Profile` (writes), else the default. */
export function requestSchema(c: Context, schemas: string[]): string {
  const isRead = c.req.method === 'GET' || c.req.method === 'HEAD';
  const requested = c.req.header(isRead ? 'accept-profile' : 'content-profile');
  if (requested === undefined || requested === '') return schemas[0]!;
  if (!schemas.includes(requested)) throw restErrors.unacceptableSchema(requested, schemas);
  return requested;
}

const authenticatedRequests = new WeakSet<Request>();

/** Whether the request ran as a signed-in role (PostgREST answers 42501 with 403 then, else 401). */
export function isAuthenticatedRequest(request: Request): boolean {
  return authenticatedRequests.has(request);
}

export async function prepareRequest(c: Context, deps: RestDependencies): Promise<RestRequest> {
  const role = await requestRole(c, deps.ring);
  if (role.isAuthenticated) authenticatedRequests.add(c.req.raw);
  const schema = requestSchema(c, deps.schemas);
  const preferences = parsePreferences(c.req.header('prefer'));
  const cache = await deps.schemaCache();
  // PostgREST's db-tx-end: without "-allow-override", `Prefer: tx=` is ignored (and not applied).
  const txEnd = cache.settings?.txEnd ?? 'commit-allow-override';
  if (!txEnd.endsWith('-allow-override')) delete preferences.transaction;
  const rollsBack =
    preferences.transaction === 'rollback' ||
    (txEnd.startsWith('rollback') && preferences.transaction !== 'commit');
  const accept = c.req.header('accept');
  const explain = explainRequest(accept, cache.settings?.planEnabled ?? false);
  const url = c.req.url;
  const queryStart = url.indexOf('?');
  let search: URLSearchParams | undefined;
  return {
    c,
    deps,
    cache,
    schema,
    role,
    preferences,
    accept: explain ? explain.forMedia : accept,
    explain,
    rollsBack,
    rawQuery: queryStart === -1 ? '' : url.slice(queryStart + 1),
    get search() {
      search ??= new URL(url).searchParams;
      return search;
    },
  };
}

export function findRelation(request: RestRequest, name: string): Relation {
  const relation = request.cache.relations.get(qualifiedName(request.schema, name));
  if (relation) return relation;
  const suggestion = closest(
    [...request.cache.relations.values()]
      .filter((candidate) => candidate.schema === request.schema)
      .map((candidate) => candidate.name),
    name,
  );
  throw new RestError(
    404,
    'PGRST205',
    `Could not find the table '${request.schema}.${name}' in the schema cache`,
    null,
    suggestion ? `Perhaps you meant the table '${request.schema}.${suggestion}'` : null,
  );
}

export function negotiate<Media extends ResponseMedia>(
  request: RestRequest,
  allowed: Media[],
): Negotiated<Media> {
  return negotiateMedia(request.accept, allowed);
}

/**
 * PostgREST sets `search_path` to the request's schema, then `db-extra-search-path`, each
 * quoted and joined by ", "; Supabase configures that extra path as `public, extensions`.
 * So `"api", "public", "extensions"`: an exposed schema's function may call `public`'s
 * unqualified, as on Supabase, and explain()'s Settings show the same value.
 */
const SEARCH_PATH_AFTER_SCHEMA = ['public', 'extensions'];

function requestContext(request: RestRequest, readOnly: boolean): RequestContext {
  const { c } = request;
  const address = clientIp(c, request.deps.trustProxy);
  return {
    role: request.role.role,
    claims: request.role.claims,
    method: c.req.method,
    path: new URL(c.req.url).pathname.replace(/^\/rest\/v1/, '') || '/',
    headersJson: sqlHeadersJson(c, address),
    clientIp: address,
    headers: {},
    readOnly,
    searchPath: [request.schema, ...SEARCH_PATH_AFTER_SCHEMA].map(ident).join(', '),
    ...(request.preferences.timezone ? { timezone: request.preferences.timezone } : {}),
  };
}

/**
 * PostgREST's db-pre-request: `select <function>()` after the request's settings,
 * before its statement, in its transaction (it may raise to refuse the request).
 */
function preRequestStatement(request: RestRequest): PipelinedStatement | undefined {
  const name = request.cache.settings?.preRequest;
  if (name === undefined) return undefined;
  return { sql: `select ${name.split('.').map(ident).join('.')}()`, params: [] };
}

/** Runs `work` in the request's transaction, as its role with its claims (contract §6.3). */
export function inRequestTransaction<T>(
  request: RestRequest,
  work: (tx: Transaction) => Promise<T>,
  options: { readOnly: boolean },
): Promise<T> {
  const { explain } = request;
  const preRequest = preRequestStatement(request);
  return withRequestContext(
    request.deps.db,
    requestContext(request, options.readOnly),
    async (tx) => {
      if (preRequest) await tx.query(preRequest.sql, []);
      return work(explain ? explainingTransaction(tx, explain) : tx);
    },
  );
}

/**
 * Runs independent statements in the request's transaction in one round trip
 * (the settings go first in the same pipeline); their results, in order.
 */
export async function inRequestPipeline(
  request: RestRequest,
  statements: readonly PipelinedStatement[],
  options: { readOnly: boolean },
): Promise<QueryResult<Record<string, unknown>>[]> {
  const { explain } = request;
  const [first] = statements;
  const preRequest = preRequestStatement(request);
  if (explain && first) {
    // In a transaction of its own, rolled back by the plan it throws.
    return withRequestContext(
      request.deps.db,
      requestContext(request, options.readOnly),
      async (tx) => {
        if (preRequest) await tx.query(preRequest.sql, []);
        return explainIn(tx, explain, first.sql, [...first.params]);
      },
    );
  }
  const results = await pipelineInRequestContext(
    request.deps.db,
    requestContext(request, options.readOnly),
    preRequest ? [preRequest, ...statements] : statements,
  );
  return preRequest ? results.slice(1) : results;
}
