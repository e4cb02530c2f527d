import { readRestBody } from '../body';
import { RestError, restErrors } from '../errors';
import {
  findRelation,
  inRequestPipeline,
  inRequestTransaction,
  negotiate,
  type RestRequest,
} from '../context';
import { appliedPreferences, type Preferences } from '../parse/preferences';
import { parseQuery, type ParsedQuery } from '../parse/query';
import { planRead, type ReadNode } from '../plan/read-plan';
import { CONTENT_TYPES, contentRange, respond } from '../response';
import type { Column, Relation } from '../schema-cache';
import { deleteSql, insertSql, mutationStatement, updateSql } from '../sql/mutate-sql';
import { Params } from '../sql/sql';
import type { BodyFormat, StatementRow } from '../sql/statements';

/** POST (insert, upsert), PATCH (update) and DELETE on a table or view. */

/** The request body as JSON; PostgREST's PGRST102 for anything else (413 past the limit). */
export async function readJsonBody(request: RestRequest): Promise<unknown> {
  const { c } = request;
  const type = (c.req.header('content-type') ?? 'application/json')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type !== 'application/json' && type !== '' && !type.endsWith('+json')) {
    throw new RestError(415, 'PGRST102', `Content-Type not acceptable: ${type}`);
  }
  const text = await readRestBody(request);
  if (text.trim() === '') throw restErrors.invalidBody('Empty or invalid json');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw restErrors.invalidBody('Empty or invalid json');
  }
}

class RollbackSignal {
  constructor(readonly response: Response) {}
}

/** Runs a write; with `Prefer: tx=rollback` its effects are undone after the response is made. */
async function inWriteTransaction(
  request: RestRequest,
  work: (tx: Parameters<Parameters<typeof inRequestTransaction>[1]>[0]) => Promise<Response>,
): Promise<Response> {
  try {
    return await inRequestTransaction(
      request,
      async (tx) => {
        const response = await work(tx);
        if (request.rollsBack) throw new RollbackSignal(response);
        return response;
      },
      { readOnly: false },
    );
  } catch (error) {
    if (error instanceof RollbackSignal) return error.response;
    throw error;
  }
}

function columnsOf(relation: Relation, names: string[]): Column[] {
  return names.map((name) => {
    const column = relation.columns.get(name);
    if (!column) throw restErrors.columnNotFound(relation.name, name);
    return column;
  });
}

function payloadColumns(
  relation: Relation,
  body: unknown,
  query: ParsedQuery,
  options: { isArrayAllowed: boolean },
): { rows: Record<string, unknown>[]; columns: Column[]; isArray: boolean } {
  const isArray = Array.isArray(body);
  if (isArray && !options.isArrayAllowed) throw restErrors.invalidBody('Empty or invalid json');
  const rows = (isArray ? body : [body]) as unknown[];
  if (!rows.every((row) => typeof row === 'object' && row !== null && !Array.isArray(row))) {
    throw restErrors.invalidBody('Empty or invalid json');
  }
  const objects = rows as Record<string, unknown>[];
  let names: string[];
  if (query.columns) {
    names = query.columns;
  } else {
    names = Object.keys(objects[0] ?? {});
    const key = [...names].sort().join('\u0000');
    if (objects.some((row) => Object.keys(row).sort().join('\u0000') !== key)) {
      throw restErrors.invalidBody('All object keys must match');
    }
  }
  return { rows: objects, columns: columnsOf(relation, [...new Set(names)]), isArray };
}

/** `*` expanded to the columns (needed when the mutation returns extra bookkeeping columns). */
function expandStar(root: ReadNode): void {
  const index = root.selects.findIndex((select) => select.field.name === '*');
  if (index === -1) return;
  const columns = [...root.relation.columns.values()].map((column) => ({
    field: { name: column.name, column, jsonPath: [] },
    outputName: column.name,
  }));
  root.selects.splice(index, 1, ...columns);
}

function bodyFormat(preferences: Preferences, media: 'json' | 'object' | 'csv'): BodyFormat {
  // headers-only reads the rows (as JSON, whatever the Accept) only for the Location header.
  if (preferences.representation === 'headers-only') return 'json';
  return preferences.representation === 'representation' ? media : 'none';
}

function maxAffectedCheck(request: RestRequest, affected: number): void {
  const { maxAffected, handling } = request.preferences;
  if (maxAffected !== undefined && handling === 'strict' && affected > maxAffected)
    throw restErrors.maxAffected(affected);
}

function locationOf(relation: Relation, body: string | null): string | undefined {
  if (!body || relation.primaryKey.length === 0) return undefined;
  const rows = JSON.parse(body) as Record<string, unknown>[];
  if (!Array.isArray(rows) || rows.length !== 1) return undefined;
  const query = relation.primaryKey
    .map((key) => {
      const value = rows[0]![key];
      return `${encodeURIComponent(key)}=${value === null || value === undefined ? 'is.null' : `eq.${encodeURIComponent(String(value))}`}`;
    })
    .join('&');
  return `/${relation.name}?${query}`;
}

