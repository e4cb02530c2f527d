import { createHash } from 'node:crypto';
import { DatabaseError, type Database, type PipelinedStatement } from '../db/database';
import type { Logger } from '../logger';
import type {
  ChangeSubscription,
  ChannelAuth,
  PostgresChangeParams,
  PostgresChangesPayload,
  PostgresChangesService,
  ResolvedBinding,
  SystemMessage,
} from './types';

/**
 * Realtime's database changes ("postgres_changes", contract §5.6).
 *
 * A trigger on each table of the publication `supabase_realtime` writes every
 * change to `_realtime.changes` and NOTIFYs `realtime_changes` at commit
 * (migration 0006). Each server reads the changes after its own cursor, so
 * several servers over one database each deliver every change once to their
 * own subscribers. A change goes to a subscription when one of its bindings
 * matches (event, schema, table, filter) and the subscriber may select the
 * row under its own role and claims: `_realtime.visible_records` evaluates the
 * table's SELECT policies against the row as it was, for every subscriber of
 * a batch in one call.
 */

const PUBLICATION = 'supabase_realtime';
const NOTIFY_CHANNEL = 'realtime_changes';
const SUBSCRIBED_MESSAGE = 'Subscribed to PostgreSQL';
const MAX_IN_VALUES = 100;
/** Holes (ids allocated by transactions not yet finished) kept at most. */
const MAX_HOLES = 10_000;

export interface PostgresChangesOptions {
  db: Database;
  logger: Logger;
  /** Changes read at once (default 500). */
  batchSize?: number;
  /** Reads without a NOTIFY too, in case one was lost (default 1000 ms). */
  pollIntervalMs?: number;
  /** How often changes older than `retainMs` are deleted (default 60 s; 0: never). */
  pruneIntervalMs?: number;
  /** How long changes are kept for the slowest server (default 5 min). */
  retainMs?: number;
}

type Action = 'INSERT' | 'UPDATE' | 'DELETE';
type EventFilter = Action | '*';
type FilterOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';
const FILTER_OPS: readonly string[] = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in'];
/** Operators Supabase knows that this server does not evaluate. */
const UNSUPPORTED_OPS: readonly string[] = ['like', 'ilike', 'is', 'match', 'imatch', 'isdistinct'];

/** How a column's values compare. */
type ValueKind = 'number' | 'instant' | 'time' | 'boolean' | 'string' | 'json';

interface ParsedFilter {
  column: string;
  op: FilterOp;
  /** As Supabase stores it: unquoted, or `{a,b}` for `in`. */
  value: string;
  negate: boolean;
}

interface ParsedBinding {
  event: EventFilter;
  schema: string;
  table: string;
  filters: ParsedFilter[];
}

interface CompiledFilter {
  column: string;
  op: FilterOp;
  negate: boolean;
  kind: ValueKind;
  /** The value(s) as to_jsonb gives them for the column's type. */
  values: unknown[];
}

interface CompiledBinding {
  id: number;
  event: EventFilter;
  /** The published tables matched at subscription, each with its filters. */
  tables: Map<number, CompiledFilter[]>;
}

interface Subscriber {
  topic: string;
  bindings: CompiledBinding[];
  auth: () => ChannelAuth;
  deliver: (payload: PostgresChangesPayload) => void;
  closed: boolean;
}

interface ChangeRow {
  id: number;
  relid: number;
  schema: string;
  table: string;
  type: Action;
  commit_timestamp: string;
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
}

interface RoleMeta {
  columns: { name: string; type: string }[];
  pk: string[];
  keys: string[];
}

/** `_realtime.role_plan`: how one role sees one table (see 0006_realtime_changes.sql). */
type RolePlan =
  | { error: string }
  | (RoleMeta & { mode: 'none' | 'all' })
  | (RoleMeta & { mode: 'check'; statement: string });

interface VisibilityAnswer {
  tables: {
    roles: Record<string, RoleMeta>;
    visible: Record<string, number[]>;
    errors: Record<string, string>;
  }[];
}

class SubscribeError extends Error {}

// ---------------------------------------------------------------------------
// Binding ids and Supabase's messages
// ---------------------------------------------------------------------------

/** A stable id for equal params (Realtime uses :erlang.phash2, a 27-bit hash). */
export function bindingId(params: PostgresChangeParams): number {
  const key = JSON.stringify([params.event, params.schema, params.table, params.filter]);
  return createHash('sha1').update(key).digest().readUInt32BE(0) >>> 5;
}

/** Elixir's inspect of a string. */
function inspectString(value: string): string {
  return JSON.stringify(value);
}

/** Elixir's inspect of a JSON value (maps with sorted keys, as small maps print). */
function inspectValue(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'string') return inspectString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(inspectValue).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `%{${entries.map(([k, v]) => `${inspectString(k)} => ${inspectValue(v)}`).join(', ')}}`;
  }
  return inspectString(String(value));
}

