/** SQL text helpers: identifiers from the schema cache are quoted, values are always bound. */

/** PostgREST's trimNullChars: a name or literal ends at its first NUL (SQL text cannot hold one). */
function upToNul(text: string): string {
  const end = text.indexOf('\u0000');
  return end === -1 ? text : text.slice(0, end);
}

export function ident(name: string): string {
  return `"${upToNul(name).replace(/"/g, '""')}"`;
}

export function qualified(schema: string, name: string): string {
  return `${ident(schema)}.${ident(name)}`;
}

/**
 * A string literal, for the few SQL texts that must be literal (JSON path keys,
 * default expressions' keys). NUL cannot be represented: cut there, as PostgREST's pgFmtLit does.
 */
export function literal(value: string): string {
  return `'${upToNul(value).replace(/'/g, "''")}'`;
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
