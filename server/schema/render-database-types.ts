import { format } from 'prettier';
import type {
  ColumnInfo,
  FunctionArgument,
  FunctionInfo,
  RelationInfo,
  RelationshipInfo,
  SchemaSnapshot,
  TypeInfo,
} from './introspect-schema';

/**
 * Renders a schema snapshot as the TypeScript module `supabase gen types
 * typescript` writes for supabase-js v2: `Json`, `Database` (Tables with
 * Row/Insert/Update/Relationships, Views, Functions, Enums, CompositeTypes per
 * schema), the `Tables`/`TablesInsert`/`TablesUpdate`/`Enums`/`CompositeTypes`
 * helpers and `Constants`, formatted as that generator formats it.
 * Not covered: views' relationships and the overload-conflict markers.
 */

export interface RenderOptions {
  /** Adds `__InternalSupabase.PostgrestVersion`, which tells supabase-js what the server supports. */
  postgrestVersion?: string;
  /** A comment for the top of the file. */
  header?: string;
}

const quote = (text: string) => JSON.stringify(text);
const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
const NONE = '[_ in never]: never';

const NUMBER_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric']);
const STRING_TYPES = new Set([
  'bytea',
  'bpchar',
  'varchar',
  'date',
  'text',
  'citext',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'uuid',
  'vector',
  'interval',
]);
/** json, jsonb and text: the types an unnamed single argument may have (PostgREST). */
const UNNAMED_ARGUMENT_TYPE_IDS = new Set([114, 3802, 25]);

function orNull(tsType: string, isNullable: boolean): string {
  return isNullable && tsType !== 'unknown' && tsType !== 'any' ? `${tsType} | null` : tsType;
}

export function createTypeMapper(snapshot: SchemaSnapshot) {
  const typesById = new Map(snapshot.types.map((type) => [type.id, type]));
  const isExposed = (schema: string) => snapshot.schemas.includes(schema);
  const prefer = <T extends { schema: string }>(candidates: T[], schema: string) =>
    candidates.find((candidate) => candidate.schema === schema) ?? candidates[0];

  /** A PostgreSQL type name as TypeScript, seen from `schema`. */
  function tsType(schema: string, pgName: string): string {
    if (pgName === 'bool') return 'boolean';
    if (NUMBER_TYPES.has(pgName)) return 'number';
    if (STRING_TYPES.has(pgName)) return 'string';
    if (pgName === 'json' || pgName === 'jsonb') return 'Json';
    if (pgName === 'void') return 'undefined';
    if (pgName === 'record') return 'Record<string, unknown>';
    if (pgName.startsWith('_')) return `(${tsType(schema, pgName.slice(1))})[]`;
    const named = (test: (type: TypeInfo) => boolean) =>
      prefer(
        snapshot.types.filter((type) => type.name === pgName && test(type)),
        schema,
      );
    const enumType = named((type) => type.enumLabels.length > 0);
    if (enumType) {
      return isExposed(enumType.schema)
        ? `Database[${quote(enumType.schema)}]["Enums"][${quote(enumType.name)}]`
        : enumType.enumLabels.map(quote).join(' | ');
    }
    const composite = named((type) => type.attributes.length > 0);
    if (composite) {
      return isExposed(composite.schema)
        ? `Database[${quote(composite.schema)}]["CompositeTypes"][${quote(composite.name)}]`
        : 'unknown';
    }
    for (const [kinds, section] of [
      [['table'], 'Tables'],
      [['view'], 'Views'],
    ] as const) {
      const relation = prefer(
        snapshot.relations.filter(
          (candidate) =>
            candidate.name === pgName && (kinds as readonly string[]).includes(candidate.kind),
        ),
        schema,
      );
      if (relation) {
        return `Database[${quote(relation.schema)}][${quote(section)}][${quote(relation.name)}]["Row"]`;
      }
    }
    return 'unknown';
  }

  function tsTypeOfId(schema: string, typeId: number): string {
    const type = typesById.get(typeId);
    return type ? tsType(schema, type.name) : 'unknown';
  }

  return { tsType, tsTypeOfId, typesById };
}

type TypeMapper = ReturnType<typeof createTypeMapper>;

function renderColumns(
  mapper: TypeMapper,
  schema: string,
  columns: ColumnInfo[],
  member: (column: ColumnInfo) => { isOptional: boolean; isNullable: boolean; isNever?: boolean },
): string {
  return columns
    .map((column) => {
      const { isOptional, isNullable, isNever } = member(column);
      const tsType = isNever ? 'never' : orNull(mapper.tsType(schema, column.format), isNullable);
      return `${quote(column.name)}${isOptional ? '?' : ''}: ${tsType}`;
    })
    .join('\n');
}

