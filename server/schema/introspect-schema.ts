import type { Queryable } from '../db/database';

/**
 * What `npm run gen:types` needs to know about the exposed schemas, read from
 * the system catalogs: the same facts Supabase's type generator (postgres-meta)
 * reads, so the rendered types have its shape.
 */

export interface RelationInfo {
  id: number;
  schema: string;
  name: string;
  kind: 'table' | 'view' | 'materialized_view';
  /** Views: PostgreSQL can update and delete through it. Tables: always. */
  isUpdatable: boolean;
}

export interface ColumnInfo {
  relationId: number;
  name: string;
  /** The type name (a domain's base type), `_name` for arrays. */
  format: string;
  isNullable: boolean;
  hasDefault: boolean;
  isIdentity: boolean;
  identityGeneration: 'ALWAYS' | 'BY DEFAULT' | null;
  isUpdatable: boolean;
}

export interface RelationshipInfo {
  foreignKeyName: string;
  schema: string;
  relation: string;
  columns: string[];
  referencedSchema: string;
  referencedRelation: string;
  referencedColumns: string[];
  isOneToOne: boolean;
}

export interface FunctionArgument {
  mode: 'in' | 'out' | 'inout' | 'variadic' | 'table';
  name: string;
  typeId: number;
  hasDefault: boolean;
}

export interface FunctionInfo {
  id: number;
  schema: string;
  name: string;
  args: FunctionArgument[];
  returnTypeId: number;
  /** The relation whose row type the function returns, if any. */
  returnRelationId: number | null;
  isSetReturning: boolean;
  /** The planner's row estimate of a set-returning function. */
  rows: number | null;
}

export interface TypeInfo {
  id: number;
  name: string;
  schema: string;
  /** Labels of an enum, in order; empty otherwise. */
  enumLabels: string[];
  /** Fields of a composite type (not a table's row type); empty otherwise. */
  attributes: { name: string; typeId: number }[];
  /** The relation a row type belongs to (tables, views, composite types). */
  relationId: number | null;
}

export interface SchemaSnapshot {
  schemas: string[];
  relations: RelationInfo[];
  columns: ColumnInfo[];
  relationships: RelationshipInfo[];
  functions: FunctionInfo[];
  types: TypeInfo[];
}

const RELATIONS_SQL = `
  select c.oid::int8 as id, n.nspname as schema, c.relname as name,
    case c.relkind when 'v' then 'view' when 'm' then 'materialized_view' else 'table' end as kind,
    case c.relkind when 'v' then (pg_relation_is_updatable(c.oid, false) & 20) = 20
      when 'm' then false else true end as "isUpdatable"
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = any($1::text[]) and c.relkind in ('r', 'p', 'f', 'v', 'm')`;

const COLUMNS_SQL = `
  select a.attrelid::int8 as "relationId", a.attname as name,
    coalesce(bt.typname, t.typname) as format,
    not (a.attnotnull or (t.typtype = 'd' and t.typnotnull)) as "isNullable",
    a.atthasdef as "hasDefault",
    a.attidentity in ('a', 'd') as "isIdentity",
    case a.attidentity when 'a' then 'ALWAYS' when 'd' then 'BY DEFAULT' end as "identityGeneration",
    (c.relkind in ('r', 'p')
      or (c.relkind in ('v', 'f') and pg_column_is_updatable(c.oid, a.attnum, false))) as "isUpdatable"
  from pg_attribute a
  join pg_class c on c.oid = a.attrelid
  join pg_namespace n on n.oid = c.relnamespace
  join pg_type t on t.oid = a.atttypid
  left join pg_type bt on t.typtype = 'd' and bt.oid = t.typbasetype
  where n.nspname = any($1::text[]) and c.relkind in ('r', 'p', 'f', 'v', 'm')
    and a.attnum > 0 and not a.attisdropped`;

// Foreign keys, with their columns in key order; one-to-one when the
// referencing columns are exactly a primary key or unique constraint.
const RELATIONSHIPS_SQL = `
  select k.conname as "foreignKeyName", n.nspname as schema, c.relname as relation,
    (select jsonb_agg(a.attname order by u.ord) from unnest(k.conkey) with ordinality u(attnum, ord)
      join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum) as columns,
    rn.nspname as "referencedSchema", r.relname as "referencedRelation",
    (select jsonb_agg(a.attname order by u.ord) from unnest(k.confkey) with ordinality u(attnum, ord)
      join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.attnum) as "referencedColumns",
    exists (
      select from pg_constraint uq
      where uq.conrelid = k.conrelid and uq.contype in ('p', 'u')
        and (select array_agg(x order by x) from unnest(uq.conkey) x)
          = (select array_agg(x order by o) from unnest(k.conkey) with ordinality y(x, o))
    ) as "isOneToOne"
  from pg_constraint k
  join pg_class c on c.oid = k.conrelid
  join pg_namespace n on n.oid = c.relnamespace
  join pg_class r on r.oid = k.confrelid
  join pg_namespace rn on rn.oid = r.relnamespace
  where k.contype = 'f' and k.conparentid = 0 and n.nspname = any($1::text[])`;

