import { RestError, restErrors } from '../errors';
import type {
  AggregateFunction,
  EmbedPath,
  Field,
  Filter,
  LogicTree,
  OrderTerm,
  SelectItem,
} from '../parse/types';
import { findRelationship, isToOne, type Relationship } from '../relationships';
import {
  qualifiedName,
  type Column,
  type Relation,
  type Routine,
  type SchemaCache,
} from '../schema-cache';

/**
 * The read plan: the parsed request resolved against the schema cache. Every
 * name in it is a column, computed field or relationship that exists; what
 * does not exist is refused here, before any SQL is written.
 */

export interface ResolvedField {
  /** The column name, `*`, or a computed field's function name. */
  name: string;
  column?: Column;
  /** A function taking the row (a "computed field"), called as `fn(row)`. */
  computed?: Routine;
  jsonPath: Field['jsonPath'];
}

export interface PlannedSelect {
  field: ResolvedField;
  /** The output key; undefined for `*`. */
  outputName?: string;
  cast?: string;
  /** `col.sum()`, `count()`: the level's rows are grouped by its other selected fields. */
  aggregate?: AggregateFunction;
  aggregateCast?: string;
}

export type PlannedFilter =
  | { kind: 'filter'; field: ResolvedField; negated: boolean; operation: Filter['operation'] }
  | { kind: 'embed-null'; embed: EmbedNode; isNull: boolean };

export type PlannedLogic =
  | { kind: 'expression'; negated: boolean; operator: 'and' | 'or'; children: PlannedLogic[] }
  | { kind: 'statement'; filter: PlannedFilter };

