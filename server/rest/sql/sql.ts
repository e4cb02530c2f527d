/** SQL text helpers: identifiers from the schema cache are quoted, values are always bound. */

export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function qualified(schema: string, name: string): string {
  return `${ident(schema)}.${ident(name)}`;
}

/**
 * A string literal, for the few SQL texts that must be literal (JSON path keys,
 * default expressions' keys). NUL cannot be represented and is refused.
 */
export function literal(value: string): string {
  if (value.includes('\u0000')) throw new Error('NUL in literal');
  return `'${value.replace(/'/g, "''")}'`;
}

/** Collects bound parameters; `add` returns the placeholder. Values are text, left for PostgreSQL to type. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    if (typeof value === 'string' && value.includes('\u0000')) {
      // PostgreSQL text cannot hold NUL; PostgREST strips it the same way.
      value = value.replaceAll('\u0000', '');
    }
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** PostgreSQL's array literal for a list of text values, every element quoted (PostgREST's pgBuildArrayLiteral). */
export function arrayLiteral(values: string[]): string {
  return `{${values
    .map(
      (value) => `"${value.replaceAll('\u0000', '').replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
    )
    .join(',')}}`;
}
