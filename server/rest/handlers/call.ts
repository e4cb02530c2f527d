import { readRestBody } from '../body';
import { RestError, restErrors } from '../errors';
import { inRequestPipeline, inRequestTransaction, negotiate, type RestRequest } from '../context';
import { applyRangeHeader, parseQuery } from '../parse/query';
import { planRead, type ReadNode } from '../plan/read-plan';
import { FuzzySet } from '../fuzzy-set';
import {
  qualifiedName,
  type Column,
  type Relation,
  type Routine,
  type RoutineParameter,
} from '../schema-cache';
import { callStatement, returnsScalar, type CallArguments } from '../sql/call-sql';
import { Params } from '../sql/sql';
import type { StatementRow } from '../sql/statements';
import { numberOrUndefined, readResponse } from './read';

/** `/rpc/<function>`: POST with a JSON body, or GET/HEAD with arguments in the query string. */

function requiredAndOptional(routine: Routine) {
  const required = routine.parameters
    .filter((parameter) => !parameter.hasDefault)
    .map((parameter) => parameter.name);
  const optional = routine.parameters
    .filter((parameter) => parameter.hasDefault)
    .map((parameter) => parameter.name);
  return { required, optional };
}

/**
 * PostgREST's schema cache only lists functions it can call: no unnamed
 * parameter, or a single one of type bytea, json, jsonb, text or xml.
 */
function isCallable(routine: Routine): boolean {
  const unnamed = routine.parameters.filter((parameter) => parameter.name === '');
  if (unnamed.length === 0) return true;
  return (
    unnamed.length === 1 && ['bytea', 'json', 'jsonb', 'text', 'xml'].includes(unnamed[0]!.typeName)
  );
}