// Functions callable through the data API: not trigger functions, not
// procedures or aggregates. Argument arrays come back as JSON so both drivers
// return the same values.
const FUNCTIONS_SQL = `
  select p.oid::int8 as id, n.nspname as schema, p.proname as name,
    to_jsonb(coalesce(p.proallargtypes, p.proargtypes::oid[])::int8[]) as "argTypes",
    to_jsonb(p.proargmodes::text[]) as "argModes",
    to_jsonb(p.proargnames) as "argNames",
    p.pronargs as "inputCount", p.pronargdefaults as "defaultCount",
    p.prorettype::int8 as "returnTypeId",
    nullif(rt.typrelid, 0)::int8 as "returnRelationId",
    p.proretset as "isSetReturning",
    case when p.proretset then nullif(p.prorows, 0) end as rows
  from pg_proc p
  join pg_namespace n on n.oid = p.pronamespace
  join pg_type rt on rt.oid = p.prorettype
  where n.nspname = any($1::text[]) and p.prokind = 'f'
    and rt.typname not in ('trigger', 'event_trigger')`;

const TYPES_SQL = `
  select t.oid::int8 as id, t.typname as name, n.nspname as schema,
    coalesce((select jsonb_agg(e.enumlabel order by e.enumsortorder)
      from pg_enum e where e.enumtypid = t.oid), '[]'::jsonb) as "enumLabels",
    coalesce((select jsonb_agg(jsonb_build_object('name', a.attname, 'typeId', a.atttypid::int8)
        order by a.attnum)
      from pg_class c join pg_attribute a on a.attrelid = c.oid
      where c.oid = t.typrelid and c.relkind = 'c' and a.attnum > 0 and not a.attisdropped),
      '[]'::jsonb) as attributes,
    nullif(t.typrelid, 0)::int8 as "relationId"
  from pg_type t join pg_namespace n on n.oid = t.typnamespace
  where t.typrelid = 0
    or (select c.relkind in ('c', 'r', 'p', 'v', 'm') from pg_class c where c.oid = t.typrelid)`;

interface FunctionRow extends Omit<FunctionInfo, 'args'> {
  argTypes: number[];
  argModes: string[] | null;
  argNames: string[] | null;
  inputCount: number;
  defaultCount: number;
}

const ARGUMENT_MODES: Record<string, FunctionArgument['mode']> = {
  i: 'in',
  o: 'out',
  b: 'inout',
  v: 'variadic',
  t: 'table',
};

/** The arguments in declaration order; the last `defaultCount` inputs have defaults. */
function toArguments(row: FunctionRow): FunctionArgument[] {
  const modes = row.argModes ?? row.argTypes.map(() => 'i');
  let inputsSeen = 0;
  return row.argTypes.map((typeId, index) => {
    const mode = ARGUMENT_MODES[modes[index] ?? 'i'] ?? 'in';
    const isInput = mode === 'in' || mode === 'inout' || mode === 'variadic';
    if (isInput) inputsSeen += 1;
    return {
      mode,
      name: row.argNames?.[index] ?? '',
      typeId,
      hasDefault: isInput && inputsSeen > row.inputCount - row.defaultCount,
    };
  });
}

export async function introspectSchema(
  db: Queryable,
  schemas: readonly string[] = ['public'],
): Promise<SchemaSnapshot> {
  const list = [...schemas];
  const relations = (await db.query<RelationInfo>(RELATIONS_SQL, [list])).rows;
  const columns = (await db.query<ColumnInfo>(COLUMNS_SQL, [list])).rows;
  const relationships = (await db.query<RelationshipInfo>(RELATIONSHIPS_SQL, [list])).rows;
  const functionRows = (await db.query<FunctionRow>(FUNCTIONS_SQL, [list])).rows;
  const types = (await db.query<TypeInfo>(TYPES_SQL)).rows;
  const functions = functionRows.map((row) => ({
    id: row.id,
    schema: row.schema,
    name: row.name,
    args: toArguments(row),
    returnTypeId: row.returnTypeId,
    returnRelationId: row.returnRelationId,
    isSetReturning: row.isSetReturning,
    rows: row.rows,
  }));
  return { schemas: list, relations, columns, relationships, functions, types };
}
