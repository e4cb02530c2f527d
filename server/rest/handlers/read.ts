import { RestError, restErrors } from '../errors';
import {
  findRelation,
  inRequestPipeline,
  inRequestTransaction,
  negotiate,
  type RestRequest,
} from '../context';
import { appliedPreferences } from '../parse/preferences';
import { applyRangeHeader, parseQuery } from '../parse/query';
import { planRead, type ReadNode } from '../plan/read-plan';
import { CONTENT_TYPES, contentRange, rangeStatus, respond } from '../response';
import { Params } from '../sql/sql';
import { plannedCountStatement, readStatement, type StatementRow } from '../sql/statements';

/** GET and HEAD on a table or view. */
export async function readRelation(request: RestRequest, name: string): Promise<Response> {
  const relation = findRelation(request, name);
  const { media, stripNulls } = negotiate(request, ['json', 'object', 'csv']);
  const query = parseQuery(request.search, { isRpcRead: false });
  applyRangeHeader(query, request.c.req.header('range'));
  const root = planRead(request.cache, relation, relation.name, query);
  const count = request.preferences.count;
  const params = new Params();
  const sql = readStatement(
    root,
    params,
    { format: media, stripNulls },
    count === 'exact' || count === 'estimated' ? 'exact' : undefined,
  );

  const { row, planned } =
    count === 'planned'
      ? await inRequestTransaction(
          request,
          async (tx) => {
            const result = await tx.query<StatementRow>(sql, params.values);
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
          row: (
            await inRequestPipeline(request, [{ sql, params: params.values }], { readOnly: true })
          )[0]!.rows[0] as unknown as StatementRow,
          planned: undefined,
        };
  return readResponse(request, root, row, {
    media,
    total: planned ?? numberOrUndefined(row.total_result_set),
  });
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