export interface PlannedOrder {
  /** A to-one embed whose column orders the parent. */
  embed?: EmbedNode;
  field: ResolvedField;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

export interface ReadNode {
  relation: Relation;
  /** The SQL alias of this level's FROM. */
  alias: string;
  selects: PlannedSelect[];
  embeds: EmbedNode[];
  where: PlannedLogic[];
  order: PlannedOrder[];
  offset: number;
  limit: number | undefined;
  depth: number;
}

export interface EmbedNode extends ReadNode {
  /** The output key (alias or relation name). */
  name: string;
  /** How filters, orders and limits address it: its alias if it has one, else its name. */
  pathName: string;
  relationship: Relationship;
  /** The alias of the lateral join that carries its JSON. */
  joinAlias: string;
  joinType: 'inner' | 'left' | undefined;
  isSpread: boolean;
  isToOne: boolean;
  parent: ReadNode;
}

export interface ReadRequest {
  select: SelectItem[];
  filters: { path: EmbedPath; filter: Filter }[];
  logic: { path: EmbedPath; tree: LogicTree }[];
  order: { path: EmbedPath; terms: OrderTerm[] }[];
  ranges: { path: EmbedPath; offset?: number; limit?: number }[];
}

function computedField(cache: SchemaCache, relation: Relation, name: string): Routine | undefined {
  const candidates = cache.routines.get(qualifiedName(relation.schema, name)) ?? [];
  return candidates.find(
    (routine) =>
      routine.parameters.length >= 1 &&
      routine.parameters.filter((parameter) => !parameter.hasDefault).length <= 1 &&
      (routine.parameters[0]!.type === relation.name ||
        routine.parameters[0]!.type === `${relation.schema}.${relation.name}`) &&
      !routine.returnsSet,
  );
}

export function resolveField(
  cache: SchemaCache,
  relation: Relation,
  field: Field,
  alias: string = relation.name,
): ResolvedField {
  if (field.name === '*') return { name: '*', jsonPath: [] };
  const column = relation.columns.get(field.name);
  if (column) return { name: field.name, column, jsonPath: field.jsonPath };
  const computed = computedField(cache, relation, field.name);
  if (computed) return { name: field.name, computed, jsonPath: field.jsonPath };
  // PostgreSQL names the missing column after the FROM alias (`messages_1.x`), so do we.
  throw restErrors.undefinedColumn(alias, field.name);
}

/** PostgREST names a JSON path result after its last key. */
function defaultOutputName(field: ResolvedField): string {
  const last = field.jsonPath.at(-1);
  if (last?.operand.kind === 'key') return last.operand.key;
  return field.name;
}

function newNode(relation: Relation, alias: string, depth: number): ReadNode {
  return {
    relation,
    alias,
    selects: [],
    embeds: [],
    where: [],
    order: [],
    offset: 0,
    limit: undefined,
    depth,
  };
}

function planSelect(
  cache: SchemaCache,
  node: ReadNode,
  items: SelectItem[],
  options: { aggregatesEnabled: boolean },
): void {
  for (const item of items) {
    if (item.kind === 'field') {
      if (item.aggregate && !options.aggregatesEnabled) throw restErrors.aggregatesNotAllowed();
      if (
        !item.aggregate &&
        item.field.name === 'count' &&
        item.field.jsonPath.length === 0 &&
        !node.relation.columns.has('count') &&
        !computedField(cache, node.relation, 'count')
      ) {
        // PostgREST writes `alias.count`, which PostgreSQL reads as count(alias): `rel(count)`.
        node.selects.push({
          field: { name: '*', jsonPath: [] },
          outputName: item.alias ?? 'count',
          aggregate: 'count',
          ...(item.cast ? { aggregateCast: item.cast } : {}),
        });
        continue;
      }
      const field = resolveField(
        cache,
        node.relation,
        item.field,
        node.depth === 0 ? node.relation.name : node.alias,
      );
      node.selects.push({
        field,
        ...(field.name === '*' && !item.aggregate
          ? {}
          : {
              outputName:
                item.alias ?? (item.aggregate ? item.aggregate : defaultOutputName(field)),
            }),
        ...(item.cast ? { cast: item.cast } : {}),
        ...(item.aggregate ? { aggregate: item.aggregate } : {}),
        ...(item.aggregateCast ? { aggregateCast: item.aggregateCast } : {}),
      });
      continue;
    }
    const relationship = findRelationship(cache, node.relation, item.name, item.hint);
    const depth = node.depth + 1;
    const name = item.alias ?? item.name;
    const toOne = isToOne(relationship);
    const embed: EmbedNode = {
      ...newNode(relationship.target, `${relationship.target.name}_${depth}`, depth),
      name,
      pathName: name,
      relationship,
      joinAlias: `${node.relation.name}_${name}_${depth}`,
      joinType: item.joinType,
      isSpread: item.kind === 'spread',
      isToOne: toOne,
      parent: node,
    };
    const children = item.children.length > 0 ? item.children : [];
    planSelect(cache, embed, children, options);
    // PostgREST 13: a to-many spread hands each column up as an array; aggregates there are not implemented.
    if (embed.isSpread && !toOne && hasAggregates(embed)) {
      throw restErrors.notImplemented(
        'Aggregates are not implemented for one-to-many or many-to-many spreads.',
      );
    }
    node.embeds.push(embed);
  }
}

/**
 * Whether a level aggregates: in its own select, or through a to-one spread
 * below it, whose aggregates are applied at this level (PostgREST's spread
 * aggregates: `select=...customers(count())` counts the parent's rows).
 */
export function hasAggregates(node: ReadNode): boolean {
  return (
    node.selects.some((select) => select.aggregate) ||
    node.embeds.some(
      (embed) => embed.isSpread && embed.isToOne && embed.selects.some((s) => s.aggregate),
    )
  );
}

function findNode(root: ReadNode, path: EmbedPath): ReadNode {
  let node = root;
  for (const segment of path) {
    const next = node.embeds.find((embed) => embed.pathName === segment);
    if (!next) {
      const byRelation = node.embeds.find(
        (embed) => embed.relationship.target.name === segment && embed.name !== segment,
      );
      if (byRelation) {
        throw new RestError(
          400,
          'PGRST108',
          `'${segment}' is not an embedded resource in this request`,
          'Target names are not allowed in filters if they have an alias',
          `Change '${segment}' to '${byRelation.name}' in filters, orders or limits.`,
        );
      }
      throw restErrors.notEmbedded(segment);
    }
    node = next;
  }
  return node;
}

function planFilter(cache: SchemaCache, node: ReadNode, filter: Filter): PlannedFilter {
  // `rel=is.null` / `rel=not.is.null` on an embedded resource filters the parent rows.
  if (filter.field.jsonPath.length === 0 && !node.relation.columns.has(filter.field.name)) {
    const embed = node.embeds.find((candidate) => candidate.pathName === filter.field.name);
    if (embed) {
      if (
        filter.operation.kind !== 'is' ||
        (filter.operation.value !== 'null' && filter.operation.value !== 'not_null')
      ) {
        throw restErrors.unacceptableFilter(filter.field.name);
      }
      const isNullCheck = filter.operation.value === 'null';
      return { kind: 'embed-null', embed, isNull: filter.negated ? !isNullCheck : isNullCheck };
    }
  }
  return {
    kind: 'filter',
    field: resolveField(cache, node.relation, filter.field),
    negated: filter.negated,
    operation: filter.operation,
  };
}

function planLogic(cache: SchemaCache, node: ReadNode, tree: LogicTree): PlannedLogic {
  if (tree.kind === 'filter')
    return { kind: 'statement', filter: planFilter(cache, node, tree.filter) };
  return {
    kind: 'expression',
    negated: tree.negated,
    operator: tree.operator,
    children: tree.children.map((child) => planLogic(cache, node, child)),
  };
}

function planOrder(cache: SchemaCache, node: ReadNode, term: OrderTerm): PlannedOrder {
  const sort = {
    ...(term.direction ? { direction: term.direction } : {}),
    ...(term.nulls ? { nulls: term.nulls } : {}),
  };
  if (term.relation !== undefined) {
    const embed = node.embeds.find((candidate) => candidate.pathName === term.relation);
    if (!embed) throw restErrors.notEmbedded(term.relation);
    if (!embed.isToOne) throw restErrors.relatedOrderNotToOne(node.relation.name, term.relation);
    return { embed, field: resolveField(cache, embed.relation, term.field), ...sort };
  }
  return { field: resolveField(cache, node.relation, term.field), ...sort };
}

/** Resolves the whole read request for `relation`, aliased `alias` at the root. */
export function planRead(
  cache: SchemaCache,
  relation: Relation,
  alias: string,
  request: ReadRequest,
  options: { aggregatesEnabled?: boolean; maxRows?: number } = {},
): ReadNode {
  const root = newNode(relation, alias, 0);
  planSelect(
    cache,
    root,
    request.select.length > 0
      ? request.select
      : [{ kind: 'field', field: { name: '*', jsonPath: [] } }],
    {
      aggregatesEnabled: options.aggregatesEnabled ?? cache.aggregatesEnabled ?? false,
    },
  );
  for (const { path, filter } of request.filters) {
    const node = findNode(root, path);
    node.where.push({ kind: 'statement', filter: planFilter(cache, node, filter) });
  }
  for (const { path, tree } of request.logic) {
    const node = findNode(root, path);
    node.where.push(planLogic(cache, node, tree));
  }
  for (const { path, terms } of request.order) {
    const node = findNode(root, path);
    node.order.push(...terms.map((term) => planOrder(cache, node, term)));
  }
  for (const range of request.ranges) {
    const node = findNode(root, range.path);
    if (range.offset !== undefined) node.offset = range.offset;
    if (range.limit !== undefined) node.limit = range.limit;
  }
  // PostgREST's db-max-rows (restrictRange): the root's rows, never more than that.
  if (options.maxRows !== undefined) root.limit = Math.min(root.limit ?? Infinity, options.maxRows);
  return root;
}
