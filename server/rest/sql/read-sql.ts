import type { Operation } from '../parse/types';
import {
  hasAggregates,
  type EmbedNode,
  type PlannedFilter,
  type PlannedLogic,
  type PlannedOrder,
  type PlannedSelect,
  type ReadNode,
  type ResolvedField,
} from '../plan/read-plan';
import { arrayLiteral, ident, literal, qualified, type Params } from './sql';

/**
 * Read plans to SQL, shaped as PostgREST shapes them: one SELECT per level,
 * embedded resources as LEFT (or INNER) JOIN LATERAL subqueries whose rows are
 * aggregated to JSON. Values are bound parameters; identifiers come from the
 * plan, i.e. from the schema cache.
 */

function jsonPathSql(field: ResolvedField, params: Params): string {
  return field.jsonPath
    .map(({ arrow, operand }) =>
      operand.kind === 'key'
        ? `${arrow}${literal(operand.key)}`
        : `${arrow}${params.add(String(operand.index))}::int`,
    )
    .join('');
}

export function fieldSql(alias: string, field: ResolvedField, params: Params): string {
  if (field.name === '*') return `${ident(alias)}.*`;
  const base = field.computed
    ? `${qualified(field.computed.schema, field.computed.name)}(${ident(alias)})`
    : `${ident(alias)}.${ident(field.name)}`;
  if (field.jsonPath.length === 0) return base;
  // JSON paths work on json and jsonb; other types go through to_jsonb, as PostgREST does.
  const typeName = field.column?.typeName;
  const source = typeName === 'json' || typeName === 'jsonb' ? base : `to_jsonb(${base})`;
  return `${source}${jsonPathSql(field, params)}`;
}

function selectExpression(alias: string, select: PlannedSelect, params: Params): string {
  let expression =
    select.aggregate === 'count' && select.field.name === '*'
      ? '*'
      : fieldSql(alias, select.field, params);
  if (select.cast) expression = `CAST(${expression} AS ${select.cast})`;
  if (select.aggregate) {
    expression = `pg_catalog.${select.aggregate}(${expression})`;
    if (select.aggregateCast) expression = `CAST(${expression} AS ${select.aggregateCast})`;
  }
  return expression;
}

function selectSql(alias: string, select: PlannedSelect, params: Params): string {
  const expression = selectExpression(alias, select, params);
  return select.outputName === undefined
    ? expression
    : `${expression} AS ${ident(select.outputName)}`;
}

const QUANT_SQL: Record<string, string> = {
  eq: '=',
  gte: '>=',
  gt: '>',
  lte: '<=',
  lt: '<',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
};
const SIMPLE_SQL: Record<string, string> = {
  neq: '<>',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
};
const FTS_SQL: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};

function operationSql(
  left: string,
  field: ResolvedField,
  operation: Operation,
  params: Params,
): string {
  switch (operation.kind) {
    case 'quant': {
      const isPattern = operation.operator === 'like' || operation.operator === 'ilike';
      const value = isPattern ? operation.value.replace(/\*/g, '%') : operation.value;
      const placeholder = params.add(value);
      const right = operation.quantifier
        ? `${operation.quantifier.toUpperCase()}(${placeholder})`
        : placeholder;
      return `${left} ${QUANT_SQL[operation.operator]} ${right}`;
    }
    case 'simple':
      return `${left} ${SIMPLE_SQL[operation.operator]} ${params.add(operation.value)}`;
    case 'in':
      return operation.values.length === 1 && operation.values[0] === ''
        ? `${left} = ANY('{}')`
        : `${left} = ANY(${params.add(arrayLiteral(operation.values))})`;
    case 'is':
      return `${left} IS ${{ null: 'NULL', not_null: 'NOT NULL', true: 'TRUE', false: 'FALSE', unknown: 'UNKNOWN' }[operation.value]}`;
    case 'isdistinct':
      return `${left} IS DISTINCT FROM ${params.add(operation.value)}`;
    case 'fts': {
      const language = operation.language ? `${params.add(operation.language)}, ` : '';
      // A text column is searched through to_tsvector; a tsvector column as it is.
      const target =
        field.column && field.column.typeName !== 'tsvector' && field.jsonPath.length === 0
          ? `to_tsvector(${language}${left})`
          : left;
      return `${target} @@ ${FTS_SQL[operation.operator]}(${language}${params.add(operation.value)})`;
    }
  }
}

