import { RestError, restErrors } from '../errors';
import type { ReadRequest } from '../plan/read-plan';
import {
  hasOperator,
  parseColumns,
  parseFilter,
  parseLogic,
  parseOrder,
  parseSelect,
  parseTreePath,
} from './grammar';
import { checkRegexPattern } from './regex-guard';
import type { EmbedPath, Filter, LogicTree } from './types';

/**
 * The query string split as PostgREST splits it: `select`, `columns` and
 * `on_conflict` are reserved; keys ending in `order`, `limit`, `offset`, `and`
 * or `or` apply to their level; anything else is a filter (or, on an RPC read,
 * an argument when it has no operator).
 */

export interface ParsedQuery extends ReadRequest {
  columns?: string[];
  onConflict?: string[];
  /** RPC GET arguments (keys without an operator in their value). */
  rpcArguments: [string, string][];
  /** Whether any limit/offset was given (PUT refuses them). */
  hasRange: boolean;
}

const RESERVED = new Set(['select', 'columns', 'on_conflict']);
const EMBEDDABLE = new Set(['order', 'limit', 'offset', 'and', 'or']);

function lastSegment(key: string): string {
  return key.split('.').at(-1) ?? key;
}

function pathOf(key: string): EmbedPath {
  return key.split('.').slice(0, -1);
}

function nonNegativeInteger(value: string): number | undefined {
  return /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

export function parseQuery(search: URLSearchParams, options: { isRpcRead: boolean }): ParsedQuery {
  const parsed: ParsedQuery = {
    select: [],
    filters: [],
    logic: [],
    order: [],
    ranges: [],
    rpcArguments: [],
    hasRange: false,
  };
  const ranges = new Map<string, { path: EmbedPath; offset?: number; limit?: number }>();
  const rangeFor = (key: string) => {
    const path = pathOf(key);
    const id = path.join('.');
    let range = ranges.get(id);
    if (!range) {
      range = { path };
      ranges.set(id, range);
    }
    return range;
  };

  const select = search.get('select');
  if (select !== null && select !== '') parsed.select = parseSelect(select);
  const columns = search.get('columns');
  if (columns !== null && columns !== '')
    parsed.columns = parseColumns('columns parameter', columns);
  const onConflict = search.get('on_conflict');
  if (onConflict !== null && onConflict !== '')
    parsed.onConflict = parseColumns('on_conflict parameter', onConflict);

  for (const [key, value] of search) {
    if (RESERVED.has(key)) continue;
    const last = lastSegment(key);
    if (EMBEDDABLE.has(last)) {
      if (value === '') continue;
      if (last === 'order') {
        if (pathOf(key).length > 0) parseTreePath(key);
        parsed.order.push({ path: pathOf(key), terms: parseOrder(value) });
      } else if (last === 'limit') {
        const limit = nonNegativeInteger(value);
        if (limit === undefined) {
          if (/^-\d+$/.test(value.trim()))
            throw restErrors.invalidRange('Limit should be greater than or equal to zero.');
          continue; // PostgREST ignores a limit it cannot read
        }
        rangeFor(key).limit = limit;
        parsed.hasRange = true;
      } else if (last === 'offset') {
        const offset = nonNegativeInteger(value);
        if (offset === undefined) continue;
        rangeFor(key).offset = offset;
        parsed.hasRange = true;
      } else {
        parsed.logic.push(parseLogic(key, value));
      }
      continue;
    }
    if (value === '' && !options.isRpcRead) continue;
    if (options.isRpcRead && !hasOperator(value)) {
      parsed.rpcArguments.push([key, value]);
      continue;
    }
    parsed.filters.push(parseFilter(key, value));
  }
  parsed.ranges = [...ranges.values()];
  for (const { filter } of parsed.filters) checkFilterPatterns(filter);
  for (const { tree } of parsed.logic) checkTreePatterns(tree);
  return parsed;
}

/** Regular expressions are checked before any reaches the database (regex-guard.ts). */
function checkFilterPatterns({ operation }: Filter): void {
  if (
    operation.kind === 'quant' &&
    (operation.operator === 'match' || operation.operator === 'imatch')
  ) {
    checkRegexPattern(operation.value, operation.quantifier !== undefined);
  }
}

function checkTreePatterns(tree: LogicTree): void {
  if (tree.kind === 'filter') checkFilterPatterns(tree.filter);
  else tree.children.forEach(checkTreePatterns);
}

/**
 * `Range: 0-9` (items) intersected with the root's limit/offset, as PostgREST
 * does; malformed headers are ignored, an inverted one is refused.
 */
export function applyRangeHeader(query: ParsedQuery, header: string | undefined): void {
  if (!header) return;
  const match = /^(?:items=)?\s*(\d+)-(\d*)\s*$/.exec(header.trim());
  if (!match) return;
  const lower = Number(match[1]);
  const upper = match[2] === '' ? undefined : Number(match[2]);
  if (upper !== undefined && lower > upper) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
    );
  }
  let root = query.ranges.find((range) => range.path.length === 0);
  if (!root) {
    root = { path: [] };
    query.ranges.push(root);
  }
  const paramOffset = root.offset ?? 0;
  const paramEnd =
    root.limit !== undefined ? paramOffset + root.limit - 1 : Number.POSITIVE_INFINITY;
  const offset = Math.max(paramOffset, lower);
  const end = Math.min(paramEnd, upper ?? Number.POSITIVE_INFINITY);
  root.offset = offset;
  if (Number.isFinite(end)) root.limit = Math.max(0, end - offset + 1);
}