/** PostgREST's findProc: the overload whose parameters the argument names satisfy. */
function findRoutine(
  request: RestRequest,
  name: string,
  keys: string[],
  options: { isPost: boolean; isJsonBody: boolean },
): Routine {
  const overloads = (request.cache.routines.get(qualifiedName(request.schema, name)) ?? []).filter(
    isCallable,
  );
  const keySet = new Set(keys);
  const matches: Routine[] = [];
  const fallbacks: Routine[] = [];
  for (const routine of overloads) {
    const { required, optional } = requiredAndOptional(routine);
    let isMatch: boolean;
    if (routine.parameters.length === 0) isMatch = keySet.size === 0;
    else if (optional.length === 0)
      isMatch = keySet.size === required.length && required.every((key) => keySet.has(key));
    else if (required.length === 0) isMatch = [...keySet].every((key) => optional.includes(key));
    else {
      const rest = [...keySet].filter((key) => !optional.includes(key));
      isMatch = rest.length === required.length && required.every((key) => rest.includes(key));
    }
    if (isMatch) matches.push(routine);
    else if (
      options.isPost &&
      options.isJsonBody &&
      routine.parameters.length === 1 &&
      routine.parameters[0]!.name === '' &&
      (routine.parameters[0]!.typeName === 'json' || routine.parameters[0]!.typeName === 'jsonb')
    ) {
      fallbacks.push(routine);
    }
  }
  const chosen = matches.length > 0 ? matches : fallbacks;
  if (chosen.length === 1) return chosen[0]!;
  if (chosen.length > 1) {
    throw new RestError(
      300,
      'PGRST203',
      // PostgREST lists them in its cache's order; fewest parameters first, then by type, matches it.
      `Could not choose the best candidate function between: ${[...chosen]
        .sort(
          (a, b) =>
            a.parameters.length - b.parameters.length ||
            a.parameters
              .map((parameter) => parameter.type)
              .join(',')
              .localeCompare(b.parameters.map((parameter) => parameter.type).join(',')),
        )
        .map(
          (routine) =>
            `${routine.schema}.${routine.name}(${routine.parameters.map((parameter) => `${parameter.name} => ${parameter.type}`).join(', ')})`,
        )
        .join(', ')}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    );
  }
  const sortedKeys = [...keys].sort();
  const parameterText =
    sortedKeys.length === 0 ? ' without parameters' : `(${sortedKeys.join(', ')})`;
  const detailParameters =
    sortedKeys.length === 0
      ? ' without parameters'
      : ` with parameter${sortedKeys.length > 1 ? 's' : ''} ${sortedKeys.join(', ')}`;
  const hint = noRpcHint(request, name, sortedKeys, overloads);
  throw new RestError(
    404,
    'PGRST202',
    `Could not find the function ${request.schema}.${name}${parameterText} in the schema cache`,
    `Searched for the function ${request.schema}.${name}${detailParameters}${options.isPost && options.isJsonBody ? ' or with a single unnamed json/jsonb parameter' : ''}, but no matches were found in the schema cache.`,
    hint,
  );
}

/**
 * PostgREST's noRpcHint: without a function of that name, the closest name in
 * the schema (similarity 0.75 or more); with one, the closest of its
 * overloads' parameter lists, written `(a, b)` sorted (0.33 or more).
 */
function noRpcHint(
  request: RestRequest,
  name: string,
  sortedKeys: string[],
  overloads: Routine[],
): string | null {
  const listToText = (names: string[]) => `(${[...names].sort().join(', ')})`;
  let suggestion: string | undefined;
  if (overloads.length === 0) {
    const names = [...request.cache.routines.values()]
      .flat()
      .filter((routine) => routine.schema === request.schema && isCallable(routine))
      .map((routine) => routine.name);
    suggestion = new FuzzySet(names).getOne(name, 0.75);
  } else {
    const lists = overloads.map((routine) =>
      listToText(routine.parameters.map((parameter) => parameter.name)),
    );
    const parameters = new FuzzySet(lists).getOne(listToText(sortedKeys));
    if (parameters !== undefined) suggestion = `${name}${parameters}`;
  }
  return suggestion === undefined
    ? null
    : `Perhaps you meant to call the function ${request.schema}.${suggestion}`;
}

/** The relation a function's rows look like, for select/filter/order/embedding on its result. */
function resultRelation(request: RestRequest, routine: Routine): Relation | undefined {
  if (routine.returnsRelation) {
    return request.cache.relations.get(
      qualifiedName(routine.returnsRelation.schema, routine.returnsRelation.name),
    );
  }
  if (!routine.returnsCompositeWithoutRelation) return undefined;
  const columns = new Map<string, Column>();
  routine.outputs.forEach((output, index) =>
    columns.set(output.name, {
      name: output.name,
      type: output.type,
      typeName: output.typeName,
      typeCategory: '',
      isNullable: true,
      defaultExpression: null,
      isGenerated: false,
      identity: '',
      enumValues: [],
      position: index + 1,
    }),
  );
  return {
    schema: routine.schema,
    name: routine.name,
    kind: 'v',
    isInsertable: false,
    isUpdatable: false,
    isDeletable: false,
    columns,
    primaryKey: [],
    uniqueKeys: [],
    description: null,
  };
}

export async function callRoutine(request: RestRequest, name: string): Promise<Response> {
  const { c } = request;
  const method = c.req.method;
  const isPost = method === 'POST';
  const isRead = method === 'GET' || method === 'HEAD';
  if (!isPost && !isRead) throw restErrors.invalidRpcMethod(method);
  const query = parseQuery(request.search, { isRpcRead: isRead });
  applyRangeHeader(query, c.req.header('range'));
  const params = new Params();

  let routine: Routine;
  let args: CallArguments;
  if (isPost) {
    const raw = await readRestBody(request);
    const body = raw.trim() === '' ? {} : parseJson(raw);
    const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
    const keys = isObject ? Object.keys(body as object) : [];
    // Legacy `params=single-object`: only for a function of one json argument (else as without it).
    const singleJson = request.preferences.singleObject
      ? findSingleJsonRoutine(request, name)
      : undefined;
    if (singleJson) {
      routine = singleJson;
      args = {
        kind: 'single',
        payload: params.add(JSON.stringify(body)),
        type: routine.parameters[0]!.type,
      };
    } else {
      routine = findRoutine(request, name, isObject ? keys : ['__not_an_object__'], {
        isPost: true,
        isJsonBody: true,
      });
      const onlyParameter = routine.parameters[0];
      if (routine.parameters.length === 1 && onlyParameter && onlyParameter.name === '') {
        args = {
          kind: 'single',
          payload: params.add(JSON.stringify(body)),
          type: onlyParameter.type,
        };
      } else {
        const parameters = keys.map((key) =>
          routine.parameters.find((parameter) => parameter.name === key)!,
        );
        args = {
          kind: 'json',
          payload: parameters.length > 0 ? params.add(JSON.stringify(body)) : '',
          parameters,
        };
      }
    }
  } else {
    const keys = query.rpcArguments.map(([key]) => key);
    routine = findRoutine(request, name, keys, { isPost: false, isJsonBody: false });
    const values = query.rpcArguments.map(([key, value]) => ({
      parameter: routine.parameters.find((parameter) => parameter.name === key) as RoutineParameter,
      placeholder: params.add(value),
    }));
    args = { kind: 'text', values };
  }

  const relation = resultRelation(request, routine);
  const { media, stripNulls } = negotiate(request, ['json', 'object', 'csv']);
  let root: ReadNode | undefined;
  if (relation) {
    const maxRows = request.cache.settings?.maxRows;
    root = planRead(request.cache, relation, routine.name, query, maxRows ? { maxRows } : {});
  } else if (query.select.length > 0 || query.filters.length > 0 || query.order.length > 0) {
    // A scalar has no columns to select, filter or order by.
    const field = query.filters[0]?.filter.field.name ?? query.order[0]?.terms[0]?.field.name;
    if (field) throw restErrors.undefinedColumn('pgrst_source', field);
  }
  const scalar = returnsScalar(routine) ? (routine.returnsSet ? 'set' : 'single') : undefined;
  const scalarRange = root ? undefined : query.ranges.find((range) => range.path.length === 0);
  const count = request.preferences.count;
  const sql = callStatement(
    routine,
    args,
    root,
    params,
    {
      format: media,
      stripNulls,
      ...(scalar ? { scalar } : {}),
      singleRow: !routine.returnsSet && !scalar && media === 'json',
    },
    count === 'exact' || count === 'estimated' || count === 'planned' ? 'exact' : undefined,
    scalarRange,
  );
  const readOnly = isRead;
  const { maxAffected, handling } = request.preferences;
  const isStrictlyLimited = maxAffected !== undefined && handling === 'strict';
  const isRolledBack = !readOnly && request.rollsBack;
  if (media !== 'object' && !isStrictlyLimited && !isRolledBack) {
    // Nothing can fail or undo the call after it has run (no singular-object or max-affected
    // check, no rollback asked for): settings and statement go in one round trip, as one
    // transaction, as reads and inserts do.
    const [result] = await inRequestPipeline(request, [{ sql, params: params.values }], {
      readOnly,
    });
    return callResponse(
      request,
      routine.returnsVoid,
      root,
      scalarRange,
      media,
      result!.rows[0] as unknown as StatementRow,
    );
  }
  let row: StatementRow;
  try {
    row = await inRequestTransaction(
      request,
      async (tx) => {
        const result = (await tx.query<StatementRow>(sql, params.values)).rows[0]!;
        const pageTotal = Number(result.page_total);
        // As PostgREST's MainTx: these fail (and undo) the call; tx=rollback undoes it anyway.
        if (media === 'object' && pageTotal !== 1) throw restErrors.singularity(pageTotal);
        if (maxAffected !== undefined && handling === 'strict' && pageTotal > maxAffected)
          throw restErrors.maxAffected(pageTotal);
        if (!readOnly && request.rollsBack) throw new CallRollback(result);
        return result;
      },
      { readOnly },
    );
  } catch (error) {
    if (!(error instanceof CallRollback)) throw error;
    row = error.row;
  }
  return callResponse(request, routine.returnsVoid, root, scalarRange, media, row);
}

function callResponse(
  request: RestRequest,
  returnsVoid: boolean,
  root: ReadNode | undefined,
  scalarRange: { offset?: number } | undefined,
  media: Parameters<typeof readResponse>[3]['media'],
  row: StatementRow,
): Response {
  if (returnsVoid) return new Response(null, { status: 204 });
  const rangeRoot = root ?? ({ offset: scalarRange?.offset ?? 0 } as ReadNode);
  return readResponse(request, rangeRoot, row, {
    media,
    total: numberOrUndefined(row.total_result_set),
  });
}

class CallRollback {
  constructor(readonly row: StatementRow) {}
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw restErrors.invalidBody('Empty or invalid json');
  }
}

function findSingleJsonRoutine(request: RestRequest, name: string): Routine | undefined {
  const overloads = request.cache.routines.get(qualifiedName(request.schema, name)) ?? [];
  return overloads.find(
    (candidate) =>
      candidate.parameters.length === 1 &&
      ['json', 'jsonb'].includes(candidate.parameters[0]!.typeName),
  );
}
