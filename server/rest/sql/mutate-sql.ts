import type { ReadNode } from '../plan/read-plan';
import type { Column, Relation } from '../schema-cache';
import { logicSql, nodeSql } from './read-sql';
import { ident, literal, qualified, type Params } from './sql';
import { bodySql, type BodyOptions } from './statements';

/**
 * INSERT, UPDATE and DELETE as PostgREST writes them: the JSON body is bound
 * once and turned into typed rows by json_to_recordset with the columns' own
 * types, so PostgreSQL does every conversion; the changed rows feed the same
 * read query (select, embeds) as a GET.
 */

/** `FROM (SELECT $1::json …) pgrst_payload, LATERAL (… json_to_recordset …) pgrst_body`. */
function bodySource(
  columns: Column[],
  payload: string,
  options: { isArray: boolean; missingDefault: boolean },
): string {
  const typed = columns.map((column) => `${ident(column.name)} ${column.type}`).join(', ');
  const names = columns.map((column) => ident(column.name)).join(', ');
  const withDefaults = options.missingDefault
    ? columns.filter((column) => column.defaultExpression)
    : [];
  const defaults =
    withDefaults.length > 0
      ? `jsonb_build_object(${withDefaults.map((column) => `${literal(column.name)}, ${column.defaultExpression}`).join(', ')})`
      : undefined;
  const source = defaults
    ? options.isArray
      ? `LATERAL (SELECT jsonb_agg(${defaults} || elem)::json AS val FROM jsonb_array_elements(pgrst_payload.json_data::jsonb) elem) pgrst_json_defs, `
      : `LATERAL (SELECT (${defaults} || pgrst_payload.json_data::jsonb)::json AS val) pgrst_json_defs, `
    : '';
  const data = defaults ? 'pgrst_json_defs.val' : 'pgrst_payload.json_data';
  const rows =
    columns.length === 0
      ? options.isArray
        ? `json_array_elements(${data}) _`
        : '(VALUES (1)) _'
      : `${options.isArray ? 'json_to_recordset' : 'json_to_record'}(${data}) AS _(${typed})`;
  return `FROM (SELECT ${payload}::json AS json_data) pgrst_payload, ${source}LATERAL (SELECT ${columns.length > 0 ? names : ''} FROM ${rows}) pgrst_body`;
}

export interface InsertOptions {
  relation: Relation;
  alias: string;
  columns: Column[];
  payload: string;
  missingDefault: boolean;
  onConflict?: { columns: string[]; resolution: 'merge-duplicates' | 'ignore-duplicates' };
  /** Report which rows were inserted rather than merged (tables only). */
  trackInserted: boolean;
}

export function insertSql(options: InsertOptions): string {
  const target = `${qualified(options.relation.schema, options.relation.name)} AS ${ident(options.alias)}`;
  const columnList =
    options.columns.length > 0
      ? ` (${options.columns.map((column) => ident(column.name)).join(', ')})`
      : '';
  const values = options.columns.map((column) => `pgrst_body.${ident(column.name)}`).join(', ');
  let conflict = '';
  if (options.onConflict && options.onConflict.columns.length > 0) {
    const targetColumns = options.onConflict.columns.map(ident).join(', ');
    conflict =
      options.onConflict.resolution === 'ignore-duplicates' || options.columns.length === 0
        ? ` ON CONFLICT (${targetColumns}) DO NOTHING`
        : ` ON CONFLICT (${targetColumns}) DO UPDATE SET ${options.columns.map((column) => `${ident(column.name)} = EXCLUDED.${ident(column.name)}`).join(', ')}`;
  }
  const returning = options.trackInserted
    ? ` RETURNING ${ident(options.alias)}.*, (${ident(options.alias)}.xmax = 0) AS pgrst_inserted`
    : ` RETURNING ${ident(options.alias)}.*`;
  return (
    `INSERT INTO ${target}${columnList} SELECT ${values} ` +
    bodySource(options.columns, options.payload, {
      isArray: true,
      missingDefault: options.missingDefault,
    }) +
    conflict +
    returning
  );
}

/**
 * What an UPDATE or DELETE returns: PostgreSQL checks SELECT on every column a
 * RETURNING names, so, as PostgREST does, only what the response reads: `1`
 * when no body is wanted, the selected columns when they are plain columns of
 * the table, and the whole row otherwise (`*`, embeds, computed fields).
 * A role that may update a table but not read all its columns can then still
 * write to it.
 */
function returningList(root: ReadNode, wantsBody: boolean): string {
  if (!wantsBody) return '1';
  const isPlain =
    root.embeds.length === 0 &&
    root.selects.length > 0 &&
    root.selects.every((select) => select.field.column && select.field.name !== '*');
  if (!isPlain) return `${ident(root.alias)}.*`;
  const names = [...new Set(root.selects.map((select) => select.field.name))];
  return names.map((name) => `${ident(root.alias)}.${ident(name)}`).join(', ');
}

export function updateSql(options: {
  relation: Relation;
  root: ReadNode;
  columns: Column[];
  payload: string;
  missingDefault: boolean;
  params: Params;
  wantsBody: boolean;
}): string {
  const { relation, root, columns } = options;
  const target = `${qualified(relation.schema, relation.name)} AS ${ident(root.alias)}`;
  if (columns.length === 0) {
    // Nothing to set: PostgREST answers as if no row matched.
    return `SELECT ${ident(root.alias)}.* FROM ${target} WHERE false`;
  }
  const assignments = columns
    .map((column) => `${ident(column.name)} = pgrst_body.${ident(column.name)}`)
    .join(', ');
  const conditions = root.where.map((logic) => logicSql(root, logic, options.params));
  return (
    `UPDATE ${target} SET ${assignments} ` +
    bodySource(columns, options.payload, {
      isArray: false,
      missingDefault: options.missingDefault,
    }) +
    (conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '') +
    ` RETURNING ${returningList(root, options.wantsBody)}`
  );
}

export function deleteSql(
  relation: Relation,
  root: ReadNode,
  params: Params,
  wantsBody: boolean,
): string {
  const conditions = root.where.map((logic) => logicSql(root, logic, params));
  return (
    `DELETE FROM ${qualified(relation.schema, relation.name)} AS ${ident(root.alias)}` +
    (conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '') +
    ` RETURNING ${returningList(root, wantsBody)}`
  );
}

/** Wraps a mutation: its returned rows go through the read plan (select, embeds) into the body. */
export function mutationStatement(
  mutation: string,
  root: ReadNode,
  params: Params,
  body: BodyOptions,
  options: { trackInserted: boolean },
): string {
  // The root's filters were applied by the mutation itself.
  const outer = nodeSql(
    { ...root, where: [], order: [], offset: 0, limit: undefined },
    `pgrst_source AS ${ident(root.alias)}`,
    params,
  );
  const inserted = options.trackInserted
    ? `(SELECT pg_catalog.count(*) FROM pgrst_source WHERE pgrst_inserted)`
    : 'null::bigint';
  return (
    `WITH pgrst_source AS (${mutation}) ` +
    `SELECT '' AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, ${bodySql(body)} AS body, ${inserted} AS inserted ` +
    `FROM (${body.format === 'none' ? 'SELECT * FROM pgrst_source' : outer}) _postgrest_t`
  );
}