export function filterSql(node: ReadNode, filter: PlannedFilter, params: Params): string {
  if (filter.kind === 'embed-null') {
    const exists = `EXISTS (${countSql(filter.embed, params)})`;
    return filter.isNull ? `NOT ${exists}` : exists;
  }
  const left = fieldSql(node.alias, filter.field, params);
  const expression = operationSql(left, filter.field, filter.operation, params);
  return filter.negated ? `NOT ${expression}` : expression;
}

export function logicSql(node: ReadNode, logic: PlannedLogic, params: Params): string {
  if (logic.kind === 'statement') return filterSql(node, logic.filter, params);
  const inner = logic.children
    .map((child) => logicSql(node, child, params))
    .join(logic.operator === 'and' ? ' AND ' : ' OR ');
  return `${logic.negated ? 'NOT ' : ''}(${inner})`;
}

function orderSql(node: ReadNode, terms: PlannedOrder[], params: Params): string {
  if (terms.length === 0) return '';
  const parts = terms.map((term) => {
    const expression = term.embed
      ? fieldSql(term.embed.joinAlias, term.field, params)
      : fieldSql(node.alias, term.field, params);
    return `${expression}${term.direction ? ` ${term.direction.toUpperCase()}` : ''}${term.nulls ? ` NULLS ${term.nulls.toUpperCase()}` : ''}`;
  });
  return ` ORDER BY ${parts.join(', ')}`;
}

function rangeSql(node: ReadNode, params: Params): string {
  const limit = node.limit !== undefined ? ` LIMIT ${params.add(String(node.limit))}::bigint` : '';
  const offset = node.offset > 0 ? ` OFFSET ${params.add(String(node.offset))}::bigint` : '';
  return `${limit}${offset}`;
}

/** How an embedded level joins its parent: the conditions, and the junction for many-to-many. */
function joinConditions(embed: EmbedNode): { from: string; conditions: string[] } {
  const { relationship, parent } = embed;
  const target = qualified(embed.relation.schema, embed.relation.name);
  if (relationship.computed) {
    // The function of the parent row; the cast picks the overload for a CTE's row (writes, RPC).
    const { computed, source } = relationship;
    return {
      from: `${qualified(computed.schema, computed.name)}(${ident(parent.alias)}::${qualified(source.schema, source.name)}) AS ${ident(embed.alias)}`,
      conditions: [],
    };
  }
  if (relationship.junction) {
    const { junction } = relationship;
    const junctionAlias = `${junction.relation.name}_${embed.depth}`;
    return {
      from: `${target} AS ${ident(embed.alias)}, ${qualified(junction.relation.schema, junction.relation.name)} AS ${ident(junctionAlias)}`,
      conditions: [
        ...junction.targetColumns.map(
          ([junctionColumn, targetColumn]) =>
            `${ident(embed.alias)}.${ident(targetColumn)} = ${ident(junctionAlias)}.${ident(junctionColumn)}`,
        ),
        ...junction.sourceColumns.map(
          ([junctionColumn, sourceColumn]) =>
            `${ident(junctionAlias)}.${ident(junctionColumn)} = ${ident(parent.alias)}.${ident(sourceColumn)}`,
        ),
      ],
    };
  }
  return {
    from: `${target} AS ${ident(embed.alias)}`,
    conditions: relationship.columns.map(
      ([sourceColumn, targetColumn]) =>
        `${ident(embed.alias)}.${ident(targetColumn)} = ${ident(parent.alias)}.${ident(sourceColumn)}`,
    ),
  };
}

/** A column a spread's subquery hands its parent; `hoisted`: an aggregate applied at the parent. */
interface SpreadOutput {
  name: string;
  hoisted?: PlannedSelect;
}

/**
 * The columns of a spread's subquery, by name: its fields (`*` as its
 * relation's columns), the columns of spreads below it, and its embeds. A
 * to-one spread's aggregates are applied by the parent, over the parent's rows.
 */
function spreadOutputs(embed: EmbedNode): SpreadOutput[] {
  const outputs: SpreadOutput[] = [];
  for (const select of embed.selects) {
    if (select.outputName === undefined)
      outputs.push(...[...embed.relation.columns.keys()].map((name) => ({ name })));
    else if (select.aggregate && embed.isToOne)
      outputs.push({ name: select.outputName, hoisted: select });
    else outputs.push({ name: select.outputName });
  }
  for (const nested of embed.embeds) {
    if (nested.isSpread) outputs.push(...spreadOutputs(nested).map(({ name }) => ({ name })));
    else if (!isEmptyEmbed(nested)) outputs.push({ name: nested.name });
  }
  return outputs;
}