/** Realtime's `params_to_log` of a parsed binding. */
function paramsToLog(binding: ParsedBinding): string {
  const filters = `[${binding.filters
    .map(
      (f) =>
        `{${inspectString(f.column)}, ${inspectString(f.op)}, ${inspectString(f.value)}, ${f.negate}}`,
    )
    .join(', ')}]`;
  return `event: ${binding.event}, schema: ${binding.schema}, table: ${binding.table}, filters: ${filters}, select: nil`;
}

const CONDITION_NAMES: Record<string, string> = {
  P0001: 'raise_exception',
  '22P02': 'invalid_text_representation',
  '22007': 'invalid_datetime_format',
  '22008': 'datetime_field_overflow',
  '22003': 'numeric_value_out_of_range',
  '22001': 'string_data_right_truncation',
  '22023': 'invalid_parameter_value',
  '22021': 'character_not_in_repertoire',
  '2202E': 'array_subscript_error',
  '42704': 'undefined_object',
  '42883': 'undefined_function',
};

/** Postgrex's message for a database error: `ERROR 22P02 (invalid_text_representation) ...`. */
function postgrexMessage(error: unknown): string {
  if (error instanceof DatabaseError) {
    const name = CONDITION_NAMES[error.code];
    return `ERROR ${error.code}${name ? ` (${name})` : ''} ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

function notEnabledMessage(binding: ParsedBinding): string {
  return (
    'Unable to subscribe to changes with given parameters. Please check Realtime is enabled ' +
    `for the given connect parameters: [${paramsToLog(binding)}]`
  );
}

function exceptionMessage(binding: ParsedBinding, exception: string): string {
  return (
    'Unable to subscribe to changes with given parameters. An exception happened so please ' +
    `check your connect parameters: [${paramsToLog(binding)}]. Exception: ${exception}`
  );
}

// ---------------------------------------------------------------------------
// Parsing bindings (Extensions.PostgresCdcRls.Subscriptions.parse_subscription_params)
// ---------------------------------------------------------------------------

function actionFilter(event: unknown): EventFilter {
  if (typeof event !== 'string') return '*';
  const upper = event.toUpperCase();
  return upper === 'INSERT' || upper === 'UPDATE' || upper === 'DELETE' ? upper : '*';
}

/** Splits on commas outside parentheses and double quotes. */
function splitTopLevel(filter: string): string[] {
  const parts: string[] = [];
  let current = '';
  let depth = 0;
  let quoted = false;
  let previous = '';
  for (let i = 0; i < filter.length; i++) {
    const char = filter[i]!;
    if (quoted) {
      if (char === '\\' && i + 1 < filter.length) {
        current += char + filter[i + 1]!;
        previous = filter[i + 1]!;
        i++;
        continue;
      }
      if (char === '"') quoted = false;
      current += char;
      previous = char;
      continue;
    }
    if (char === '"' && (previous === '.' || previous === '(' || previous === ',')) {
      quoted = true;
    } else if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
      previous = '';
      continue;
    }
    current += char;
    previous = char;
  }
  parts.push(current);
  return parts;
}

function unquoteValue(value: string): string {
  if (!value.startsWith('"')) return value;
  let result = '';
  for (let i = 1; i < value.length; i++) {
    const char = value[i]!;
    if (char === '\\' && i + 1 < value.length) {
      result += value[++i]!;
    } else if (char === '"') {
      return i === value.length - 1 ? result : value;
    } else result += char;
  }
  return value;
}

function parseSegment(segment: string): ParsedFilter {
  const trimmed = segment.trim();
  if (trimmed === '') {
    throw new SubscribeError('filter must not contain empty segments (check for extra commas)');
  }
  const equals = trimmed.indexOf('=');
  if (equals < 0) throw new SubscribeError(inspectValue([trimmed]));
  const column = trimmed.slice(0, equals);
  let rest = trimmed.slice(equals + 1);
  const negate = rest.startsWith('not.');
  if (negate) rest = rest.slice(4);
  const dot = rest.indexOf('.');
  if (dot < 0) throw new SubscribeError(inspectValue([rest]));
  const op = rest.slice(0, dot);
  const value = rest.slice(dot + 1);
  if (UNSUPPORTED_OPS.includes(op)) {
    throw new SubscribeError(
      `operator \`${op}\` is not supported by this server (use eq, neq, lt, lte, gt, gte or in)`,
    );
  }
  if (!FILTER_OPS.includes(op)) throw new SubscribeError(inspectValue([op, value]));
  if (op === 'in') {
    if (value.length < 2 || !value.startsWith('(') || !value.endsWith(')')) {
      throw new SubscribeError('`in` filter value must be wrapped by parentheses');
    }
    return { column, op, value: `{${value.slice(1, -1)}}`, negate };
  }
  return { column, op: op as FilterOp, value: unquoteValue(value), negate };
}

