import type { Queryable } from '../db/database';
import type { ForeignKey, Relation } from './schema-cache';

const qualifiedName = (schema: string, name: string) => `${schema}.${name}`;

/**
 * Views inherit their base tables' keys and foreign keys, as in PostgREST
 * (its view key dependencies): a view column that is a plain reference to a
 * table column stands for it, so a view embeds and is embedded like its table,
 * and has its table's primary and unique keys when it shows all their columns.
 *
 * The column origins come from each view's query tree (pg_rewrite.ev_action):
 * PostgreSQL records `resorigtbl`/`resorigcol` on every output column that is a
 * simple column reference. Views over views are followed to the table.
 */

interface ViewRow {
  oid: number;
  schema: string;
  name: string;
  action: string;
}

interface AttributeRow {
  oid: number;
  attnum: number;
  column: string;
}

interface KeyRow {
  oid: number;
  kind: 'p' | 'u' | 'f';
  name: string;
  columns: number[];
  referenced: number | null;
  referenced_columns: number[] | null;
  schema: string;
  table: string;
  column_names: string[];
  referenced_schema: string | null;
  referenced_table: string | null;
  referenced_column_names: string[] | null;
}

/** Origin of each output column of the view's top-level query: resname → [table oid, attnum]. */
export function viewColumnOrigins(action: string): Map<string, [number, number]> {
  const origins = new Map<string, [number, number]>();
  const entry =
    /:resname ((?:\\.|[^\s\\}])+) :ressortgroupref \d+ :resorigtbl (\d+) :resorigcol (\d+)/g;
  // The top-level target list comes last in the tree: later entries win over subqueries'.
  for (const match of action.matchAll(entry)) {
    const table = Number(match[2]);
    const column = Number(match[3]);
    const name = match[1]!.replace(/\\(.)/g, '$1');
    if (table === 0 || column === 0) origins.delete(name);
    else origins.set(name, [table, column]);
  }
  return origins;
}

/**
 * Adds to `foreignKeys` the foreign keys views inherit, and to views in
 * `relations` the keys they inherit. Only exposed relations matter in the end;
 * tables behind them may live in any schema.
 */
