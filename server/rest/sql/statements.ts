import type { ReadNode } from '../plan/read-plan';
import { countSql, nodeSql } from './read-sql';
import { ident, qualified, type Params } from './sql';

/**
 * The statements /rest/v1 runs, each returning one row: the page's rows as
 * JSON text (`body`), how many there are (`page_total`), and the total when a
 * count was asked for (`total_result_set`), as PostgREST's main queries do.
 */

export type BodyFormat = 'json' | 'object' | 'csv' | 'none';

export interface BodyOptions {
  format: BodyFormat;
  stripNulls: boolean;
  /** For functions returning a scalar or a set of scalars: the column holding the value. */
  scalar?: 'single' | 'set';
  /** A function returning one composite row (not a set): the body is that object. */
  singleRow?: boolean;
}

export function bodySql(options: BodyOptions): string {
  const strip = (expression: string) =>
    options.stripNulls ? `json_strip_nulls(${expression})` : expression;
  if (options.format === 'none') return `''`;
  if (options.format === 'csv') {
    // The keys of the first row as sent (not of pgrst_source, which may hold more columns
    // than were selected: a mutation's RETURNING, a function's whole result).
    const header = `coalesce((SELECT string_agg(pgrst_key, ',') FROM json_object_keys(json_agg(_postgrest_t)->0) AS pgrst_key), '')`;
    const rows = `coalesce(string_agg(substring(_postgrest_t::text, 2, length(_postgrest_t::text) - 2), E'\\n'), '')`;
    return `${header} || E'\\n' || ${rows}`;
  }
  const aggregate = options.scalar
    ? 'json_agg(_postgrest_t.pgrst_scalar)'
    : 'json_agg(_postgrest_t)';
  if (options.format === 'object' || options.scalar === 'single' || options.singleRow) {
    return `coalesce(${strip(`${aggregate}->0`)}, 'null')::text`;
  }
  return `coalesce(${strip(aggregate)}, '[]')::text`;
}

export interface StatementRow {
  total_result_set: string | number | null;
  page_total: string | number;
  body: string | null;
  inserted?: string | number | null;
  location?: string | null;
}

/** GET/HEAD on a table or view. */
export function readStatement(
  root: ReadNode,
  params: Params,
  body: BodyOptions,
  count: 'exact' | undefined,
): string {
  const from = `${qualified(root.relation.schema, root.relation.name)} AS ${ident(root.alias)}`;
  const main = nodeSql(root, from, params, [], { pageFirst: true });
  const total =
    count === 'exact'
      ? `(SELECT pg_catalog.count(*) FROM (${countSql(root, params, from)}) _pgrst_count)`
      : 'null::bigint';
  return (
    `WITH pgrst_source AS (${main}) ` +
    `SELECT ${total} AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, ${bodySql(body)} AS body ` +
    `FROM (SELECT * FROM pgrst_source) _postgrest_t`
  );
}

/** The query whose plan estimates the row count (`count=planned`). */
export function plannedCountStatement(root: ReadNode, params: Params): string {
  const from = `${qualified(root.relation.schema, root.relation.name)} AS ${ident(root.alias)}`;
  return `EXPLAIN (FORMAT JSON) ${countSql(root, params, from)}`;
}