/** Parses one binding as Realtime does; throws SubscribeError with Realtime's message. */
export function parseBinding(params: unknown): ParsedBinding {
  const map =
    typeof params === 'object' && params !== null && !Array.isArray(params)
      ? (params as Record<string, unknown>)
      : {};
  const event = actionFilter(map.event);
  const has = (key: string) => key in map && map[key] !== undefined;
  const { schema, table, filter } = map;
  if (typeof schema === 'string' && typeof table === 'string' && typeof filter === 'string') {
    const trimmed = filter.trim();
    let filters: ParsedFilter[] = [];
    if (trimmed !== '') {
      try {
        filters = splitTopLevel(trimmed).map(parseSegment);
      } catch (error) {
        if (error instanceof SubscribeError) {
          throw new SubscribeError(`Error parsing \`filter\` params: ${error.message}`);
        }
        throw error;
      }
    }
    return { event, schema, table, filters };
  }
  if (typeof schema === 'string' && typeof table === 'string' && !has('filter')) {
    return { event, schema, table, filters: [] };
  }
  if (typeof schema === 'string' && !has('table') && !has('filter')) {
    return { event, schema, table: '*', filters: [] };
  }
  if (typeof table === 'string' && !has('schema') && !has('filter')) {
    return { event, schema: 'public', table, filters: [] };
  }
  throw new SubscribeError(
    'No subscription params provided. Please provide at least a `schema` or `table` to ' +
      `subscribe to: ${inspectValue(Object.fromEntries(Object.entries(map).filter(([, v]) => v !== undefined)))}`,
  );
}

// ---------------------------------------------------------------------------
// Comparing values by the column's type
// ---------------------------------------------------------------------------

function kindOf(category: string, typname: string): ValueKind {
  if (category === 'N') return 'number';
  if (category === 'B') return 'boolean';
  if (category === 'D') return typname === 'time' || typname === 'timetz' ? 'time' : 'instant';
  if (category === 'S' || category === 'E' || typname === 'uuid') return 'string';
  return 'json';
}

const INSTANT =
  /^(\d{4,})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?)?(Z|[+-]\d\d(?::?\d\d(?::?\d\d)?)?)?$/;
const TIME = /^(\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?(Z|[+-]\d\d(?::?\d\d(?::?\d\d)?)?)?$/;

function offsetMicros(offset: string | undefined): bigint {
  if (!offset || offset === 'Z') return 0n;
  const sign = offset.startsWith('-') ? -1n : 1n;
  const digits = offset.slice(1).replace(/:/g, '');
  const hours = BigInt(digits.slice(0, 2));
  const minutes = BigInt(digits.slice(2, 4) || '0');
  const seconds = BigInt(digits.slice(4, 6) || '0');
  return sign * ((hours * 3600n + minutes * 60n + seconds) * 1_000_000n);
}

function fractionMicros(fraction: string | undefined): bigint {
  return BigInt((fraction ?? '').padEnd(6, '0'));
}

/** A timestamp, date or time as comparable microseconds; undefined when not one. */
function micros(value: unknown, kind: 'instant' | 'time'): bigint | number | undefined {
  if (typeof value !== 'string') return undefined;
  if (value === 'infinity') return Number.POSITIVE_INFINITY;
  if (value === '-infinity') return Number.NEGATIVE_INFINITY;
  if (kind === 'time') {
    const match = TIME.exec(value);
    if (!match) return undefined;
    const [, h, m, s, f, offset] = match;
    return (
      (BigInt(h!) * 3600n + BigInt(m!) * 60n + BigInt(s!)) * 1_000_000n +
      fractionMicros(f) -
      offsetMicros(offset)
    );
  }
  const match = INSTANT.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, f, offset] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0), 0);
  return BigInt(date.getTime()) * 1000n + fractionMicros(f) - offsetMicros(offset);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function order<T extends bigint | number | string | boolean>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** -1, 0 or 1; undefined when the values do not compare (then no filter matches). */
export function compareValues(kind: ValueKind, a: unknown, b: unknown): number | undefined {
  if (a === null || a === undefined || b === null || b === undefined) return undefined;
  switch (kind) {
    case 'number': {
      const x = typeof a === 'number' ? a : Number(a);
      const y = typeof b === 'number' ? b : Number(b);
      if (Number.isNaN(x) || Number.isNaN(y))
        return x === y || (Number.isNaN(x) && Number.isNaN(y)) ? 0 : undefined;
      return order(x, y);
    }
    case 'boolean':
      return typeof a === 'boolean' && typeof b === 'boolean' ? order(a, b) : undefined;
    case 'instant':
    case 'time': {
      const x = micros(a, kind);
      const y = micros(b, kind);
      if (x !== undefined && y !== undefined) {
        if (typeof x === 'number' || typeof y === 'number') return order(Number(x), Number(y));
        return order(x, y);
      }
      return order(String(a), String(b));
    }
    case 'string':
      return order(String(a), String(b));
    default:
      return order(canonicalJson(a), canonicalJson(b));
  }
}

