import type { Queryable } from '../db/database';
import type { Logger } from '../logger';
import { loadDbSettings, type DbSettings } from './db-settings';
import { addViewKeys } from './view-keys';

/**
 * What /rest/v1 knows of the database: the relations, columns, keys and
 * functions of the exposed schemas. Every identifier that reaches SQL is
 * looked up here first, so a query string can only ever name what exists.
 * Reloaded after migrations and on `NOTIFY pgrst, 'reload schema'`.
 */

export interface Column {
  name: string;
  /** format_type(): `integer`, `character varying(20)`, `text[]`, `public.user_status`. */
  type: string;
  /** The base type's name (`int4`, `text`, `_text`, `tsvector`). */
  typeName: string;
  typeCategory: string;
  isNullable: boolean;
  /** The DEFAULT expression, as PostgreSQL prints it. */
  defaultExpression: string | null;
  isGenerated: boolean;
  /** `a` (always) or `d` (by default) identity, else ''. */
  identity: string;
  enumValues: string[];
  position: number;
}

export interface Relation {
  schema: string;
  name: string;
  /** r table, p partitioned table, v view, m materialized view, f foreign table. */
  kind: 'r' | 'p' | 'v' | 'm' | 'f';
  isInsertable: boolean;
  isUpdatable: boolean;
  isDeletable: boolean;
  columns: Map<string, Column>;
  primaryKey: string[];
  /** Unique constraints and indexes (column lists), the primary key included. */
  uniqueKeys: string[][];
  description: string | null;
}

export interface ForeignKey {
  name: string;
  schema: string;
  table: string;
  columns: string[];
  referencedSchema: string;
  referencedTable: string;
  referencedColumns: string[];
}

export interface RoutineParameter {
  name: string;
  type: string;
  typeName: string;
  hasDefault: boolean;
  isVariadic: boolean;
}

export interface Routine {
  schema: string;
  name: string;
  parameters: RoutineParameter[];
  /** OUT / INOUT / TABLE columns, for functions returning an anonymous record. */
  outputs: { name: string; type: string; typeName: string }[];
  /** format_type() of the return type. */
  returnType: string;
  returnTypeName: string;
  /** The relation a composite return type belongs to (`setof users`, `users`), if any. */
  returnsRelation: { schema: string; name: string } | null;
  /** A composite type without a table (RETURNS TABLE(...) or OUT parameters). */
  returnsCompositeWithoutRelation: boolean;
  returnsSet: boolean;
  returnsVoid: boolean;
  volatility: 'i' | 's' | 'v';
  description: string | null;
}

/**
 * A computed relationship (PostgREST 12): a function of exactly one argument,
 * the row type of a relation, returning another relation's row type (`B`, or
 * `SETOF B ROWS 1`: to-one) or a set of them (to-many). Embedded by the
 * function's name, called with the parent row.
 */
export interface ComputedRelationship {
  functionSchema: string;
  functionName: string;
  sourceSchema: string;
  sourceName: string;
  targetSchema: string;
  targetName: string;
  singleRow: boolean;
}

export interface SchemaCache {
  schemas: string[];
  relations: Map<string, Relation>;
  foreignKeys: ForeignKey[];
  routines: Map<string, Routine[]>;
  /** Computed relationships whose function, source and target are all in the exposed schemas. */
  computedRelationships?: ComputedRelationship[];
  /**
   * PostgREST's in-database settings (`alter role authenticator set
   * pgrst.db_aggregates_enabled to 'true'`, as Supabase documents them).
   */
  aggregatesEnabled?: boolean;
  /** All of PostgREST's in-database settings we honour (db-settings.ts); defaults when absent. */
  settings?: DbSettings;
  loadedAt: number;
}

export function qualifiedName(schema: string, name: string): string {
  return `${schema}.${name}`;
}

interface RelationRow {
  schema: string;
  name: string;
  kind: Relation['kind'];
  updatable_mask: number;
  description: string | null;
}

interface ColumnRow {
  schema: string;
  table: string;
  name: string;
  position: number;
  type: string;
  type_name: string;
  type_category: string;
  nullable: boolean;
  default_expression: string | null;
  generated: boolean;
  identity: string;
  enum_values: string[] | null;
}

interface KeyRow {
  schema: string;
  table: string;
  kind: 'p' | 'u' | 'i';
  columns: string[];
}

interface ForeignKeyRow {
  name: string;
  schema: string;
  table: string;
  columns: string[];
  referenced_schema: string;
  referenced_table: string;
  referenced_columns: string[];
}

interface ComputedRelationshipRow {
  function_schema: string;
  function_name: string;
  source_schema: string;
  source_name: string;
  target_schema: string;
  target_name: string;
  single_row: boolean;
}

interface RoutineRow {
  schema: string;
  name: string;
  argument_names: string[] | null;
  argument_types: string[];
  argument_type_names: string[];
  argument_modes: string[] | null;
  default_count: number;
  input_count: number;
  return_type: string;
  return_type_name: string;
  return_typtype: string;
  return_relation_schema: string | null;
  return_relation_name: string | null;
  returns_set: boolean;
  volatility: 'i' | 's' | 'v';
  variadic: boolean;
  description: string | null;
}

