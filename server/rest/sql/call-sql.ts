import type { ReadNode } from '../plan/read-plan';
import type { Routine, RoutineParameter } from '../schema-cache';
import { countSql, nodeSql } from './read-sql';
import { ident, qualified, type Params } from './sql';
import { bodySql, type BodyOptions } from './statements';

/**
 * Function calls (`/rpc/<name>`): arguments by name, typed by PostgreSQL from
 * the JSON body (json_to_record with the parameters' types) or from the query
 * string; the result is read like a table (select, filters, order, limit).
 */

export type CallArguments =
  | { kind: 'json'; payload: string; parameters: RoutineParameter[] }
  | { kind: 'single'; payload: string; type: string }
  | { kind: 'text'; values: { parameter: RoutineParameter; placeholder: string }[] };

export function returnsScalar(routine: Routine): boolean {
  return !routine.returnsRelation && !routine.returnsCompositeWithoutRelation;
}

export function callSql(routine: Routine, args: CallArguments): string {
  const fn = qualified(routine.schema, routine.name);
  const prefix = (parameter: RoutineParameter) => (parameter.isVariadic ? 'VARIADIC ' : '');
  let from = '';
  let argumentList = '';
  switch (args.kind) {
    case 'json': {
      if (args.parameters.length > 0) {
        const typed = args.parameters
          .map((parameter) => `${ident(parameter.name)} ${parameter.type}`)
          .join(', ');
        const names = args.parameters.map((parameter) => ident(parameter.name)).join(', ');
        from = `(SELECT ${args.payload}::json AS json_data) pgrst_payload, LATERAL (SELECT ${names} FROM json_to_record(pgrst_payload.json_data) AS _(${typed}) LIMIT 1) pgrst_body, `;
        argumentList = args.parameters
          .map(
            (parameter) =>
              `${prefix(parameter)}${ident(parameter.name)} := pgrst_body.${ident(parameter.name)}`,
          )
          .join(', ');
      }
      break;
    }
    case 'single':
      argumentList = `${args.payload}::${args.type}`;
      break;
    case 'text':
      argumentList = args.values
        .map(
          ({ parameter, placeholder }) =>
            `${prefix(parameter)}${ident(parameter.name)} := ${placeholder}::${parameter.type}`,
        )
        .join(', ');
      break;
  }
  const call = `${fn}(${argumentList})`;
  // OFFSET 0 keeps the call in its own subquery: pulled up into the statement,
  // a stable function's call would be copied into each aggregate that reads the
  // result (the row count and the body) and run twice.
  if (returnsScalar(routine))
    return `SELECT pgrst_call.pgrst_scalar FROM ${from}LATERAL (SELECT ${call} pgrst_scalar OFFSET 0) pgrst_call`;
  return `SELECT pgrst_call.* FROM ${from}LATERAL ${call} pgrst_call`;
}

/**
 * The whole RPC statement; scalar results skip the read plan but are still
 * paged (`scalarRange`: limit/offset or the Range header), as PostgREST does.
 */
export function callStatement(
  routine: Routine,
  args: CallArguments,
  root: ReadNode | undefined,
  params: Params,
  body: BodyOptions,
  count: 'exact' | undefined,
  scalarRange: { offset?: number; limit?: number } = {},
): string {
  const call = callSql(routine, args);
  const limit =
    scalarRange.limit !== undefined
      ? ` LIMIT ${params.add(String(scalarRange.limit))}::bigint`
      : '';
  const offset = scalarRange.offset
    ? ` OFFSET ${params.add(String(scalarRange.offset))}::bigint`
    : '';
  const source = root
    ? nodeSql(root, `pgrst_source AS ${ident(root.alias)}`, params)
    : `SELECT * FROM pgrst_source${limit}${offset}`;
  const total =
    count === 'exact'
      ? root
        ? `(SELECT pg_catalog.count(*) FROM (${countSql(root, params, `pgrst_source AS ${ident(root.alias)}`)}) _pgrst_count)`
        : '(SELECT pg_catalog.count(*) FROM pgrst_source)'
      : 'null::bigint';
  return (
    `WITH pgrst_source AS (${call}) ` +
    `SELECT ${total} AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, ${bodySql(body)} AS body ` +
    `FROM (${source}) _postgrest_t`
  );
}
