import { RestError, restErrors } from '../errors';
import {
  findRelation,
  inRequestPipeline,
  inRequestTransaction,
  type RestRequest,
} from '../context';
import { appliedPreferences, negotiateMedia } from '../parse/preferences';
import {
  cachedRead,
  fillTemplate,
  filledParams,
  readKey,
  rememberRead,
  sentinelValues,
  templateQuery,
  templateSlots,
  type CachedRead,
} from '../read-cache';
import { applyRangeHeader, parseQuery } from '../parse/query';
import { planRead, type ReadNode } from '../plan/read-plan';
import { CONTENT_TYPES, contentRange, rangeStatus, respond } from '../response';
import { Params } from '../sql/sql';
import { plannedCountStatement, readStatement, type StatementRow } from '../sql/statements';

/** GET and HEAD on a table or view. */
export async function readRelation(request: RestRequest, name: string): Promise<Response> {
  const { media, root, sql, params } = plannedRead(request, name);
  const count = request.preferences.count;

  const { row, planned } =
    count === 'planned'
      ? await inRequestTransaction(
          request,
          async (tx) => {
            const result = await tx.query<StatementRow>(sql, [...params]);
            const countParams = new Params();
            const explained = await tx.query<{ 'QUERY PLAN': unknown }>(
              plannedCountStatement(root, countParams),
              countParams.values,
            );
            return {
              row: result.rows[0]!,
              planned: planRows(explained.rows[0]?.['QUERY PLAN']),
            };
          },
          { readOnly: true },
        )
      : {
          // The common case: settings and the read in one round trip.
          row: (await inRequestPipeline(request, [{ sql, params }], { readOnly: true }))[0]!
            .rows[0] as unknown as StatementRow,
          planned: undefined,
        };
  return readResponse(request, root, row, {
    media,
    total: planned ?? numberOrUndefined(row.total_result_set),
  });
}

/**
 * The read's plan and SQL, kept per request shape (read-cache.ts): by the query
 * string's template when its filter values are plain parameters (a read by id),
 * else by the exact query string.
 */
function plannedRead(request: RestRequest, name: string): CachedRead {
  const { c } = request;
  const accept = request.accept;
  const range = c.req.header('range');
  const shape = {
    method: c.req.method,
    schema: request.schema,
    name,
    role: request.role.role,
    accept,
    range,
    prefer: c.req.header('prefer'),
  };
  const plan = (search: URLSearchParams) => planReadStatement(request, name, search, accept, range);

  // A planned count explains the plan with its values: never shared across values.
  const template =
    request.preferences.count === 'planned' ? undefined : templateQuery(request.rawQuery);
  if (template) {
    const key = readKey({ ...shape, query: template.template });
    const kept = key === undefined ? undefined : cachedRead(request.cache, key);
    if (kept?.slots) return { ...kept, params: filledParams(kept, template.values) };
    if (key !== undefined && kept === undefined) {
      const read = plan(request.search);
      // Planned again with sentinels in place of the values: kept as a template only
      // if they end up as parameters and nowhere else.
      const sentinels = sentinelValues(template.values.length);
      let slots: [number, number][] | undefined;
      try {
        const probe = plan(new URLSearchParams(fillTemplate(template.template, sentinels)));
        slots = templateSlots(
          { sql: read.sql, params: read.params, values: template.values },
          { sql: probe.sql, params: probe.params, values: sentinels },
        );
      } catch {
        slots = undefined;
      }
      // Without slots the entry only says "not a template": the exact query string is kept below.
      rememberRead(request.cache, key, slots ? { ...read, slots } : { ...read, slots: undefined });
      if (slots) return read;
    }
  }

  const key = request.rawQuery.includes('\u0000')
    ? undefined
    : readKey({ ...shape, query: request.rawQuery });
  const hit = key === undefined ? undefined : cachedRead(request.cache, key);
  if (hit) return hit;
  const read = plan(request.search);
  if (key !== undefined) rememberRead(request.cache, key, read);
  return read;
}

function planReadStatement(
  request: RestRequest,
  name: string,
  search: URLSearchParams,
  accept: string | undefined,
  range: string | undefined,
): CachedRead {
  const relation = findRelation(request, name);
  const { media, stripNulls } = negotiateMedia(accept, ['json', 'object', 'csv']);
  const query = parseQuery(search, { isRpcRead: false });
  applyRangeHeader(query, range);
  const maxRows = request.cache.settings?.maxRows;
  const root = planRead(request.cache, relation, relation.name, query, maxRows ? { maxRows } : {});
  const count = request.preferences.count;
  const params = new Params();
  const sql = readStatement(
    root,
    params,
    { format: media, stripNulls },
    count === 'exact' || count === 'estimated' ? 'exact' : undefined,
  );
  return { relation, media, stripNulls, root, sql, params: params.values };
}

export function numberOrUndefined(value: unknown): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

function planRows(plan: unknown): number | undefined {
  const parsed = typeof plan === 'string' ? (JSON.parse(plan) as unknown) : plan;
  const rows = (parsed as [{ Plan?: { 'Plan Rows'?: number } }] | undefined)?.[0]?.Plan?.[
    'Plan Rows'
  ];
  return typeof rows === 'number' ? rows : undefined;
}

/** Status, Content-Range and body of a read (also used by RPC reads). */
export function readResponse(
  request: RestRequest,
  root: ReadNode | undefined,
  row: StatementRow,
  options: { media: 'json' | 'object' | 'csv'; total: number | undefined },
): Response {
  const pageTotal = Number(row.page_total);
  const offset = root?.offset ?? 0;
  if (options.media === 'object' && pageTotal !== 1) throw restErrors.singularity(pageTotal);
  const status = rangeStatus(offset, pageTotal, options.total);
  if (status === 416) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      `An offset of ${offset} was requested, but there are only ${options.total ?? 0} rows.`,
      null,
      { 'Content-Range': `*/${options.total ?? 0}` },
    );
  }
  const preference = appliedPreferences(
    request.preferences.count ? { count: request.preferences.count } : {},
  );
  return respond(request.c, status, row.body ?? '', {
    'Content-Type': CONTENT_TYPES[options.media],
    'Content-Range': contentRange(offset, offset + pageTotal - 1, options.total),
    'Preference-Applied': preference,
  });
}
