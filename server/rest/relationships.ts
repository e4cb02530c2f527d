import { RestError } from './errors';
import { qualifiedName, type ForeignKey, type Relation, type SchemaCache } from './schema-cache';

/**
 * How one relation embeds another (PostgREST's findRel): through a foreign key
 * either way (many-to-one, one-to-many, one-to-one), or through a junction
 * table whose primary key holds both foreign keys (many-to-many).
 */

export type Cardinality = 'many-to-one' | 'one-to-many' | 'one-to-one' | 'many-to-many';

export interface Relationship {
  cardinality: Cardinality;
  source: Relation;
  target: Relation;
  constraint: string;
  /** [source column, target column] pairs; for many-to-many, empty. */
  columns: [string, string][];
  junction?: {
    relation: Relation;
    sourceConstraint: string;
    targetConstraint: string;
    /** [junction column, source column]. */
    sourceColumns: [string, string][];
    /** [junction column, target column]. */
    targetColumns: [string, string][];
  };
  isSelf: boolean;
  /**
   * A computed relationship: the target's rows are `function(parent row)`, not
   * joined by columns. Its cardinality is many-to-one for a function returning
   * one row (`B` or `SETOF B ROWS 1`), else one-to-many.
   */
  computed?: { schema: string; name: string };
}

export function isToOne(relationship: Relationship): boolean {
  return relationship.cardinality === 'many-to-one' || relationship.cardinality === 'one-to-one';
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((column) => b.includes(column));
}

function isUniqueOn(relation: Relation, columns: string[]): boolean {
  return relation.uniqueKeys.some((key) => sameSet(key, columns));
}

function relationOf(cache: SchemaCache, schema: string, name: string): Relation | undefined {
  return cache.relations.get(qualifiedName(schema, name));
}

/** Every relationship from `source` to any relation (computed on demand, cached per source). */
export function relationshipsFrom(cache: SchemaCache, source: Relation): Relationship[] {
  const memo = cache as SchemaCache & { relationshipMemo?: Map<string, Relationship[]> };
  memo.relationshipMemo ??= new Map();
  const key = qualifiedName(source.schema, source.name);
  const known = memo.relationshipMemo.get(key);
  if (known) return known;

  const result: Relationship[] = [];
  const pairs = (fk: ForeignKey) =>
    fk.columns.map((column, index): [string, string] => [column, fk.referencedColumns[index]!]);
  for (const fk of cache.foreignKeys) {
    const isSelf = fk.schema === fk.referencedSchema && fk.table === fk.referencedTable;
    if (fk.schema === source.schema && fk.table === source.name) {
      const target = relationOf(cache, fk.referencedSchema, fk.referencedTable);
      if (target) {
        result.push({
          cardinality: isUniqueOn(source, fk.columns) ? 'one-to-one' : 'many-to-one',
          source,
          target,
          constraint: fk.name,
          columns: pairs(fk),
          isSelf,
        });
      }
    }
    if (fk.referencedSchema === source.schema && fk.referencedTable === source.name) {
      const target = relationOf(cache, fk.schema, fk.table);
      if (target) {
        result.push({
          cardinality: isUniqueOn(target, fk.columns) ? 'one-to-one' : 'one-to-many',
          source,
          target,
          constraint: fk.name,
          columns: pairs(fk).map(([column, referenced]) => [referenced, column]),
          isSelf,
        });
      }
    }
  }
  // Many-to-many: a junction with a foreign key to the source and another to the target, both within its primary key.
  for (const toSource of cache.foreignKeys) {
    if (toSource.referencedSchema !== source.schema || toSource.referencedTable !== source.name)
      continue;
    const junction = relationOf(cache, toSource.schema, toSource.table);
    if (!junction) continue;
    for (const toTarget of cache.foreignKeys) {
      if (
        toTarget === toSource ||
        toTarget.schema !== toSource.schema ||
        toTarget.table !== toSource.table
      )
        continue;
      const target = relationOf(cache, toTarget.referencedSchema, toTarget.referencedTable);
      if (!target) continue;
      const junctionColumns = [...toSource.columns, ...toTarget.columns];
      if (!junctionColumns.every((column) => junction.primaryKey.includes(column))) continue;
      result.push({
        cardinality: 'many-to-many',
        source,
        target,
        constraint: toTarget.name,
        columns: [],
        junction: {
          relation: junction,
          sourceConstraint: toSource.name,
          targetConstraint: toTarget.name,
          sourceColumns: pairs(toSource),
          targetColumns: pairs(toTarget),
        },
        isSelf: source === target,
      });
    }
  }
  // Computed relationships (PostgREST's getOverrideRelationshipsMap): a function named
  // like a related relation replaces the foreign-key relationships to that relation.
  const computed = (cache.computedRelationships ?? []).filter(
    (rel) => rel.sourceSchema === source.schema && rel.sourceName === source.name,
  );
  const overridden = (relationship: Relationship) =>
    computed.some(
      (rel) =>
        rel.functionSchema === relationship.target.schema &&
        rel.functionName === relationship.target.name,
    );
  const withComputed = result.filter((relationship) => !overridden(relationship));
  for (const rel of computed) {
    const target = relationOf(cache, rel.targetSchema, rel.targetName);
    if (!target) continue;
    withComputed.push({
      cardinality: rel.singleRow ? 'many-to-one' : 'one-to-many',
      source,
      target,
      constraint: rel.functionName,
      columns: [],
      isSelf: source === target,
      computed: { schema: rel.functionSchema, name: rel.functionName },
    });
  }
  memo.relationshipMemo.set(key, withComputed);
  return withComputed;
}

