import type { Operation } from '../parse/types';
import type {
  EmbedNode,
  PlannedFilter,
  PlannedLogic,
  PlannedOrder,
  PlannedSelect,
  ReadNode,
  ResolvedField,
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

/**
 * PostgREST's groupF: with an aggregate in a level's select, its rows are
 * grouped by everything else it selects (embeds by their output names).
 */
function groupSql(node: ReadNode, params: Params): string {
  if (!node.selects.some((select) => select.aggregate)) return '';
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
      for (const select of embed.selects) {
        if (select.aggregate) continue;
        if (select.outputName === undefined)
          terms.push(...columnsOf(embed.joinAlias, embed.relation));
        else terms.push(`${ident(embed.joinAlias)}.${ident(select.outputName)}`);
      }
    } else if (!isEmptyEmbed(embed)) {
      terms.push(ident(embed.name));
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
    !node.selects.some((select) => select.aggregate)
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
    const child = embedSelectSql(embed, params);
    if (embed.isSpread) {
      for (const select of embed.selects) {
        if (select.outputName === undefined) selects.push(`${ident(embed.joinAlias)}.*`);
        else selects.push(`${ident(embed.joinAlias)}.${ident(select.outputName)}`);
      }
      for (const nested of embed.embeds) {
        if (!isEmptyEmbed(nested)) selects.push(`${ident(embed.joinAlias)}.${ident(nested.name)}`);
      }
      joins.push(
        ` ${embed.joinType === 'inner' ? 'INNER' : 'LEFT'} JOIN LATERAL (${child}) AS ${ident(embed.joinAlias)} ON TRUE`,
      );
    } else if (embed.isToOne) {
      if (!isEmptyEmbed(embed))
        selects.push(`row_to_json(${ident(embed.joinAlias)}.*)::jsonb AS ${ident(embed.name)}`);
      joins.push(
        ` ${embed.joinType === 'inner' ? 'INNER' : 'LEFT'} JOIN LATERAL (${child}) AS ${ident(embed.joinAlias)} ON TRUE`,
      );
    } else {
      if (!isEmptyEmbed(embed))
        selects.push(
          `COALESCE(${ident(embed.joinAlias)}.${ident(embed.joinAlias)}, '[]') AS ${ident(embed.name)}`,
        );
      const aggregated = `SELECT json_agg(${ident(embed.joinAlias)})::jsonb AS ${ident(embed.joinAlias)} FROM (${child}) AS ${ident(embed.joinAlias)}`;
      joins.push(
        embed.joinType === 'inner'
          ? ` INNER JOIN LATERAL (${aggregated}) AS ${ident(embed.joinAlias)} ON ${ident(embed.joinAlias)}.${ident(embed.joinAlias)} IS NOT NULL`
          : ` LEFT JOIN LATERAL (${aggregated}) AS ${ident(embed.joinAlias)} ON TRUE`,
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