/** The parent's expression for a to-one spread's aggregate: over the spread's value, or its rows. */
function hoistedSql(joinAlias: string, select: PlannedSelect): string {
  const value =
    select.field.name === '*'
      ? `${ident(joinAlias)}.*`
      : `${ident(joinAlias)}.${ident(select.outputName!)}`;
  let expression = `pg_catalog.${select.aggregate!}(${value})`;
  if (select.aggregateCast) expression = `CAST(${expression} AS ${select.aggregateCast})`;
  return expression;
}

/** A to-one spread's own level: its aggregates become plain values (or go) for the parent to apply. */
function withoutAggregates(embed: EmbedNode): EmbedNode {
  if (!embed.selects.some((select) => select.aggregate)) return embed;
  return {
    ...embed,
    selects: embed.selects
      .filter((select) => !(select.aggregate && select.field.name === '*'))
      .map((select) => {
        if (!select.aggregate) return select;
        return {
          field: select.field,
          outputName: select.outputName!,
          ...(select.cast ? { cast: select.cast } : {}),
        };
      }),
  };
}

/** The select-list expression that carries an embed's JSON (to-one object or to-many array). */
function embedJsonSql(embed: EmbedNode): string {
  return embed.isToOne
    ? `row_to_json(${ident(embed.joinAlias)}.*)::jsonb`
    : `COALESCE(${ident(embed.joinAlias)}.${ident(embed.joinAlias)}, '[]')`;
}

/**
 * PostgREST's groupF: with an aggregate in a level's select (or in a to-one
 * spread below it), its rows are grouped by everything else it selects. Embeds
 * are grouped by the expressions that carry them, never by their output names
 * (which a column of the same name would shadow).
 */
function groupSql(node: ReadNode, params: Params): string {
  if (!hasAggregates(node)) return '';
  const terms: string[] = [];
  const columnsOf = (alias: string, relation: ReadNode['relation']) =>
    [...relation.columns.keys()].map((column) => `${ident(alias)}.${ident(column)}`);
  for (const select of node.selects) {
    if (select.aggregate) continue;
    if (select.field.name === '*') terms.push(...columnsOf(node.alias, node.relation));
    else terms.push(selectExpression(node.alias, select, params));
  }
  for (const embed of node.embeds) {
    if (embed.isSpread) {
      for (const output of spreadOutputs(embed)) {
        if (!output.hoisted) terms.push(`${ident(embed.joinAlias)}.${ident(output.name)}`);
      }
    } else if (!isEmptyEmbed(embed)) {
      terms.push(embedJsonSql(embed));
    }
  }
  return terms.length > 0 ? ` GROUP BY ${terms.join(', ')}` : '';
}

function isEmptyEmbed(embed: EmbedNode): boolean {
  return embed.selects.length === 0 && embed.embeds.every(isEmptyEmbed);
}

/** The SELECT of one level; `from` is its FROM item (a table, the mutation's CTE, a function call). */
/**
 * Whether a page of this level can be chosen before its embeds are built: the
 * embeds then run for the page's rows only, not for every row an OFFSET skips
 * (a deep page of a large table was ten times slower). It needs a primary key
 * to find the page's rows again, and no part of the page may depend on an
 * embed (inner joins, ordering by an embedded column) or on grouping.
 */
function canChoosePageFirst(node: ReadNode): boolean {
  return (
    (node.limit !== undefined || node.offset > 0) &&
    node.relation.primaryKey.length > 0 &&
    node.embeds.length > 0 &&
    node.embeds.every((embed) => embed.joinType !== 'inner') &&
    node.order.every((term) => !term.embed) &&
    !hasAggregates(node)
  );
}