function renderRelationships(relationships: RelationshipInfo[]): string {
  return `[${relationships
    .map(
      (relationship) => `{
        foreignKeyName: ${quote(relationship.foreignKeyName)}
        columns: ${JSON.stringify(relationship.columns)}
        isOneToOne: ${relationship.isOneToOne}
        referencedRelation: ${quote(relationship.referencedRelation)}
        referencedColumns: ${JSON.stringify(relationship.referencedColumns)}
      },`,
    )
    .join('\n')}]`;
}

interface SchemaContext {
  snapshot: SchemaSnapshot;
  mapper: TypeMapper;
  schema: string;
  columnsOf: (relation: { id: number }) => ColumnInfo[];
  relationshipsOf: (relation: RelationInfo) => RelationshipInfo[];
  functions: ExposedFunction[];
}

interface ExposedFunction {
  fn: FunctionInfo;
  inputs: FunctionArgument[];
}

const isInput = (argument: FunctionArgument) =>
  argument.mode === 'in' || argument.mode === 'inout' || argument.mode === 'variadic';

/** Which functions PostgREST can call, as the Supabase generator decides it. */
function isCallable(inputs: FunctionArgument[], mapper: TypeMapper): boolean {
  const unnamed = inputs.filter((argument) => argument.name === '');
  if (unnamed.length === 0) return true;
  if (
    unnamed.every(
      (argument) => argument.hasDefault && UNNAMED_ARGUMENT_TYPE_IDS.has(argument.typeId),
    )
  ) {
    return true;
  }
  const only = inputs.length === 1 ? inputs[0] : undefined;
  if (!only || only.name !== '') return false;
  return (
    UNNAMED_ARGUMENT_TYPE_IDS.has(only.typeId) ||
    Boolean(mapper.typesById.get(only.typeId)?.relationId)
  );
}

/** The relation whose rows a function returns, by name. */
function relationName(context: SchemaContext, fn: FunctionInfo): string | null {
  if (fn.returnRelationId === null) return null;
  const relation = context.snapshot.relations.find((r) => r.id === fn.returnRelationId);
  if (relation) return relation.name;
  const rowType = context.mapper.typesById.get(fn.returnTypeId);
  return rowType?.relationId ? rowType.name : null;
}

function renderReturnType(context: SchemaContext, fn: FunctionInfo): string {
  const { mapper, schema } = context;
  const tableColumns = fn.args.filter((argument) => argument.mode === 'table');
  if (tableColumns.length > 0) {
    return `{\n${tableColumns
      .map((argument) => `${quote(argument.name)}: ${mapper.tsTypeOfId(schema, argument.typeId)}`)
      .join('\n')}\n}`;
  }
  const relation = context.snapshot.relations.find(
    (candidate) => candidate.schema === schema && candidate.id === fn.returnRelationId,
  );
  if (relation) {
    return `{\n${renderColumns(mapper, schema, context.columnsOf(relation), (column) => ({
      isOptional: false,
      isNullable: column.isNullable,
    }))}\n}`;
  }
  return mapper.tsTypeOfId(schema, fn.returnTypeId);
}

function renderSignature(context: SchemaContext, { fn, inputs }: ExposedFunction): string {
  const { mapper, schema } = context;
  const args =
    inputs.length === 0
      ? 'never'
      : `{ ${inputs
          .map(
            (argument) =>
              `${quote(argument.name)}${argument.hasDefault ? '?' : ''}: ${mapper.tsTypeOfId(schema, argument.typeId)}`,
          )
          .join('\n')} }`;
  const only = inputs.length === 1 ? inputs[0] : undefined;
  const rowArgument = fn.args.length === 1 ? mapper.typesById.get(fn.args[0]!.typeId) : undefined;
  const target = relationName(context, fn);
  if (only && only.name === '' && mapper.typesById.get(only.typeId)?.relationId && !target) {
    const message = `the function ${schema}.${fn.name} with parameter or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache`;
    return `{ Args: ${args}\nReturns: { error: true } & ${quote(message)} }`;
  }
  const returnsManyRows = fn.rows !== null && fn.rows > 1;
  let setofOptions = '';
  if (target) {
    let from = '"*"';
    let isOneToOne = !returnsManyRows;
    let isSetofReturn = fn.isSetReturning;
    if (rowArgument?.relationId) {
      from = quote(rowArgument.name);
      if (!fn.isSetReturning || fn.returnRelationId === null) {
        isOneToOne = true;
        isSetofReturn = false;
      } else {
        isSetofReturn = true;
      }
    }
    setofOptions = `\nSetofOptions: {\nfrom: ${from}\nto: ${quote(target)}\nisOneToOne: ${isOneToOne}\nisSetofReturn: ${isSetofReturn} }`;
  }
  const collapses = !returnsManyRows && target !== null;
  const isArray = fn.isSetReturning && !collapses;
  return `{ Args: ${args}\nReturns: ${renderReturnType(context, fn)}${isArray ? '[]' : ''}${setofOptions} }`;
}