export async function loadSchemaCache(
  db: Queryable,
  schemas: string[],
  logger?: Pick<Logger, 'warn'>,
): Promise<SchemaCache> {
  const relationRows = await db.query<RelationRow>(
    `select n.nspname as schema, c.relname as name, c.relkind as kind,
            pg_relation_is_updatable(c.oid::regclass, true) as updatable_mask,
            obj_description(c.oid, 'pg_class') as description
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1::text[]) and c.relkind in ('r', 'p', 'v', 'm', 'f')
       and not c.relispartition`,
    [schemas],
  );
  const columnRows = await db.query<ColumnRow>(
    `select n.nspname as schema, c.relname as table, a.attname as name, a.attnum as position,
            format_type(a.atttypid, a.atttypmod) as type, t.typname as type_name,
            t.typcategory as type_category, not a.attnotnull as nullable,
            -- as PostgREST: a domain's default, an identity's sequence, never a generated column's expression
            case
              when t.typbasetype <> 0 and d.adbin is null then pg_get_expr(t.typdefaultbin, 0)
              when a.attidentity = 'd' then
                format('nextval(%L)', pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname))
              when a.attgenerated = 's' then null
              else pg_get_expr(d.adbin, d.adrelid)
            end as default_expression,
            a.attgenerated <> '' as generated, a.attidentity::text as identity,
            case when t.typtype = 'e' then
              array(select e.enumlabel::text from pg_enum e where e.enumtypid = t.oid order by e.enumsortorder)
            end as enum_values
     from pg_attribute a
     join pg_class c on c.oid = a.attrelid
     join pg_namespace n on n.oid = c.relnamespace
     join pg_type t on t.oid = a.atttypid
     left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where n.nspname = any($1::text[]) and c.relkind in ('r', 'p', 'v', 'm', 'f')
       and a.attnum > 0 and not a.attisdropped
     order by n.nspname, c.relname, a.attnum`,
    [schemas],
  );
  const keyRows = await db.query<KeyRow>(
    `select n.nspname as schema, c.relname as table, k.contype::text as kind,
            array(select a.attname::text from unnest(k.conkey) with ordinality u(attnum, ord)
                  join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum order by u.ord) as columns
     from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1::text[]) and k.contype in ('p', 'u')
     union all
     select n.nspname, c.relname, 'i',
            array(select a.attname::text from unnest(i.indkey) with ordinality u(attnum, ord)
                  join pg_attribute a on a.attrelid = i.indrelid and a.attnum = u.attnum order by u.ord)
     from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1::text[]) and i.indisunique and i.indpred is null and i.indexprs is null
       and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
    [schemas],
  );
  const foreignKeyRows = await db.query<ForeignKeyRow>(
    `select k.conname as name, n.nspname as schema, c.relname as table,
            array(select a.attname::text from unnest(k.conkey) with ordinality u(attnum, ord)
                  join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum order by u.ord) as columns,
            fn.nspname as referenced_schema, fc.relname as referenced_table,
            array(select a.attname::text from unnest(k.confkey) with ordinality u(attnum, ord)
                  join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.attnum order by u.ord) as referenced_columns
     from pg_constraint k
     join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
     join pg_class fc on fc.oid = k.confrelid join pg_namespace fn on fn.oid = fc.relnamespace
     where k.contype = 'f' and k.conparentid = 0
       and n.nspname = any($1::text[]) and fn.nspname = any($1::text[])
     order by n.nspname, c.relname, k.conname`,
    [schemas],
  );
  const routineRows = await db.query<RoutineRow>(
    `select n.nspname as schema, p.proname as name,
            p.proargnames as argument_names,
            array(select format_type(x, null) from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality u(x, o) order by o) as argument_types,
            array(select t.typname::text from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality u(x, o)
                  join pg_type t on t.oid = u.x order by o) as argument_type_names,
            p.proargmodes::text[] as argument_modes,
            p.pronargdefaults as default_count, p.pronargs as input_count,
            format_type(p.prorettype, null) as return_type, rt.typname as return_type_name,
            rt.typtype::text as return_typtype,
            rn.nspname as return_relation_schema, rc.relname as return_relation_name,
            p.proretset as returns_set, p.provolatile::text as volatility,
            p.provariadic <> 0 as variadic,
            obj_description(p.oid, 'pg_proc') as description
     from pg_proc p
     join pg_namespace n on n.oid = p.pronamespace
     join pg_type rt on rt.oid = p.prorettype
     left join pg_class rc on rc.oid = rt.typrelid and rc.relkind <> 'c'
     left join pg_namespace rn on rn.oid = rc.relnamespace
     where n.nspname = any($1::text[]) and p.prokind = 'f'`,
    [schemas],
  );
  // PostgREST's allComputedRels: one argument, a relation's row type; returns a relation's row type.
  const computedRows = await db.query<ComputedRelationshipRow>(
    `select n.nspname as function_schema, p.proname as function_name,
            an.nspname as source_schema, ac.relname as source_name,
            rn.nspname as target_schema, rc.relname as target_name,
            (not p.proretset or p.prorows = 1) as single_row
     from pg_proc p
     join pg_namespace n on n.oid = p.pronamespace
     join pg_class ac on ac.reltype = p.proargtypes[0] and ac.relkind in ('r', 'p', 'v', 'm', 'f')
     join pg_namespace an on an.oid = ac.relnamespace
     join pg_class rc on rc.reltype = p.prorettype and rc.relkind in ('r', 'p', 'v', 'm', 'f')
     join pg_namespace rn on rn.oid = rc.relnamespace
     where p.prokind = 'f' and p.pronargs = 1
       and n.nspname = any($1::text[]) and an.nspname = any($1::text[]) and rn.nspname = any($1::text[])
     order by n.nspname, p.proname, an.nspname, ac.relname`,
    [schemas],
  );
  const computedRelationships: ComputedRelationship[] = computedRows.rows.map((row) => ({
    functionSchema: row.function_schema,
    functionName: row.function_name,
    sourceSchema: row.source_schema,
    sourceName: row.source_name,
    targetSchema: row.target_schema,
    targetName: row.target_name,
    singleRow: row.single_row,
  }));

  const relations = new Map<string, Relation>();
  for (const row of relationRows.rows) {
    const mask = Number(row.updatable_mask);
    const isTable = row.kind === 'r' || row.kind === 'p';
    relations.set(qualifiedName(row.schema, row.name), {
      schema: row.schema,
      name: row.name,
      kind: row.kind,
      // pg_relation_is_updatable bits: 4 INSERT, 8 UPDATE, 16 DELETE.
      isInsertable: isTable || (mask & 4) === 4,
      isUpdatable: isTable || (mask & 8) === 8,
      isDeletable: isTable || (mask & 16) === 16,
      columns: new Map(),
      primaryKey: [],
      uniqueKeys: [],
      description: row.description,
    });
  }
  for (const row of columnRows.rows) {
    const relation = relations.get(qualifiedName(row.schema, row.table));
    if (!relation) continue;
    relation.columns.set(row.name, {
      name: row.name,
      type: row.type,
      typeName: row.type_name,
      typeCategory: row.type_category,
      isNullable: row.nullable,
      defaultExpression: row.default_expression,
      isGenerated: row.generated,
      identity: row.identity,
      enumValues: row.enum_values ?? [],
      position: Number(row.position),
    });
  }
  for (const row of keyRows.rows) {
    const relation = relations.get(qualifiedName(row.schema, row.table));
    if (!relation) continue;
    if (row.kind === 'p') relation.primaryKey = row.columns;
    relation.uniqueKeys.push(row.columns);
  }
  const foreignKeys: ForeignKey[] = foreignKeyRows.rows.map((row) => ({
    name: row.name,
    schema: row.schema,
    table: row.table,
    columns: row.columns,
    referencedSchema: row.referenced_schema,
    referencedTable: row.referenced_table,
    referencedColumns: row.referenced_columns,
  }));
  await addViewKeys(db, relations, foreignKeys);

  const routines = new Map<string, Routine[]>();
  for (const row of routineRows.rows) {
    const modes = row.argument_modes ?? row.argument_types.map(() => 'i');
    const inputs: RoutineParameter[] = [];
    const outputs: Routine['outputs'] = [];
    const inputCount = Number(row.input_count);
    const defaultCount = Number(row.default_count);
    row.argument_types.forEach((type, index) => {
      const mode = modes[index] ?? 'i';
      if (mode === 'o' || mode === 'b' || mode === 't') {
        outputs.push({
          name: row.argument_names?.[index] ?? '',
          type,
          typeName: row.argument_type_names[index] ?? '',
        });
      }
      if (mode !== 'i' && mode !== 'b' && mode !== 'v') return;
      inputs.push({
        name: row.argument_names?.[index] ?? '',
        type,
        typeName: row.argument_type_names[index] ?? '',
        hasDefault: false,
        isVariadic: mode === 'v',
      });
    });
    inputs.forEach((parameter, index) => {
      parameter.hasDefault = index >= inputCount - defaultCount;
    });
    const key = qualifiedName(row.schema, row.name);
    const list = routines.get(key) ?? [];
    list.push({
      schema: row.schema,
      name: row.name,
      parameters: inputs,
      outputs,
      returnType: row.return_type,
      returnTypeName: row.return_type_name,
      returnsRelation:
        row.return_relation_schema && row.return_relation_name
          ? { schema: row.return_relation_schema, name: row.return_relation_name }
          : null,
      returnsCompositeWithoutRelation:
        (row.return_typtype === 'c' && !row.return_relation_name) ||
        row.return_type_name === 'record',
      returnsSet: row.returns_set,
      returnsVoid: row.return_type_name === 'void',
      volatility: row.volatility,
      description: row.description,
    });
    routines.set(key, list);
  }

  const settings = await loadDbSettings(db, logger);

  return {
    schemas,
    relations,
    foreignKeys,
    routines,
    computedRelationships,
    aggregatesEnabled: settings.aggregatesEnabled,
    settings,
    loadedAt: Date.now(),
  };
}