export async function insertRows(request: RestRequest, name: string): Promise<Response> {
  const relation = findRelation(request, name);
  const { media, stripNulls } = negotiate(request, ['json', 'object', 'csv']);
  const query = parseQuery(request.search, { isRpcRead: false });
  const body = await readJsonBody(request);
  const { columns, isArray } = payloadColumns(relation, body, query, { isArrayAllowed: true });
  const { preferences } = request;
  const isUpsert = preferences.resolution !== undefined;
  const conflictColumns = query.onConflict ?? relation.primaryKey;
  if (query.onConflict) columnsOf(relation, query.onConflict);
  const trackInserted = isUpsert && (relation.kind === 'r' || relation.kind === 'p');
  const root = planRead(request.cache, relation, relation.name, {
    ...query,
    filters: query.filters,
    ranges: [],
  });
  if (trackInserted) expandStar(root);
  const format = bodyFormat(preferences, media);
  const params = new Params();
  const payload = params.add(JSON.stringify(isArray ? body : [body]));
  const mutation = insertSql({
    relation,
    alias: relation.name,
    columns,
    payload,
    missingDefault: preferences.missing === 'default',
    ...(isUpsert && conflictColumns.length > 0
      ? { onConflict: { columns: conflictColumns, resolution: preferences.resolution! } }
      : {}),
    trackInserted,
  });
  const sql = mutationStatement(
    mutation,
    { ...root, where: [] },
    params,
    { format: format === 'none' ? 'none' : format, stripNulls },
    { trackInserted },
  );

  const respondTo = (row: StatementRow): Response => {
    const affected = Number(row.page_total);
    if (media === 'object' && format !== 'none' && affected !== 1)
      throw restErrors.singularity(affected);
    const inserted =
      row.inserted === null || row.inserted === undefined ? undefined : Number(row.inserted);
    const status =
      isUpsert && preferences.resolution === 'merge-duplicates' && inserted === 0 ? 200 : 201;
    const applied = appliedPreferences({
      ...(isUpsert && (relation.primaryKey.length > 0 || query.onConflict)
        ? { resolution: preferences.resolution }
        : {}),
      representation: preferences.representation,
      count: preferences.count,
      transaction: preferences.transaction,
      missing: preferences.missing,
    });
    const headers = {
      'Content-Range': contentRange(1, 0, preferences.count ? affected : undefined),
      'Preference-Applied': applied,
      Location:
        preferences.representation === 'headers-only' ? locationOf(relation, row.body) : undefined,
    };
    if (preferences.representation === 'representation') {
      return respond(request.c, status, row.body, {
        ...headers,
        'Content-Type': CONTENT_TYPES[media],
      });
    }
    return respond(request.c, status, null, headers);
  };

  if (media !== 'object' && !request.rollsBack) {
    // Nothing can undo this insert once it has run (no singular-object check, no rollback
    // asked for): settings and statement go in one round trip, as one transaction.
    const [result] = await inRequestPipeline(request, [{ sql, params: params.values }], {
      readOnly: false,
    });
    return respondTo(result!.rows[0] as unknown as StatementRow);
  }
  return inWriteTransaction(request, async (tx) =>
    respondTo((await tx.query<StatementRow>(sql, params.values)).rows[0]!),
  );
}

export async function updateRows(request: RestRequest, name: string): Promise<Response> {
  const relation = findRelation(request, name);
  const { media, stripNulls } = negotiate(request, ['json', 'object', 'csv']);
  const query = parseQuery(request.search, { isRpcRead: false });
  const body = await readJsonBody(request);
  const { columns } = payloadColumns(relation, body, query, { isArrayAllowed: false });
  const root = planRead(request.cache, relation, relation.name, { ...query, ranges: [] });
  const format = bodyFormat(request.preferences, media);
  const params = new Params();
  // With nothing to set the statement has no body: binding one anyway fails the call (08P01).
  const payload = columns.length > 0 ? params.add(JSON.stringify(body)) : '';
  const mutation = updateSql({
    relation,
    root,
    columns,
    payload,
    missingDefault: request.preferences.missing === 'default',
    params,
    wantsBody: format !== 'none',
  });
  const sql = mutationStatement(
    mutation,
    root,
    params,
    { format, stripNulls },
    { trackInserted: false },
  );
  return writeResponse(request, sql, params, media, format);
}

export async function deleteRows(request: RestRequest, name: string): Promise<Response> {
  const relation = findRelation(request, name);
  const { media, stripNulls } = negotiate(request, ['json', 'object', 'csv']);
  const query = parseQuery(request.search, { isRpcRead: false });
  const root = planRead(request.cache, relation, relation.name, { ...query, ranges: [] });
  const format = bodyFormat(request.preferences, media);
  const params = new Params();
  const mutation = deleteSql(relation, root, params, format !== 'none');
  const sql = mutationStatement(
    mutation,
    root,
    params,
    { format, stripNulls },
    { trackInserted: false },
  );
  return writeResponse(request, sql, params, media, format);
}

async function writeResponse(
  request: RestRequest,
  sql: string,
  params: Params,
  media: 'json' | 'object' | 'csv',
  format: BodyFormat,
): Promise<Response> {
  const { preferences } = request;
  return inWriteTransaction(request, async (tx) => {
    const row = (await tx.query<StatementRow>(sql, params.values)).rows[0]!;
    const affected = Number(row.page_total);
    maxAffectedCheck(request, affected);
    if (media === 'object' && format !== 'none' && affected !== 1)
      throw restErrors.singularity(affected);
    const applied = appliedPreferences({
      representation: preferences.representation,
      count: preferences.count,
      transaction: preferences.transaction,
      ...(request.c.req.method === 'PATCH' ? { missing: preferences.missing } : {}),
      ...(preferences.maxAffected !== undefined && preferences.handling === 'strict'
        ? { handling: 'strict', maxAffected: preferences.maxAffected }
        : {}),
    });
    const range =
      request.c.req.method === 'PATCH'
        ? contentRange(0, affected - 1, preferences.count ? affected : undefined)
        : contentRange(1, 0, preferences.count ? affected : undefined);
    if (preferences.representation === 'representation') {
      return respond(request.c, 200, row.body, {
        'Content-Range': range,
        'Preference-Applied': applied,
        'Content-Type': CONTENT_TYPES[media],
      });
    }
    return respond(request.c, 204, null, { 'Content-Range': range, 'Preference-Applied': applied });
  });
}