function renderFunctions(context: SchemaContext): string {
  if (context.functions.length === 0) return NONE;
  const groups = new Map<string, ExposedFunction[]>();
  for (const entry of context.functions) {
    groups.set(entry.fn.name, [...(groups.get(entry.fn.name) ?? []), entry]);
  }
  const signatureKey = (entry: ExposedFunction) =>
    entry.fn.args.map((argument) => `${argument.name} ${argument.typeId}`).join(', ');
  return [...groups]
    .map(
      ([name, entries]) =>
        `${quote(name)}: ${entries
          .sort((a, b) => signatureKey(a).localeCompare(signatureKey(b)))
          .map((entry) => renderSignature(context, entry))
          .join(' |\n')}`,
    )
    .join('\n');
}

function renderTable(context: SchemaContext, table: RelationInfo): string {
  const { mapper, schema } = context;
  const columns = context.columnsOf(table);
  const computedFields = context.functions
    .filter(
      ({ fn }) =>
        fn.args.length === 1 &&
        fn.args[0]!.name === '' &&
        mapper.typesById.get(fn.args[0]!.typeId)?.relationId === table.id,
    )
    .map(({ fn }) => `${quote(fn.name)}: ${orNull(renderReturnType(context, fn), true)}`);
  const isAlways = (column: ColumnInfo) => column.identityGeneration === 'ALWAYS';
  return `${quote(table.name)}: {
    Row: {
      ${[
        renderColumns(mapper, schema, columns, (column) => ({
          isOptional: false,
          isNullable: column.isNullable,
        })),
        ...computedFields,
      ].join('\n')}
    }
    Insert: {
      ${renderColumns(mapper, schema, columns, (column) => ({
        isOptional: column.isNullable || column.isIdentity || column.hasDefault || isAlways(column),
        isNullable: column.isNullable,
        isNever: isAlways(column),
      }))}
    }
    Update: {
      ${renderColumns(mapper, schema, columns, (column) => ({
        isOptional: true,
        isNullable: column.isNullable,
        isNever: isAlways(column),
      }))}
    }
    Relationships: ${renderRelationships(context.relationshipsOf(table))}
  }`;
}

function renderView(context: SchemaContext, view: RelationInfo): string {
  const { mapper, schema } = context;
  const columns = context.columnsOf(view);
  const writable = (column: ColumnInfo) => ({
    isOptional: true,
    isNullable: true,
    isNever: !column.isUpdatable,
  });
  const writes = view.isUpdatable
    ? `Insert: {\n${renderColumns(mapper, schema, columns, writable)}\n}
       Update: {\n${renderColumns(mapper, schema, columns, writable)}\n}`
    : '';
  return `${quote(view.name)}: {
    Row: {
      ${renderColumns(mapper, schema, columns, (column) => ({
        isOptional: false,
        isNullable: column.isNullable,
      }))}
    }
    ${writes}
    Relationships: ${renderRelationships(context.relationshipsOf(view))}
  }`;
}

function renderSchema(context: SchemaContext): string {
  const { snapshot, schema, mapper } = context;
  const inSchema = (relation: RelationInfo) => relation.schema === schema;
  const tables = snapshot.relations.filter((r) => inSchema(r) && r.kind === 'table').sort(byName);
  const views = snapshot.relations.filter((r) => inSchema(r) && r.kind !== 'table').sort(byName);
  const types = snapshot.types.filter((type) => type.schema === schema).sort(byName);
  const enums = types.filter((type) => type.enumLabels.length > 0);
  const composites = types.filter((type) => type.attributes.length > 0);
  const section = (items: string[]) => (items.length === 0 ? NONE : items.join('\n'));
  return `${quote(schema)}: {
    Tables: {\n${section(tables.map((table) => renderTable(context, table)))}\n}
    Views: {\n${section(views.map((view) => renderView(context, view)))}\n}
    Functions: {\n${renderFunctions(context)}\n}
    Enums: {\n${section(enums.map((type) => `${quote(type.name)}: ${type.enumLabels.map(quote).join(' | ')}`))}\n}
    CompositeTypes: {\n${section(
      composites.map(
        (type) =>
          `${quote(type.name)}: {\n${type.attributes
            .map(
              (attribute) =>
                `${quote(attribute.name)}: ${orNull(mapper.tsTypeOfId(schema, attribute.typeId), true)}`,
            )
            .join('\n')}\n}`,
      ),
    )}\n}
  }`;
}