function singleColumn(relationship: Relationship, side: 0 | 1): string | undefined {
  return relationship.columns.length === 1 ? relationship.columns[0]![side] : undefined;
}

function describe(relationship: Relationship) {
  if (relationship.computed) {
    return {
      cardinality: relationship.cardinality,
      embedding: `${relationship.source.name} with ${relationship.target.name}`,
      relationship: `${relationship.computed.name} using ${relationship.source.name} and ${relationship.target.name}`,
    };
  }
  const list = (columns: string[]) => `(${columns.join(', ')})`;
  if (relationship.junction) {
    const { junction } = relationship;
    return {
      cardinality: 'many-to-many',
      embedding: `${relationship.source.name} with ${relationship.target.name}`,
      relationship: `${junction.relation.name} using ${junction.sourceConstraint}${list(junction.sourceColumns.map(([column]) => column))} and ${junction.targetConstraint}${list(junction.targetColumns.map(([column]) => column))}`,
    };
  }
  // PostgREST's compressedRel: always the embedding side first, whatever the cardinality.
  const [table, foreignTable, columns, foreignColumns] = [
    relationship.source.name,
    relationship.target.name,
    relationship.columns.map(([c]) => c),
    relationship.columns.map(([, c]) => c),
  ];
  return {
    cardinality: relationship.cardinality,
    embedding: `${relationship.source.name} with ${relationship.target.name}`,
    relationship: `${relationship.constraint} using ${table}${list(columns)} and ${foreignTable}${list(foreignColumns)}`,
  };
}

function hintFor(relationship: Relationship): string {
  const name = relationship.junction
    ? relationship.junction.relation.name
    : relationship.constraint;
  return `'${relationship.target.name}!${name}'`;
}

/** Levenshtein-based "did you mean", as PostgREST's fuzzy hints. */
export function closest(candidates: string[], word: string): string | undefined {
  let best: { candidate: string; score: number } | undefined;
  for (const candidate of candidates) {
    const score = similarity(candidate, word);
    if (score >= 0.5 && (!best || score > best.score)) best = { candidate, score };
  }
  return best?.candidate;
}

function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const rows = Array.from({ length: a.length + 1 }, (_, index) => index);
  for (let j = 1; j <= b.length; j += 1) {
    let previous = rows[0]!;
    rows[0] = j;
    for (let i = 1; i <= a.length; i += 1) {
      const current = rows[i]!;
      rows[i] = Math.min(
        rows[i]! + 1,
        rows[i - 1]! + 1,
        previous + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      previous = current;
    }
  }
  return 1 - rows[a.length]! / Math.max(a.length, b.length, 1);
}

/** Finds the one relationship `target!hint` names from `source`, or answers PGRST200/PGRST201. */
export function findRelationship(
  cache: SchemaCache,
  source: Relation,
  target: string,
  hint: string | undefined,
): Relationship {
  const all = relationshipsFrom(cache, source);
  const matches = all.filter((relationship) => {
    // Found by the function's name alone (hints do not apply), in the source's schema only.
    if (relationship.computed)
      return (
        relationship.computed.name === target && relationship.computed.schema === source.schema
      );
    const foreignName = relationship.target.name;
    const isTargetView = relationship.target.kind === 'v' || relationship.target.kind === 'm';
    if (relationship.isSelf && !relationship.junction) {
      if (hint === undefined) {
        return (
          (target === foreignName && relationship.cardinality === 'one-to-many') ||
          (singleColumn(relationship, 0) === target && relationship.cardinality === 'many-to-one')
        );
      }
      return (
        target === foreignName &&
        relationship.cardinality === 'one-to-many' &&
        singleColumn(relationship, 1) === hint
      );
    }
    if (hint === undefined) {
      return (
        target === foreignName ||
        (!isTargetView && !relationship.junction && relationship.constraint === target) ||
        (!isTargetView && !relationship.junction && singleColumn(relationship, 0) === target)
      );
    }
    return (
      target === foreignName &&
      (relationship.junction
        ? relationship.junction.relation.name === hint
        : relationship.constraint === hint ||
          singleColumn(relationship, 0) === hint ||
          singleColumn(relationship, 1) === hint)
    );
  });
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new RestError(
      300,
      'PGRST201',
      `Could not embed because more than one relationship was found for '${source.name}' and '${target}'`,
      matches.map(describe),
      `Try changing '${target}' to one of the following: ${matches.map(hintFor).join(', ')}. Find the desired relationship in the 'details' key.`,
    );
  }
  const suggestion = closest(
    [...new Set(all.map((relationship) => relationship.target.name))].filter(
      (name) => name !== target,
    ),
    target,
  );
  throw new RestError(
    400,
    'PGRST200',
    `Could not find a relationship between '${source.name}' and '${target}' in the schema cache`,
    `Searched for a foreign key relationship between '${source.name}' and '${target}'${hint ? ` using the hint '${hint}'` : ''} in the schema '${source.schema}', but no matches were found.`,
    suggestion && !hint ? `Perhaps you meant '${suggestion}' instead of '${target}'.` : null,
  );
}
