import type { ReadNode } from './plan/read-plan';
import type { Relation, SchemaCache } from './schema-cache';

/**
 * The SQL of a table or view read, kept per request shape (decision 032): a
 * repeated GET skips parsing the query string, planning and writing the SQL.
 *
 * An entry is keyed by everything the SQL and the response framing are made
 * from: the method, the schema (Accept-Profile), the relation's name, the role,
 * the Accept, Range and Prefer headers and the raw query string. Two requests
 * that differ in any of them never share an entry. The entries live with the
 * schema cache they were planned against (a WeakMap on that object): a reload
 * (NOTIFY pgrst, migrations) makes a new schema cache, so a new, empty one.
 *
 * Only successful plans are kept (a request that fails to parse or plan throws
 * before anything is stored), and only the plan: every request still verifies
 * its JWT, runs in its own transaction as its role with its claims, under
 * row-level security and the statement time-out.
 */

export interface CachedRead {
  relation: Relation;
  media: 'json' | 'object' | 'csv';
  stripNulls: boolean;
  /** The plan (read, never changed, after it was written out). */
  root: ReadNode;
  sql: string;
  /** The statement's parameters, from the query string and the Range header. */
  params: readonly unknown[];
  /**
   * For an entry kept under a template key: which parameter takes which of the
   * request's filter values ([parameter index, value index]); the other
   * parameters are the same for every request of the template.
   */
  slots?: readonly (readonly [number, number])[];
}

/** At most this many shapes per schema cache; the least recently used goes first. */
export const MAX_CACHED_READS = 500;
/** A longer key (a huge query string or header) is planned every time, never kept. */
export const MAX_READ_KEY_LENGTH = 8_192;

const byCache = new WeakMap<SchemaCache, Map<string, CachedRead>>();

export interface ReadShape {
  method: string;
  schema: string;
  name: string;
  role: string;
  accept: string | undefined;
  range: string | undefined;
  prefer: string | undefined;
  /** The request URL's query string as sent (after `?`). */
  query: string;
}

/** The entry's key, or undefined when the request is too large to keep. */
export function readKey(shape: ReadShape): string | undefined {
  // JSON of an array: no separator can be forged by a value (undefined becomes null).
  const key = JSON.stringify([
    shape.method,
    shape.schema,
    shape.name,
    shape.role,
    shape.accept,
    shape.range,
    shape.prefer,
    shape.query,
  ]);
  return key.length > MAX_READ_KEY_LENGTH ? undefined : key;
}

export function cachedRead(cache: SchemaCache, key: string): CachedRead | undefined {
  const entries = byCache.get(cache);
  const hit = entries?.get(key);
  if (hit && entries) {
    // Most recently used last.
    entries.delete(key);
    entries.set(key, hit);
  }
  return hit;
}

export function rememberRead(cache: SchemaCache, key: string, read: CachedRead): void {
  let entries = byCache.get(cache);
  if (!entries) {
    entries = new Map();
    byCache.set(cache, entries);
  }
  if (entries.size >= MAX_CACHED_READS && !entries.has(key)) {
    entries.delete(entries.keys().next().value!);
  }
  entries.set(key, read);
}

/**
 * A query string with the values of its plain top-level comparisons
 * (`id=eq.5`, `created_at=not.lt.2024-01-01`) taken out, so that reads of one
 * row by id share one plan. Only values made of characters that URL decoding
 * leaves alone are taken out (what is taken out is then exactly the filter's
 * value), and only for operators whose value becomes one parameter of the
 * SQL as it is. The caller proves it before keeping an entry: the template
 * planned with sentinel values must give the same SQL, the values only in
 * parameters (see `templateSlots`).
 */
export interface QueryTemplate {
  /** The query string with each value replaced by NUL (which no request's query string holds). */
  template: string;
  values: string[];
}

const TEMPLATED_FILTER =
  /^([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)=((?:not\.)?(?:eq|neq|gt|gte|lt|lte)\.)([A-Za-z0-9_\-.:@~]{1,256})$/;
const NOT_FILTERS = new Set([
  'select',
  'columns',
  'on_conflict',
  'order',
  'limit',
  'offset',
  'and',
  'or',
  'not',
]);

export function templateQuery(rawQuery: string): QueryTemplate | undefined {
  if (rawQuery.includes('#') || rawQuery.includes('\u0000')) return undefined;
  const values: string[] = [];
  const parts = rawQuery.split('&');
  for (let index = 0; index < parts.length; index += 1) {
    const match = TEMPLATED_FILTER.exec(parts[index]!);
    if (!match) continue;
    const name = match[1]!;
    if (NOT_FILTERS.has(name.slice(name.lastIndexOf('.') + 1))) continue;
    values.push(match[3]!);
    parts[index] = `${name}=${match[2]!}\u0000`;
  }
  return values.length === 0 ? undefined : { template: parts.join('&'), values };
}

/** The template's query string with these values put in. */
export function fillTemplate(template: string, values: readonly string[]): string {
  let index = 0;
  return template.replaceAll('\u0000', () => values[index++]!);
}

/** Values that no request's filter can hold, to plan a template with. */
export function sentinelValues(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `cervana0sentinel0${index}0`);
}

/**
 * Which parameter takes which value, when the plan with the request's values
 * and the plan with sentinel values differ only there: the SQL is the same, and
 * every parameter is either the same in both or the one value in one and its
 * sentinel in the other. Undefined otherwise (the template is not kept).
 */
export function templateSlots(
  actual: { sql: string; params: readonly unknown[]; values: readonly string[] },
  sentinel: { sql: string; params: readonly unknown[]; values: readonly string[] },
): [number, number][] | undefined {
  if (actual.sql !== sentinel.sql || actual.params.length !== sentinel.params.length) {
    return undefined;
  }
  const slots: [number, number][] = [];
  const used = new Set<number>();
  for (let index = 0; index < actual.params.length; index += 1) {
    const mine = actual.params[index];
    const theirs = sentinel.params[index];
    if (mine === theirs) continue;
    const value = sentinel.values.indexOf(theirs as string);
    if (value === -1 || actual.values[value] !== mine) return undefined;
    slots.push([index, value]);
    used.add(value);
  }
  // Every value taken out must be a parameter, or the SQL could depend on it.
  return used.size === actual.values.length ? slots : undefined;
}

/** The parameters of a kept template entry, with this request's values put in. */
export function filledParams(read: CachedRead, values: readonly string[]): unknown[] {
  const params = read.params.slice();
  for (const [index, value] of read.slots ?? []) params[index] = values[value];
  return params;
}

/** How many shapes are kept for this schema cache (for tests). */
export function cachedReadCount(cache: SchemaCache): number {
  return byCache.get(cache)?.size ?? 0;
}