export async function renderDatabaseTypes(
  snapshot: SchemaSnapshot,
  options: RenderOptions = {},
): Promise<string> {
  const mapper = createTypeMapper(snapshot);
  const schemas = [...snapshot.schemas].sort((a, b) => a.localeCompare(b));
  const columnsByRelation = new Map<number, ColumnInfo[]>();
  for (const column of snapshot.columns) {
    columnsByRelation.set(column.relationId, [
      ...(columnsByRelation.get(column.relationId) ?? []),
      column,
    ]);
  }
  const relationships = [...snapshot.relationships].sort(
    (a, b) =>
      a.foreignKeyName.localeCompare(b.foreignKeyName) ||
      a.referencedRelation.localeCompare(b.referencedRelation) ||
      JSON.stringify(a.referencedColumns).localeCompare(JSON.stringify(b.referencedColumns)),
  );
  const contextFor = (schema: string): SchemaContext => ({
    snapshot,
    mapper,
    schema,
    columnsOf: (relation) => [...(columnsByRelation.get(relation.id) ?? [])].sort(byName),
    relationshipsOf: (relation) =>
      relationships.filter(
        (r) =>
          r.schema === relation.schema &&
          r.relation === relation.name &&
          r.referencedSchema === relation.schema,
      ),
    functions: snapshot.functions
      .filter((fn) => fn.schema === schema)
      .map((fn) => ({ ...fn, args: [...fn.args].sort(byName) }))
      .map((fn) => ({ fn, inputs: fn.args.filter(isInput) }))
      .filter(({ inputs }) => isCallable(inputs, mapper))
      .sort((a, b) => a.fn.name.localeCompare(b.fn.name)),
  });
  const internal = options.postgrestVersion
    ? `// Allows to automatically instantiate createClient with right options
       // instead of createClient<Database, { PostgrestVersion: 'XX' }>(URL, KEY)
       __InternalSupabase: {\nPostgrestVersion: ${quote(options.postgrestVersion)}\n}\n`
    : '';
  const defaultSchema = schemas.includes('public') ? 'public' : (schemas[0] ?? 'public');
  const constants = schemas.map((schema) => {
    const enums = snapshot.types
      .filter((type) => type.schema === schema && type.enumLabels.length > 0)
      .sort(byName);
    return `${quote(schema)}: {\nEnums: {\n${enums
      .map((type) => `${quote(type.name)}: [${type.enumLabels.map(quote).join(', ')}]`)
      .join(',\n')}\n},\n}`;
  });
  const source = `${options.header ? `${options.header}\n\n` : ''}
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  ${internal}${schemas.map((schema) => renderSchema(contextFor(schema))).join('\n')}
}

${helperTypes(defaultSchema)}

export const Constants = {\n${constants.join(',\n')},\n} as const
`;
  return format(source, { parser: 'typescript', semi: false });
}

/** The generic helpers the Supabase generator appends, for the default schema. */
function helperTypes(defaultSchema: string): string {
  const lookup = (kind: 'Tables' | 'Enums' | 'CompositeTypes', name: string, part?: string) => `
export type ${name}<
  DefaultSchemaNameOrOptions extends
    | keyof DefaultSchema[${quote(kind)}]
    | { schema: keyof DatabaseWithoutInternals },
  Name extends DefaultSchemaNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
    ? keyof DatabaseWithoutInternals[DefaultSchemaNameOrOptions["schema"]][${quote(kind)}]
    : never = never,
> = DefaultSchemaNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? ${part ? `DatabaseWithoutInternals[DefaultSchemaNameOrOptions["schema"]][${quote(kind)}][Name] extends { ${part}: infer R } ? R : never` : `DatabaseWithoutInternals[DefaultSchemaNameOrOptions["schema"]][${quote(kind)}][Name]`}
  : DefaultSchemaNameOrOptions extends keyof DefaultSchema[${quote(kind)}]
    ? ${part ? `DefaultSchema[${quote(kind)}][DefaultSchemaNameOrOptions] extends { ${part}: infer R } ? R : never` : `DefaultSchema[${quote(kind)}][DefaultSchemaNameOrOptions]`}
    : never
`;
  return `
type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, ${quote(defaultSchema)}>]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends { Row: infer R }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] & DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends { Row: infer R }
      ? R
      : never
    : never
${lookup('Tables', 'TablesInsert', 'Insert')}
${lookup('Tables', 'TablesUpdate', 'Update')}
${lookup('Enums', 'Enums')}
${lookup('CompositeTypes', 'CompositeTypes')}`;
}