function filterMatches(filter: CompiledFilter, row: Record<string, unknown> | null): boolean {
  if (!row) return false;
  const value = row[filter.column];
  let result: boolean | undefined;
  if (filter.op === 'in') {
    if (value === null || value === undefined) return false;
    result = filter.values.some((candidate) => compareValues(filter.kind, value, candidate) === 0);
  } else {
    const comparison = compareValues(filter.kind, value, filter.values[0]);
    if (comparison === undefined) return false;
    switch (filter.op) {
      case 'eq':
        result = comparison === 0;
        break;
      case 'neq':
        result = comparison !== 0;
        break;
      case 'lt':
        result = comparison < 0;
        break;
      case 'lte':
        result = comparison <= 0;
        break;
      case 'gt':
        result = comparison > 0;
        break;
      case 'gte':
        result = comparison >= 0;
        break;
    }
  }
  return filter.negate ? !result : result;
}

// ---------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------

/** Puts the capture trigger on exactly the published tables (the server calls it after migrations). */
export async function syncCapture(db: Pick<Database, 'query'>): Promise<void> {
  await db.query('select _realtime.sync_capture()');
}

interface TableInfo {
  relid: number;
  schema: string;
  table: string;
  columns: Record<
    string,
    { type: string; typname: string; category: string; array: string | null; selectable: boolean }
  >;
}