export async function addViewKeys(
  db: Queryable,
  relations: Map<string, Relation>,
  foreignKeys: ForeignKey[],
): Promise<void> {
  if (![...relations.values()].some((relation) => relation.kind === 'v')) return;
  const viewRows = await db.query<ViewRow>(
    `select c.oid::int8 as oid, n.nspname as schema, c.relname as name, r.ev_action::text as action
     from pg_rewrite r join pg_class c on c.oid = r.ev_class join pg_namespace n on n.oid = c.relnamespace
     where r.rulename = '_RETURN' and c.relkind = 'v'
       and n.nspname not in ('pg_catalog', 'information_schema')`,
  );
  const originsByView = new Map<number, Map<string, [number, number]>>();
  for (const row of viewRows.rows)
    originsByView.set(Number(row.oid), viewColumnOrigins(row.action));

  // Follow views over views down to a table column.
  const attributeNames = new Map<string, string>();
  const resolve = (table: number, attnum: number, depth = 0): [number, number] | undefined => {
    const inner = originsByView.get(table);
    if (!inner) return [table, attnum];
    if (depth > 16) return undefined;
    const name = attributeNames.get(`${table}:${attnum}`);
    const next = name === undefined ? undefined : inner.get(name);
    return next ? resolve(next[0], next[1], depth + 1) : undefined;
  };

  const oids = new Set<number>();
  for (const origins of originsByView.values())
    for (const [table] of origins.values()) oids.add(table);
  for (const oid of originsByView.keys()) oids.add(oid);
  const attributeRows = await db.query<AttributeRow>(
    `select a.attrelid::int8 as oid, a.attnum::int as attnum, a.attname::text as column
     from pg_attribute a
     where a.attrelid = any($1::oid[]) and a.attnum > 0 and not a.attisdropped`,
    [[...oids]],
  );
  for (const row of attributeRows.rows)
    attributeNames.set(`${Number(row.oid)}:${row.attnum}`, row.column);

  // For each exposed view: base table oid → (table attnum → view column).
  const exposed: { relation: Relation; byTable: Map<number, Map<number, string>> }[] = [];
  for (const row of viewRows.rows) {
    const relation = relations.get(qualifiedName(row.schema, row.name));
    if (!relation || relation.kind !== 'v') continue;
    const byTable = new Map<number, Map<number, string>>();
    for (const [column, [table, attnum]] of originsByView.get(Number(row.oid)) ?? []) {
      if (!relation.columns.has(column)) continue;
      const origin = resolve(table, attnum);
      if (!origin) continue;
      const columns = byTable.get(origin[0]) ?? new Map<number, string>();
      if (!columns.has(origin[1])) columns.set(origin[1], column);
      byTable.set(origin[0], columns);
    }
    if (byTable.size > 0) exposed.push({ relation, byTable });
  }
  if (exposed.length === 0) return;

  const baseOids = new Set<number>();
  for (const view of exposed) for (const oid of view.byTable.keys()) baseOids.add(oid);
  const keyRows = await db.query<KeyRow>(
    `select k.conrelid::int8 as oid, k.contype::text as kind, k.conname as name,
            k.conkey::int[] as columns, k.confrelid::int8 as referenced, k.confkey::int[] as referenced_columns,
            n.nspname as schema, c.relname as table,
            array(select a.attname::text from unnest(k.conkey) with ordinality u(attnum, ord)
                  join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum order by u.ord) as column_names,
            fn.nspname as referenced_schema, fc.relname as referenced_table,
            array(select a.attname::text from unnest(k.confkey) with ordinality u(attnum, ord)
                  join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.attnum order by u.ord) as referenced_column_names
     from pg_constraint k
     join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
     left join pg_class fc on fc.oid = k.confrelid left join pg_namespace fn on fn.oid = fc.relnamespace
     where k.contype in ('p', 'u', 'f') and (k.conrelid = any($1::oid[]) or k.confrelid = any($1::oid[]))
       and (k.contype <> 'f' or k.conparentid = 0)`,
    [[...baseOids]],
  );

  const mapColumns = (
    columns: Map<number, string> | undefined,
    attnums: number[],
  ): string[] | undefined => {
    if (!columns) return undefined;
    const names = attnums.map((attnum) => columns.get(attnum));
    return names.every((name): name is string => name !== undefined) ? names : undefined;
  };
  for (const key of keyRows.rows) {
    const table = Number(key.oid);
    if (key.kind === 'p' || key.kind === 'u') {
      for (const view of exposed) {
        const columns = mapColumns(view.byTable.get(table), key.columns);
        if (!columns) continue;
        if (key.kind === 'p' && view.relation.primaryKey.length === 0)
          view.relation.primaryKey = columns;
        view.relation.uniqueKeys.push(columns);
      }
      continue;
    }
    const referenced = Number(key.referenced);
    const referencedAttnums = key.referenced_columns ?? [];
    // Each side: the table itself (when known) and every view showing the key's columns.
    const sides = (
      oid: number,
      attnums: number[],
      base: { schema: string; name: string; columns: string[] },
    ) => {
      const result = [base];
      for (const view of exposed) {
        const columns = mapColumns(view.byTable.get(oid), attnums);
        if (columns)
          result.push({ schema: view.relation.schema, name: view.relation.name, columns });
      }
      return result;
    };
    const from = sides(table, key.columns, {
      schema: key.schema,
      name: key.table,
      columns: key.column_names,
    });
    const to = sides(referenced, referencedAttnums, {
      schema: key.referenced_schema ?? '',
      name: key.referenced_table ?? '',
      columns: key.referenced_column_names ?? [],
    });
    for (const source of from) {
      for (const target of to) {
        const isView = (side: { schema: string; name: string }) =>
          relations.get(qualifiedName(side.schema, side.name))?.kind === 'v';
        if (!isView(source) && !isView(target)) continue; // the table's own key is loaded already
        foreignKeys.push({
          name: key.name,
          schema: source.schema,
          table: source.name,
          columns: source.columns,
          referencedSchema: target.schema,
          referencedTable: target.name,
          referencedColumns: target.columns,
        });
      }
    }
  }
}