export function nodeSql(
  node: ReadNode,
  from: string,
  params: Params,
  extraConditions: string[] = [],
  options: { pageFirst?: boolean } = {},
): string {
  if (options.pageFirst && extraConditions.length === 0 && canChoosePageFirst(node)) {
    return pageFirstSql(node, from, params);
  }
  const selects = node.selects.map((select) => selectSql(node.alias, select, params));
  const joins: string[] = [];
  for (const embed of node.embeds) {
    const alias = ident(embed.joinAlias);
    const joinKind = embed.joinType === 'inner' ? 'INNER' : 'LEFT';
    if (embed.isSpread && embed.isToOne) {
      for (const output of spreadOutputs(embed)) {
        selects.push(
          output.hoisted
            ? `${hoistedSql(embed.joinAlias, output.hoisted)} AS ${ident(output.name)}`
            : `${alias}.${ident(output.name)}`,
        );
      }
      const child = embedSelectSql(withoutAggregates(embed), params);
      joins.push(` ${joinKind} JOIN LATERAL (${child}) AS ${alias} ON TRUE`);
    } else if (embed.isSpread) {
      // PostgREST 13's to-many spread: each column as an array of the related rows' values, in their order.
      const outputs = spreadOutputs(embed);
      const columns = outputs.map(
        ({ name }) => `COALESCE(json_agg(${alias}.${ident(name)}), '[]')::jsonb AS ${ident(name)}`,
      );
      for (const { name } of outputs) selects.push(`${alias}.${ident(name)}`);
      const child = embedSelectSql(embed, params);
      const aggregated = `SELECT ${[`json_agg(${alias})::jsonb AS ${alias}`, ...columns].join(', ')} FROM (${child}) AS ${alias}`;
      joins.push(
        embed.joinType === 'inner'
          ? ` INNER JOIN LATERAL (${aggregated}) AS ${alias} ON ${alias}.${alias} IS NOT NULL`
          : ` LEFT JOIN LATERAL (${aggregated}) AS ${alias} ON TRUE`,
      );
    } else if (embed.isToOne) {
      const child = embedSelectSql(embed, params);
      if (!isEmptyEmbed(embed)) selects.push(`${embedJsonSql(embed)} AS ${ident(embed.name)}`);
      joins.push(` ${joinKind} JOIN LATERAL (${child}) AS ${alias} ON TRUE`);
    } else {
      const child = embedSelectSql(embed, params);
      if (!isEmptyEmbed(embed)) selects.push(`${embedJsonSql(embed)} AS ${ident(embed.name)}`);
      const aggregated = `SELECT json_agg(${alias})::jsonb AS ${alias} FROM (${child}) AS ${alias}`;
      joins.push(
        embed.joinType === 'inner'
          ? ` INNER JOIN LATERAL (${aggregated}) AS ${alias} ON ${alias}.${alias} IS NOT NULL`
          : ` LEFT JOIN LATERAL (${aggregated}) AS ${alias} ON TRUE`,
      );
    }
  }
  const conditions = [
    ...extraConditions,
    ...node.where.map((logic) => logicSql(node, logic, params)),
  ];
  return (
    `SELECT ${selects.length > 0 ? selects.join(', ') : 'NULL'}` +
    ` FROM ${from}${joins.join('')}` +
    (conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '') +
    groupSql(node, params) +
    orderSql(node, node.order, params) +
    rangeSql(node, params)
  );
}

/** The level's rows by key from a subquery that filters, orders and pages them without the embeds. */
function pageFirstSql(node: ReadNode, from: string, params: Params): string {
  const key = node.relation.primaryKey.map((column) => `${ident(node.alias)}.${ident(column)}`);
  const page = nodeSql(
    {
      ...node,
      selects: node.relation.primaryKey.map((column): PlannedSelect => ({
        field: { name: column, column: node.relation.columns.get(column), jsonPath: [] },
      })),
      embeds: [],
    },
    from,
    params,
  );
  const inPage =
    key.length === 1 ? `${key[0]} = ANY (ARRAY(${page}))` : `(${key.join(', ')}) IN (${page})`;
  return nodeSql({ ...node, where: [], limit: undefined, offset: 0 }, from, params, [inPage]);
}

function embedSelectSql(embed: EmbedNode, params: Params): string {
  const { from, conditions } = joinConditions(embed);
  return nodeSql(embed, from, params, conditions);
}

/**
 * `SELECT 1 …` with the level's filters, its join to the parent, and the inner
 * joins below it: what counts rows (and answers `rel=not.is.null`).
 */
export function countSql(node: ReadNode, params: Params, from?: string): string {
  const embed = 'relationship' in node ? (node as EmbedNode) : undefined;
  const join = embed ? joinConditions(embed) : undefined;
  const conditions = [
    ...(join?.conditions ?? []),
    ...node.where.map((logic) => logicSql(node, logic, params)),
    ...node.embeds
      .filter((child) => child.joinType === 'inner')
      .map((child) => `EXISTS (${countSql(child, params)})`),
  ];
  return `SELECT 1 FROM ${join?.from ?? from ?? qualified(node.relation.schema, node.relation.name)}${conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : ''}`;
}