export async function startPostgresChanges(
  options: PostgresChangesOptions,
): Promise<PostgresChangesService> {
  const { db, logger } = options;
  const batchSize = options.batchSize ?? 500;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const pruneIntervalMs = options.pruneIntervalMs ?? 60_000;
  const retainMs = options.retainMs ?? 5 * 60_000;
  const log = logger.child({ component: 'realtime-postgres-changes' });

  const subscribers = new Set<Subscriber>();
  let stopped = false;
  /** Every id up to here was read (or is a hole in `holes`). */
  let maxSeen = 0;
  /** Ids below maxSeen not yet seen → the snapshot xmax after which they cannot appear. */
  const holes = new Map<number, bigint>();

  const initial = await db.query<{ max: number | string }>(
    'select coalesce(max(id), 0) as max from _realtime.changes',
  );
  maxSeen = Number(initial.rows[0]?.max ?? 0);

  // --- reading ------------------------------------------------------------

  let running = false;
  let again = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  function schedule(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    current = run();
  }

  async function run(): Promise<void> {
    try {
      do {
        again = false;
        const more = await drainOnce();
        if (more) again = true;
      } while (again && !stopped);
    } catch (error) {
      log.warn({ err: error }, 'reading database changes failed; trying again in a second');
      if (!stopped && !retryTimer) {
        retryTimer = setTimeout(() => {
          retryTimer = undefined;
          schedule();
        }, 1000);
        retryTimer.unref();
      }
    } finally {
      running = false;
    }
  }

  /** Reads one batch and delivers it; true when more may be waiting. */
  async function drainOnce(): Promise<boolean> {
    if (subscribers.size === 0) {
      // Nobody listens: move the cursor past everything committed.
      const { rows } = await db.query<{ max: number | string }>(
        'select coalesce(max(id), 0) as max from _realtime.changes',
      );
      maxSeen = Math.max(maxSeen, Number(rows[0]?.max ?? 0));
      holes.clear();
      return false;
    }
    const holeIds = [...holes.keys()];
    const { rows } = await db.query<{ xmin: string; xmax: string; changes: ChangeRow[] }>(
      `with snapshot as (select pg_current_snapshot() as s)
       select pg_snapshot_xmin(s)::text as xmin, pg_snapshot_xmax(s)::text as xmax,
              coalesce((
                select jsonb_agg(jsonb_build_object(
                         'id', c.id, 'relid', c.relid, 'schema', c.schema, 'table', c."table",
                         'type', c.type,
                         'commit_timestamp', to_char(c.commit_timestamp at time zone 'UTC',
                                                     'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                         'record', c.record, 'old_record', c.old_record) order by c.id)
                from (select * from _realtime.changes
                      where id > $1 or id = any($2::bigint[])
                      order by id limit $3) c
              ), '[]'::jsonb) as changes
       from snapshot`,
      [maxSeen, holeIds, batchSize],
    );
    const answer = rows[0];
    if (!answer) return false;
    const xmin = BigInt(answer.xmin);
    const xmax = BigInt(answer.xmax);
    const changes = answer.changes.map((change) => ({
      ...change,
      id: Number(change.id),
      relid: Number(change.relid),
    }));

    const fresh: ChangeRow[] = [];
    let expected = maxSeen + 1;
    for (const change of changes) {
      if (holes.delete(change.id)) {
        fresh.push(change);
        continue;
      }
      if (change.id <= maxSeen) continue;
      for (let id = expected; id < change.id; id++) holes.set(id, xmax);
      expected = change.id + 1;
      maxSeen = change.id;
      fresh.push(change);
    }
    // A hole whose transactions have all ended since it was seen never fills.
    for (const [id, bound] of holes) if (xmin >= bound) holes.delete(id);
    if (holes.size > MAX_HOLES) {
      log.warn({ holes: holes.size }, 'too many unfinished transactions; forgetting the oldest');
      for (const id of [...holes.keys()].sort((a, b) => a - b).slice(0, holes.size - MAX_HOLES)) {
        holes.delete(id);
      }
    }
    if (fresh.length > 0) await deliverBatch(fresh.sort((a, b) => a.id - b.id));
    return changes.length >= batchSize;
  }

  // --- matching and delivering ---------------------------------------------

  interface Candidate {
    subscriber: Subscriber;
    ids: number[];
    group: number;
  }

  async function deliverBatch(changes: ChangeRow[]): Promise<void> {
    const live = [...subscribers].filter((s) => !s.closed);
    if (live.length === 0) return;

    // Each subscriber's auth, read once per batch; equal (role, claims) form a group.
    const groups: ChannelAuth[] = [];
    const groupKeys = new Map<string, number>();
    const groupOf = new Map<Subscriber, number>();
    for (const subscriber of live) {
      try {
        const auth = subscriber.auth();
        const claims = { ...auth.claims, role: auth.role };
        const key = `${auth.role}\u0000${canonicalJson(claims)}`;
        let index = groupKeys.get(key);
        if (index === undefined) {
          index = groups.length;
          groups.push({ role: auth.role, claims });
          groupKeys.set(key, index);
        }
        groupOf.set(subscriber, index);
      } catch (error) {
        log.warn(
          { err: error, topic: subscriber.topic },
          'reading a subscriber’s auth failed; skipped',
        );
      }
    }

    // Which subscribers each change matches, by binding.
    const candidates: Candidate[][] = changes.map((change) => {
      const row = change.type === 'DELETE' ? change.old_record : change.record;
      const matched: Candidate[] = [];
      for (const subscriber of live) {
        const group = groupOf.get(subscriber);
        if (group === undefined) continue;
        const ids: number[] = [];
        for (const binding of subscriber.bindings) {
          if (binding.event !== '*' && binding.event !== change.type) continue;
          const filters = binding.tables.get(change.relid);
          if (!filters) continue;
          if (filters.every((filter) => filterMatches(filter, row))) ids.push(binding.id);
        }
        if (ids.length > 0) matched.push({ subscriber, ids, group });
      }
      return matched;
    });

    // One visibility request for the whole batch: per table, its records and per group the ones to check.
    interface TableRequest {
      relid: number;
      records: Record<string, unknown>[];
      checks: Map<number, Set<number>>;
    }
    const tables = new Map<number, TableRequest>();
    /** Per change: the index of its new and old record in its table's request. */
    const recordIndex = changes.map(() => ({ new: -1, old: -1 }));
    changes.forEach((change, i) => {
      const matched = candidates[i]!;
      if (matched.length === 0) return;
      let table = tables.get(change.relid);
      if (!table) {
        table = { relid: change.relid, records: [], checks: new Map() };
        tables.set(change.relid, table);
      }
      const indexes = recordIndex[i]!;
      if (change.record) indexes.new = table.records.push(change.record) - 1;
      if (change.old_record) indexes.old = table.records.push(change.old_record) - 1;
      for (const { group } of matched) {
        let wanted = table.checks.get(group);
        if (!wanted) table.checks.set(group, (wanted = new Set()));
        if (indexes.new >= 0) wanted.add(indexes.new);
        if (indexes.old >= 0) wanted.add(indexes.old);
      }
    });
    if (tables.size === 0) return;

    const tableList = [...tables.values()];
    const answers = await checkVisibility(groups, tableList);

    // Deliver in change order.
    changes.forEach((change, i) => {
      const matched = candidates[i]!;
      if (matched.length === 0) return;
      const tableIndex = tableList.findIndex((t) => t.relid === change.relid);
      const answer = answers[tableIndex];
      if (!answer) return;
      const indexes = recordIndex[i]!;
      const payloads = new Map<string, PostgresChangesPayload['data'] | null>();
      for (const { subscriber, ids, group } of matched) {
        if (subscriber.closed || stopped) continue;
        const error = answer.errors[group];
        if (error !== undefined) continue;
        const visible = answer.visible[group];
        if (!visible) continue;
        const auth = groups[group]!;
        const meta = answer.roles[auth.role];
        if (!meta) continue;
        const newVisible = indexes.new >= 0 && visible.has(indexes.new);
        const oldVisible = indexes.old >= 0 && visible.has(indexes.old);
        const cacheKey = `${auth.role}/${newVisible}/${oldVisible}`;
        let data = payloads.get(cacheKey);
        if (data === undefined) {
          data = buildPayload(change, meta, newVisible, oldVisible);
          payloads.set(cacheKey, data);
        }
        if (!data) continue;
        try {
          subscriber.deliver({ ids, data });
        } catch (deliverError) {
          log.warn({ err: deliverError, topic: subscriber.topic }, 'delivering a change failed');
        }
      }
    });
  }

  function buildPayload(
    change: ChangeRow,
    meta: RoleMeta,
    newVisible: boolean,
    oldVisible: boolean,
  ): PostgresChangesPayload['data'] | null {
    const base = {
      schema: change.schema,
      table: change.table,
      commit_timestamp: change.commit_timestamp,
      type: change.type,
    };
    const selectable = new Set(meta.columns.map((column) => column.name));
    const pick = (row: Record<string, unknown> | null, names: Iterable<string>) => {
      const picked: Record<string, unknown> = {};
      if (!row) return picked;
      for (const name of names) if (name in row) picked[name] = row[name];
      return picked;
    };
    const keys = meta.keys.filter((name) => selectable.has(name));
    if (change.type === 'DELETE') {
      if (!oldVisible) return null;
      return {
        ...base,
        columns: meta.columns,
        old_record: pick(change.old_record, keys),
        errors: null,
      };
    }
    if (!newVisible) return null;
    const data: PostgresChangesPayload['data'] = {
      ...base,
      columns: meta.columns,
      record: pick(change.record, selectable),
      errors: null,
    };
    if (change.type === 'UPDATE' && oldVisible) data.old_record = pick(change.old_record, keys);
    return data;
  }

  interface TableVisibility {
    roles: Record<string, RoleMeta>;
    visible: Record<number, Set<number>>;
    errors: Record<number, string>;
  }

  function requestFor(
    groupList: ChannelAuth[],
    tableList: { relid: number; records: unknown[]; checks: Map<number, Set<number>> }[],
    only?: number,
  ) {
    return {
      groups: groupList,
      tables: tableList.map((table) => ({
        relid: table.relid,
        records: table.records,
        checks: [...table.checks]
          .filter(([group]) => only === undefined || group === only)
          .map(([group, records]) => ({ group, records: [...records] })),
      })),
    };
  }

  async function callVisibility(request: unknown): Promise<VisibilityAnswer> {
    const timeout = String(db.statementTimeoutMs ?? 8000);
    const results = await db.pipeline([
      { sql: `select set_config('statement_timeout', $1, true)`, params: [timeout] },
      {
        sql: 'select _realtime.visible_records($1::jsonb) as answer',
        params: [JSON.stringify(request)],
      },
    ]);
    return results[1]!.rows[0]!.answer as VisibilityAnswer;
  }

  function toVisibility(
    answer: VisibilityAnswer['tables'][number],
    into?: TableVisibility,
  ): TableVisibility {
    const result: TableVisibility = into ?? { roles: {}, visible: {}, errors: {} };
    Object.assign(result.roles, answer.roles);
    for (const [group, indexes] of Object.entries(answer.visible)) {
      result.visible[Number(group)] = new Set(indexes);
    }
    for (const [group, message] of Object.entries(answer.errors)) {
      result.errors[Number(group)] = message;
    }
    return result;
  }

  /**
   * The fast path: each (table, role)'s plan in one query, then one pipeline
   * with, per subscriber group, its role and claims and the plan's statement
   * (prepared once per connection, so the database plans it once, not once per
   * group). Any error fails the whole pipeline; the caller then falls back to
   * `visible_records`, which isolates the failing group.
   */
  async function pipelinedVisibility(
    groupList: ChannelAuth[],
    tableList: { relid: number; records: unknown[]; checks: Map<number, Set<number>> }[],
  ): Promise<TableVisibility[]> {
    const pairs = new Map<string, { relid: number; role: string }>();
    for (const table of tableList) {
      for (const group of table.checks.keys()) {
        const role = groupList[group]!.role;
        pairs.set(`${table.relid}/${role}`, { relid: table.relid, role });
      }
    }
    const { rows } = await db.query<{ relid: number | string; role: string; plan: RolePlan }>(
      `select r.relid, r.role, _realtime.role_plan(r.relid, r.role) as plan
       from jsonb_to_recordset($1::jsonb) as r(relid oid, role text)`,
      [JSON.stringify([...pairs.values()])],
    );
    const plans = new Map(rows.map((row) => [`${Number(row.relid)}/${row.role}`, row.plan]));
    const results: TableVisibility[] = tableList.map(() => ({
      roles: {},
      visible: {},
      errors: {},
    }));
    const statements: PipelinedStatement[] = [
      {
        sql: `select set_config('statement_timeout', $1, true)`,
        params: [String(db.statementTimeoutMs ?? 8000)],
      },
    ];
    const slots: { table: number; group: number; at: number }[] = [];
    tableList.forEach((table, tableIndex) => {
      const result = results[tableIndex]!;
      for (const [group, wanted] of table.checks) {
        const auth = groupList[group]!;
        const plan = plans.get(`${table.relid}/${auth.role}`);
        if (!plan || 'error' in plan) {
          result.errors[group] = plan ? plan.error : 'no plan for this table and role';
          continue;
        }
        result.roles[auth.role] = { columns: plan.columns, pk: plan.pk, keys: plan.keys };
        if (plan.mode === 'none') result.visible[group] = new Set();
        else if (plan.mode === 'all') result.visible[group] = new Set(wanted);
        else if ('statement' in plan) {
          statements.push(
            {
              // _realtime.act_as's settings, as one statement: the current role may not call
              // functions in _realtime, but the session's user may switch roles (SET ROLE rules).
              sql: `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
                           set_config('request.jwt.claim.sub', '', true),
                           set_config('request.jwt.claim.role', '', true),
                           set_config('request.jwt.claim.email', '', true),
                           set_config('request.jwt.claim', '', true)`,
              params: [auth.role, JSON.stringify(auth.claims)],
            },
            {
              sql: plan.statement,
              params: [JSON.stringify([...wanted].map((index) => [index, table.records[index]]))],
            },
          );
          slots.push({ table: tableIndex, group, at: statements.length - 1 });
        }
      }
    });
    if (slots.length > 0) {
      const answers = await db.pipeline(statements);
      for (const slot of slots) {
        const row = answers[slot.at]!.rows[0] ?? {};
        const indexes = Object.values(row)[0];
        results[slot.table]!.visible[slot.group] = new Set(
          Array.isArray(indexes) ? (indexes as number[]) : [],
        );
      }
    }
    return results;
  }

  async function checkVisibility(
    groupList: ChannelAuth[],
    tableList: { relid: number; records: unknown[]; checks: Map<number, Set<number>> }[],
  ): Promise<TableVisibility[]> {
    let results: TableVisibility[] | undefined;
    try {
      results = await pipelinedVisibility(groupList, tableList);
    } catch (pipelineError) {
      log.debug(
        { err: pipelineError },
        'checking row-level security in one pipeline failed; checking in the database',
      );
    }
    if (!results) {
      try {
        const answer = await callVisibility(requestFor(groupList, tableList));
        results = answer.tables.map((table) => toVisibility(table));
      } catch (error) {
        // A policy failed for some subscriber: ask again, each group in a subtransaction.
        log.debug(
          { err: error },
          'checking row-level security failed; checking each subscriber apart',
        );
        try {
          const answer = await callVisibility({
            ...requestFor(groupList, tableList),
            isolate: true,
          });
          results = answer.tables.map((table) => toVisibility(table));
        } catch (isolatedError) {
          // Time-outs cannot be caught inside: one call per group, so only the slow one is lost.
          log.warn({ err: isolatedError }, 'checking row-level security for a batch failed');
        }
      }
    }
    if (!results) {
      const perGroup: TableVisibility[] = tableList.map(() => ({
        roles: {},
        visible: {},
        errors: {},
      }));
      const groupIds = new Set(tableList.flatMap((table) => [...table.checks.keys()]));
      for (const group of groupIds) {
        try {
          const answer = await callVisibility({
            ...requestFor(groupList, tableList, group),
            isolate: true,
          });
          answer.tables.forEach((table, i) => toVisibility(table, perGroup[i]));
        } catch (groupError) {
          for (const result of perGroup) result.errors[group] = String(groupError);
        }
      }
      results = perGroup;
    }
    tableList.forEach((table, i) => {
      for (const [group, message] of Object.entries(results[i]?.errors ?? {})) {
        log.warn(
          { relid: table.relid, role: groupList[Number(group)]?.role, error: message },
          'row-level security check failed; the change is not delivered to that subscriber',
        );
      }
    });
    return results;
  }

  // --- subscribing ----------------------------------------------------------

  async function tablesFor(binding: ParsedBinding, role: string): Promise<TableInfo[]> {
    const { rows } = await db.query<{
      relid: number;
      schema: string;
      table: string;
      columns: TableInfo['columns'];
    }>(
      `select c.oid::int8 as relid, p.schemaname as schema, p.tablename as table,
              coalesce((
                select jsonb_object_agg(a.attname, jsonb_build_object(
                  'type', a.atttypid::regtype::text,
                  'typname', t.typname,
                  'category', t.typcategory,
                  'array', case when t.typarray <> 0 then t.typarray::regtype::text end,
                  'selectable', case when r.oid is null then false
                                     else has_column_privilege(r.oid, c.oid, a.attnum, 'SELECT') end))
                from pg_attribute a
                join pg_type t on t.oid = a.atttypid
                left join pg_roles r on r.rolname = $3
                where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
              ), '{}'::jsonb) as columns
       from pg_publication_tables p
       join pg_namespace n on n.nspname = p.schemaname
       join pg_class c on c.relnamespace = n.oid and c.relname = p.tablename
       where p.pubname = '${PUBLICATION}'
         and ($1 = '*' or p.schemaname = $1)
         and ($2 = '*' or p.tablename = $2)
       order by 1`,
      [binding.schema, binding.table, role],
    );
    return rows.map((row) => ({ ...row, relid: Number(row.relid) }));
  }

  async function castValue(value: string, type: string): Promise<unknown> {
    const { rows } = await db.query<{ value: unknown }>(
      'select _realtime.cast($1, $2::regtype) as value',
      [value, type],
    );
    return rows[0]?.value;
  }

  /** Realtime's subscription_check_filters, then the values in to_jsonb's form. */
  async function compileFilters(
    binding: ParsedBinding,
    table: TableInfo,
  ): Promise<CompiledFilter[]> {
    const compiled: CompiledFilter[] = [];
    for (const filter of binding.filters) {
      const column = table.columns[filter.column];
      if (!column || !column.selectable) {
        throw new SubscribeError(
          exceptionMessage(
            binding,
            `ERROR P0001 (raise_exception) invalid column for filter ${filter.column}`,
          ),
        );
      }
      const kind = kindOf(column.category, column.typname);
      let values: unknown[];
      try {
        if (filter.op === 'in') {
          if (!column.array) throw new Error(`no array type for ${column.type}`);
          const list = await castValue(filter.value, column.array);
          values = Array.isArray(list) ? list : [];
          if (values.length > MAX_IN_VALUES) {
            throw new SubscribeError(
              exceptionMessage(
                binding,
                `ERROR P0001 (raise_exception) too many values for \`in\` filter. Maximum ${MAX_IN_VALUES}`,
              ),
            );
          }
        } else {
          values = [await castValue(filter.value, column.type)];
        }
      } catch (error) {
        if (error instanceof SubscribeError) throw error;
        throw new SubscribeError(exceptionMessage(binding, postgrexMessage(error)));
      }
      compiled.push({ column: filter.column, op: filter.op, negate: filter.negate, kind, values });
    }
    return compiled;
  }

  async function subscribe(request: {
    topic: string;
    params: PostgresChangeParams[];
    auth: () => ChannelAuth;
    deliver: (payload: PostgresChangesPayload) => void;
  }): Promise<ChangeSubscription> {
    const params = Array.isArray(request.params) ? request.params : [];
    const bindings: ResolvedBinding[] = params.map((param) => {
      const echo = (
        typeof param === 'object' && param !== null ? param : {}
      ) as PostgresChangeParams;
      return { ...echo, id: bindingId(echo) };
    });
    const subscriber: Subscriber = {
      topic: request.topic,
      bindings: [],
      auth: request.auth,
      deliver: request.deliver,
      closed: false,
    };
    const close = () => {
      subscriber.closed = true;
      subscribers.delete(subscriber);
    };
    const result = (status: SystemMessage['status'], message: string): ChangeSubscription => ({
      bindings,
      system: { extension: 'postgres_changes', status, message },
      close,
    });

    try {
      // As Realtime: every binding parses, then each subscribes in order; the first failure fails all.
      const parsed = params.map((param) => parseBinding(param));
      if (stopped) throw new SubscribeError('Realtime is stopping');
      const auth = request.auth();
      for (const [i, binding] of parsed.entries()) {
        const tables = await tablesFor(binding, auth.role);
        if (tables.length === 0) throw new SubscribeError(notEnabledMessage(binding));
        const compiled: CompiledBinding = {
          id: bindings[i]!.id,
          event: binding.event,
          tables: new Map(),
        };
        for (const table of tables)
          compiled.tables.set(table.relid, await compileFilters(binding, table));
        subscriber.bindings.push(compiled);
      }
    } catch (error) {
      subscriber.closed = true;
      if (error instanceof SubscribeError) return result('error', error.message);
      log.warn({ err: error, topic: request.topic }, 'subscribing to database changes failed');
      return result(
        'error',
        `Unable to subscribe to changes with given parameters: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (subscriber.bindings.length > 0 && !stopped) subscribers.add(subscriber);
    return result('ok', SUBSCRIBED_MESSAGE);
  }

  // --- timers and stopping --------------------------------------------------

  const unlisten = await db.listen(NOTIFY_CHANNEL, () => schedule(), {
    onReconnect: () => schedule(),
  });
  const pollTimer = setInterval(schedule, pollIntervalMs);
  pollTimer.unref();
  const pruneTimer =
    pruneIntervalMs > 0
      ? setInterval(() => {
          db.query('select _realtime.prune($1::interval)', [`${retainMs} milliseconds`]).catch(
            (error: unknown) => log.warn({ err: error }, 'pruning database changes failed'),
          );
        }, pruneIntervalMs)
      : undefined;
  pruneTimer?.unref();

  return {
    subscribe,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(pollTimer);
      if (pruneTimer) clearInterval(pruneTimer);
      if (retryTimer) clearTimeout(retryTimer);
      for (const subscriber of subscribers) subscriber.closed = true;
      subscribers.clear();
      await unlisten().catch((error: unknown) => log.warn({ err: error }, 'unlisten failed'));
      await current.catch(() => undefined);
    },
  };
}
