import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, PipelinedStatement, Transaction } from '../db/database';
import { PASSWORD, createSignedInUser } from '../schema/test-world';
import { clientFor } from '../testing/clients';
import {
  cloneTestDatabase,
  startTestServer,
  type TestDatabase,
  type TestServer,
} from '../testing/harness';

/**
 * Property-based fuzzing of /rest/v1 over real HTTP, on both databases:
 *
 * 1. never a 5xx, and every error is PostgREST's `{code, message, details, hint}`;
 * 2. hostile identifiers (table, column, alias, embed, order, function, JSON
 *    key, cast, operator…) are answered as unknown or unparsable and never
 *    reach SQL as identifiers; canaries outside the API stay untouched;
 * 3. anonymous, customer A and customer B only ever read, count or change
 *    rows the policies allow them, computed from the database directly.
 *
 * Reproducible: a fixed seed (REST_FUZZ_SEED overrides it, REST_FUZZ_RUNS the
 * number of runs); fast-check prints seed and path of any counterexample.
 * REST_FUZZ_STATS=1 prints how often each status/code was answered, and
 * REST_FUZZ_SHOW=<text> every request whose "METHOD status code" contains it.
 */

const SEED = Number(process.env.REST_FUZZ_SEED ?? 20261121);
const RUNS = Number(process.env.REST_FUZZ_RUNS ?? 300);
const PROPERTY_TIMEOUT = 90_000;

type Actor = 'anon' | 'a' | 'b' | 'service';
type Table = 'profiles' | 'workspaces' | 'workspace_members';
const TABLES: Table[] = ['profiles', 'workspaces', 'workspace_members'];

let testDatabase: TestDatabase;
let server: TestServer;
const tokens = {} as Record<Actor, string>;
/** The world's ids: customers A and B, M (a member of both workspaces), and their workspaces. */
const ids = { a: '', b: '', m: '', wsA: '', wsB: '', wsM: '' };

// ---- the SQL the server sends -------------------------------------------------

/** Every statement the server runs, so a test can see what a request made of its input. */
const statements: string[] = [];

/** `target` with query, exec, transaction and pipeline recorded; everything else as it is. */
function recording<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      switch (property) {
        case 'query':
        case 'exec':
          return (sql: string, ...rest: unknown[]) => {
            statements.push(sql);
            return method.call(object, sql, ...rest);
          };
        case 'pipeline':
          return (batch: readonly PipelinedStatement[]) => {
            statements.push(...batch.map((statement) => statement.sql));
            return method.call(object, batch);
          };
        case 'transaction':
          return (work: (tx: Transaction) => Promise<unknown>) =>
            method.call(object, (tx: Transaction) => work(recording(tx)));
        default:
          return method.bind(object);
      }
    },
  });
}

/** The server's database, unrecorded (the test's own queries). */
function direct(): Database {
  return testDatabase.db;
}

// ---- requests ---------------------------------------------------------------------

interface FuzzRequest {
  actor: Actor;
  method: string;
  /** Below /rest/v1/, already encoded. */
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  text: string;
  headers: Headers;
  statements: string[];
  /** After a write that changed rows: what the actor could see then (before the world was restored). */
  visibleAfter?: Record<Table, Set<string>>;
}

function isDotSegment(name: string): boolean {
  return name === '.' || name === '..';
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

function urlOf(request: FuzzRequest): string {
  const search = new URLSearchParams(request.query).toString();
  return `${server.url}/rest/v1/${request.path}${search ? `?${search}` : ''}`;
}

function describeRequest(request: FuzzRequest, answer?: Answer): string {
  return [
    `${request.actor} ${request.method} ${safeDecode(urlOf(request).replace(server.url, '')).slice(0, 600)}`,
    `headers ${JSON.stringify(request.headers)}`,
    request.body === undefined ? '' : `body ${request.body.slice(0, 300)}`,
    answer ? `→ ${answer.status} ${answer.text.slice(0, 500)}` : '',
  ]
    .filter(Boolean)
    .join('\n  ');
}

async function send(request: FuzzRequest): Promise<Answer> {
  const headers: Record<string, string> = { apikey: server.anonKey, ...request.headers };
  if (request.actor !== 'anon') headers.authorization = `Bearer ${tokens[request.actor]}`;
  statements.length = 0;
  const response = await fetch(urlOf(request), {
    method: request.method,
    headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  const text = await response.text();
  return { status: response.status, text, headers: response.headers, statements: [...statements] };
}

/** Property 1: no 5xx; errors (3xx/4xx) are PostgREST's body. */
function expectWellFormed(request: FuzzRequest, answer: Answer): void {
  const context = describeRequest(request, answer);
  expect(answer.status, context).toBeGreaterThanOrEqual(200);
  expect(answer.status, context).toBeLessThan(500);
  // 431/414: Node's HTTP parser refuses a URL over 16 kB before any handler runs.
  if (answer.status < 300 || request.method === 'HEAD' || answer.status === 431) return;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new Error(`error body is not JSON: ${context}`);
  }
  expect(body, context).toBeTypeOf('object');
  expect(Object.keys(body as object).sort(), context).toEqual(
    ['code', 'details', 'hint', 'message'].sort(),
  );
  const error = body as Record<string, unknown>;
  expect(error.code, context).toBeTypeOf('string');
  expect(error.message, context).toBeTypeOf('string');
}

function errorCode(answer: Answer): string | undefined {
  try {
    const body = JSON.parse(answer.text) as { code?: unknown };
    return typeof body.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

// ---- what each actor may see and change (from the data, not through RLS) -----------

interface Facts {
  visible: Record<Actor, Record<Table, Set<string>>>;
  /** `workspace/user` → role. */
  roles: Map<string, string>;
}

function rowKey(table: Table, row: Record<string, unknown>): string {
  return table === 'workspace_members'
    ? `${String(row.workspace_id)}/${String(row.user_id)}`
    : String(row.id);
}

async function visibleTo(userId: string | null): Promise<Record<Table, Set<string>>> {
  if (userId === null) {
    const { rows } = await direct().query<{ t: Table; k: string }>(
      `select 'profiles' t, id::text k from public.profiles
       union all select 'workspaces', id::text from public.workspaces
       union all select 'workspace_members', workspace_id || '/' || user_id from public.workspace_members`,
    );
    const all = {
      profiles: new Set<string>(),
      workspaces: new Set<string>(),
      workspace_members: new Set<string>(),
    };
    for (const row of rows) all[row.t].add(row.k);
    return all;
  }
  const { rows } = await direct().query<{ t: Table; k: string }>(
    `with mine as (select workspace_id from public.workspace_members where user_id = $1)
     select 'workspaces' t, w.id::text k from public.workspaces w where w.id in (select workspace_id from mine)
     union all
     select 'workspace_members', m.workspace_id || '/' || m.user_id from public.workspace_members m
       where m.workspace_id in (select workspace_id from mine)
     union all
     select 'profiles', p.id::text from public.profiles p
       where p.id = $1 or exists (select from public.workspace_members theirs
         where theirs.user_id = p.id and theirs.workspace_id in (select workspace_id from mine))`,
    [userId],
  );
  const seen = {
    profiles: new Set<string>(),
    workspaces: new Set<string>(),
    workspace_members: new Set<string>(),
  };
  for (const row of rows) seen[row.t].add(row.k);
  return seen;
}

async function computeFacts(): Promise<Facts> {
  const none = {
    profiles: new Set<string>(),
    workspaces: new Set<string>(),
    workspace_members: new Set<string>(),
  };
  const { rows } = await direct().query<{ k: string; role: string }>(
    `select workspace_id || '/' || user_id k, role from public.workspace_members`,
  );
  return {
    visible: {
      anon: none,
      a: await visibleTo(ids.a),
      b: await visibleTo(ids.b),
      service: await visibleTo(null),
    },
    roles: new Map(rows.map((row) => [row.k, row.role])),
  };
}

let facts: Facts;

function userOf(actor: Actor): string | undefined {
  return actor === 'a' ? ids.a : actor === 'b' ? ids.b : undefined;
}

/** The policies' CASE: owners manage everyone, workspace admins everyone but owners. */
function manages(actor: Actor, workspaceId: unknown, role: unknown): boolean {
  const user = userOf(actor);
  if (!user) return false;
  const mine = facts.roles.get(`${String(workspaceId)}/${user}`);
  return mine === 'owner' || (mine === 'admin' && role !== 'owner');
}

// ---- snapshots of the product tables --------------------------------------------------

type Snapshot = Map<string, Record<string, unknown>>;

async function snapshot(): Promise<Snapshot> {
  const { rows } = await direct().query<{ t: Table; row: Record<string, unknown> | string }>(
    `select 'profiles' t, to_jsonb(p) "row" from public.profiles p
     union all select 'workspaces', to_jsonb(w) from public.workspaces w
     union all select 'workspace_members', to_jsonb(m) from public.workspace_members m`,
  );
  const result: Snapshot = new Map();
  for (const { t, row } of rows) {
    const value = (typeof row === 'string' ? JSON.parse(row) : row) as Record<string, unknown>;
    result.set(`${t}:${rowKey(t, value)}`, value);
  }
  return result;
}

let baseline: Snapshot;

function changedColumns(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return Object.keys({ ...before, ...after }).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
}

/** Whether the policies (and grants) let `actor` make this change. */
function isPermittedChange(
  actor: Actor,
  key: string,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): boolean {
  const table = key.slice(0, key.indexOf(':')) as Table;
  if (actor === 'anon' || actor === 'service') return false;
  if (table === 'profiles') return false;
  if (table === 'workspaces') {
    if (!before || !after) return false;
    const user = userOf(actor)!;
    const role = facts.roles.get(`${String(before.id)}/${user}`);
    return (
      (role === 'owner' || role === 'admin') &&
      changedColumns(before, after).every((column) => column === 'name' || column === 'updated_at')
    );
  }
  if (!before) return false; // nobody adds members through the API (invitations will)
  if (!after)
    return before.user_id === userOf(actor) || manages(actor, before.workspace_id, before.role);
  return (
    manages(actor, before.workspace_id, before.role) &&
    manages(actor, after.workspace_id, after.role) &&
    changedColumns(before, after).every((column) => column === 'role' || column === 'updated_at')
  );
}

/** B's own rows: B's profile, B's workspace and its memberships. */
function isRowOfB(key: string, row: Record<string, unknown>): boolean {
  if (key.startsWith('profiles:')) return row.id === ids.b;
  if (key.startsWith('workspaces:')) return row.id === ids.wsB;
  return row.workspace_id === ids.wsB;
}

/** Puts memberships and workspace names back as they were (as the owner, outside RLS). */
async function restore(): Promise<void> {
  const members = [...baseline]
    .filter(([key]) => key.startsWith('workspace_members:'))
    .map(([, row]) => row);
  const workspaces = [...baseline]
    .filter(([key]) => key.startsWith('workspaces:'))
    .map(([, row]) => row);
  await direct().transaction(async (tx) => {
    await tx.query(
      `insert into public.workspace_members (workspace_id, user_id, role, created_at, updated_at)
       select workspace_id, user_id, role, created_at, updated_at
       from jsonb_populate_recordset(null::public.workspace_members, $1::jsonb)
       on conflict (workspace_id, user_id) do update set role = excluded.role
       where workspace_members.role is distinct from excluded.role`,
      [JSON.stringify(members)],
    );
    await tx.query(
      `delete from public.workspace_members m where not exists (
         select from jsonb_populate_recordset(null::public.workspace_members, $1::jsonb) b
         where b.workspace_id = m.workspace_id and b.user_id = m.user_id)`,
      [JSON.stringify(members)],
    );
    await tx.query(
      `update public.workspaces w set name = b.name
       from jsonb_populate_recordset(null::public.workspaces, $1::jsonb) b
       where b.id = w.id and w.name is distinct from b.name`,
      [JSON.stringify(workspaces)],
    );
  });
  const now = await snapshot();
  const strip = (row: Record<string, unknown>) => JSON.stringify({ ...row, updated_at: null });
  expect([...now.keys()].sort(), 'restore').toEqual([...baseline.keys()].sort());
  for (const [key, row] of now)
    expect(strip(row), `restore ${key}`).toBe(strip(baseline.get(key)!));
  baseline = now;
}

/** Property 3 for writes: every changed row is one the actor may change; B's rows stay as they were. */
async function checkWriteEffects(request: FuzzRequest, answer: Answer): Promise<void> {
  const after = await snapshot();
  const keys = new Set([...baseline.keys(), ...after.keys()]);
  const changed: string[] = [];
  for (const key of keys) {
    const before = baseline.get(key);
    const now = after.get(key);
    if (JSON.stringify(before) === JSON.stringify(now)) continue;
    changed.push(key);
    const context = `${key}: ${JSON.stringify(before)} → ${JSON.stringify(now)}\n  ${describeRequest(request, answer)}`;
    expect(isPermittedChange(request.actor, key, before, now), `forbidden change ${context}`).toBe(
      true,
    );
    if (request.actor === 'a') {
      expect(isRowOfB(key, (before ?? now)!), `A changed B's row ${context}`).toBe(false);
    }
  }
  if (changed.length > 0) {
    answer.visibleAfter =
      request.actor === 'anon'
        ? facts.visible.anon
        : await visibleTo(request.actor === 'service' ? null : userOf(request.actor)!);
    await restore();
  }
}

// ---- rows in answers ----------------------------------------------------------------------

interface Shape {
  table: Table;
  /** The output keys that identify a row (workspace_id and user_id for memberships). */
  keys: string[];
  embeds: { output: string; toOne: boolean; shape: Shape }[];
  /** A spread to-one profile: its id under this key. */
  spreadProfileKey?: string;
}

function identify(shape: Shape, row: Record<string, unknown>): string | undefined {
  if (shape.table === 'workspace_members') {
    const [workspace, user] = shape.keys;
    if (row[workspace!] === undefined || row[user!] === undefined) return undefined;
    return `${String(row[workspace!])}/${String(row[user!])}`;
  }
  const id = row[shape.keys[0]!];
  return id === undefined ? undefined : String(id);
}

function checkRows(actor: Actor, shape: Shape, rows: unknown, context: string): number {
  const list = Array.isArray(rows) ? rows : [rows];
  let checked = 0;
  for (const row of list) {
    if (row === null) continue;
    expect(row, context).toBeTypeOf('object');
    const record = row as Record<string, unknown>;
    const key = identify(shape, record);
    expect(key, `row without its key: ${JSON.stringify(record)}\n  ${context}`).toBeDefined();
    expect(
      facts.visible[actor][shape.table].has(key!),
      `${actor} got ${shape.table} ${key} outside the policies\n  ${context}`,
    ).toBe(true);
    checked += 1;
    if (shape.spreadProfileKey) {
      const profile = record[shape.spreadProfileKey];
      if (profile !== null && profile !== undefined)
        expect(facts.visible[actor].profiles.has(String(profile)), context).toBe(true);
    }
    for (const embed of shape.embeds) {
      const value = record[embed.output];
      if (value === null || value === undefined) continue;
      if (!embed.toOne) expect(Array.isArray(value), context).toBe(true);
      checked += checkRows(actor, embed.shape, value, context);
    }
  }
  return checked;
}

/** Ids of the world's rows the actor may not see; none may appear as a value in a 2xx body. */
function forbiddenIds(actor: Actor): Set<string> {
  if (actor === 'service') return new Set();
  const seen = facts.visible[actor];
  const visible = new Set<string>([...seen.profiles, ...seen.workspaces]);
  for (const membership of seen.workspace_members)
    for (const id of membership.split('/')) visible.add(id);
  if (actor === 'a') visible.add(ids.a);
  if (actor === 'b') visible.add(ids.b);
  return new Set(Object.values(ids).filter((id) => !visible.has(id)));
}

function expectNoForeignIds(request: FuzzRequest, answer: Answer): void {
  if (answer.status >= 300 || request.method === 'HEAD' || answer.text === '') return;
  if (!(answer.headers.get('content-type') ?? '').includes('json')) return;
  const requestText = `${urlOf(request)} ${request.body ?? ''}`;
  const forbidden = [...forbiddenIds(request.actor)].filter(
    (id) => !requestText.includes(id) && !safeDecode(requestText).includes(id),
  );
  if (forbidden.length === 0) return;
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      expect(
        forbidden.includes(value),
        `leaked ${value}\n  ${describeRequest(request, answer)}`,
      ).toBe(false);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(JSON.parse(answer.text));
}

/** Sends, and checks every property that applies to any request. */
/** What the answers were, by status and code: printed with REST_FUZZ_STATS=1, to see what the generators reach. */
const outcomes = new Map<string, number>();

async function exercise(request: FuzzRequest): Promise<Answer> {
  const answer = await send(request);
  const outcome = `${request.method} ${answer.status} ${errorCode(answer) ?? ''}`;
  outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  if (process.env.REST_FUZZ_SHOW && outcome.includes(process.env.REST_FUZZ_SHOW))
    console.log('SHOW', describeRequest(request, answer));
  expectWellFormed(request, answer);
  expectNoForeignIds(request, answer);
  if (!['GET', 'HEAD'].includes(request.method)) await checkWriteEffects(request, answer);
  return answer;
}

// ---- generators: values ----------------------------------------------------------------

const worldId = () => fc.constantFrom(ids.a, ids.b, ids.m, ids.wsA, ids.wsB, ids.wsM);

const hostileText = fc.constantFrom(
  "' or 1=1 --",
  "'; drop table public.fuzz_canary; --",
  '"; drop table fuzz_private.canary; --',
  '\u0000',
  'a\u0000b',
  '%00',
  '1e309',
  '-1',
  '99999999999999999999999999999999',
  '-9223372036854775809',
  'NaN',
  'infinity',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-fffffffffffffff',
  '😀🏳️‍🌈',
  '\u202e\u0301',
  '\\',
  '"',
  "'",
  '*',
  '%',
  '()',
  ',',
  '{}',
  '{"a":1}',
  '{a,b}',
  '[1,2]',
  '(1,2]',
  'null',
  'true',
  '$1',
  '$$',
  '/*',
  '--',
  ':=',
  '\u0001\u001f',
  'x'.repeat(3000),
);

const filterValue = fc.oneof(
  hostileText,
  worldId(),
  fc.constantFrom('owner', 'admin', 'member', 'Fuzz A', 'Fuzz B', '2026-01-01', '0', '1'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt().map(String),
);

// ---- generators: the query-string grammar ------------------------------------------------

const COLUMNS: Record<Table, string[]> = {
  profiles: ['id', 'full_name', 'company', 'created_at', 'updated_at'],
  workspaces: ['id', 'name', 'created_by', 'created_at', 'updated_at'],
  workspace_members: ['workspace_id', 'user_id', 'role', 'created_at', 'updated_at'],
};

/** Embeddable relations: to-one or to-many. */
const RELATED: Record<Table, { table: Table; toOne: boolean }[]> = {
  profiles: [
    { table: 'workspace_members', toOne: false },
    { table: 'workspaces', toOne: false },
  ],
  workspaces: [
    { table: 'workspace_members', toOne: false },
    { table: 'profiles', toOne: false },
  ],
  workspace_members: [
    { table: 'workspaces', toOne: true },
    { table: 'profiles', toOne: true },
  ],
};

const anyColumn = fc.constantFrom(...new Set(Object.values(COLUMNS).flat()));

const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'is',
  'isdistinct',
  'in',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
  'fts',
  'plfts',
  'phfts',
  'wfts',
  'eq(any)',
  'like(all)',
  'fts(english)',
  'wfts(simple)',
  'fts(nosuchlang)',
];

function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, (character) => `\\${character}`)}"`;
}

const operand = fc.oneof(
  fc
    .tuple(fc.constantFrom(...OPERATORS), filterValue)
    .map(([operator, value]) =>
      operator === 'in'
        ? `in.(${value})`
        : operator === 'is'
          ? `is.${['null', 'not_null', 'true', 'false', 'unknown', value][Math.abs(value.length) % 6]}`
          : `${operator}.${value}`,
    ),
  fc.array(filterValue, { maxLength: 4 }).map((values) => `in.(${values.map(quoted).join(',')})`),
  fc
    .tuple(
      fc.constantFrom('eq(any)', 'gt(all)', 'like(any)'),
      fc.array(filterValue, { maxLength: 3 }),
    )
    .map(([operator, values]) => `${operator}.{${values.map(quoted).join(',')}}`),
  filterValue,
);

const negatable = (expression: fc.Arbitrary<string>) =>
  fc.tuple(fc.boolean(), expression).map(([not, value]) => (not ? `not.${value}` : value));

const filterOperand = negatable(operand);

/** A column (sometimes with a JSON path, sometimes quoted) of a table. */
function columnOf(table: Table): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...COLUMNS[table]) },
    { weight: 1, arbitrary: fc.constantFrom(...COLUMNS[table]).map(quoted) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...COLUMNS[table]),
          fc.constantFrom('->', '->>'),
          fc.constantFrom('a', '0', '-1', 'x y'),
        )
        .map(([column, arrow, key]) => `${column}${arrow}${key}`),
    },
    { weight: 1, arbitrary: anyColumn },
  );
}

const UUID_COLUMNS = new Set(['id', 'workspace_id', 'user_id', 'created_by']);
const TIME_COLUMNS = new Set(['created_at', 'updated_at']);

/** A filter that is well-typed for its column, so that it reaches the database and the policies. */
function typedFilter(
  table: Table,
): fc.Arbitrary<{ column: string; operator: string; value: string }> {
  const text = fc.oneof(
    fc.constantFrom('Fuzz A', 'Fuzz B', 'Fuzz M', 'owner', 'member', 'admin', 'Max Fuzz', ''),
    fc.stringMatching(/^[A-Za-z *%]{0,6}$/),
  );
  return fc.constantFrom(...COLUMNS[table]).chain((column) => {
    const options = UUID_COLUMNS.has(column)
      ? fc.oneof(
          fc.tuple(fc.constantFrom('eq', 'neq', 'gt', 'lte', 'isdistinct'), worldId()),
          fc.tuple(
            fc.constant('in'),
            fc
              .array(worldId(), { minLength: 1, maxLength: 3 })
              .map((list) => `(${list.join(',')})`),
          ),
          fc.tuple(fc.constant('is'), fc.constantFrom('null', 'not_null')),
        )
      : TIME_COLUMNS.has(column)
        ? fc.tuple(
            fc.constantFrom('gt', 'lt', 'gte', 'lte', 'neq'),
            fc.constantFrom('2020-01-01', '2100-01-01T00:00:00Z', 'now'),
          )
        : fc.oneof(
            fc.tuple(
              fc.constantFrom('eq', 'neq', 'like', 'ilike', 'match', 'imatch', 'gt', 'isdistinct'),
              text,
            ),
            fc.tuple(
              fc.constantFrom('fts', 'plfts', 'wfts(simple)'),
              fc.constantFrom('fuzz', 'Fuzz & A', 'member'),
            ),
            fc.tuple(
              fc.constant('in'),
              fc
                .array(text, { minLength: 1, maxLength: 3 })
                .map((list) => `(${list.map(quoted).join(',')})`),
            ),
            fc.tuple(fc.constant('is'), fc.constantFrom('null', 'not_null')),
            fc.tuple(
              fc.constantFrom('eq(any)', 'like(all)'),
              fc.array(text, { maxLength: 2 }).map((list) => `{${list.map(quoted).join(',')}}`),
            ),
          );
    return fc.tuple(fc.boolean(), options).map(([not, [operator, value]]) => ({
      column,
      operator: not ? `not.${operator}` : operator,
      value,
    }));
  });
}

/** A logic tree's inside: `a.eq.1,or(b.gt.2,not.and(...))`. */
function logicChildren(table: Table): fc.Arbitrary<string> {
  const { tree } = fc.letrec<{ tree: string }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      typedFilter(table).map(({ column, operator, value }) =>
        // In a tree, values with reserved characters are quoted (as supabase-js does).
        /[,()]/.test(value) && !/^[({]/.test(value)
          ? `${column}.${operator}.${quoted(value)}`
          : `${column}.${operator}.${value}`,
      ),
      typedFilter(table).map(({ column, operator, value }) => `${column}.${operator}.${value}`),
      fc.tuple(columnOf(table), filterOperand).map(([column, value]) => {
        const [operator, ...rest] = value.split('.');
        const joined = rest.join('.');
        // Values with reserved characters are quoted, as supabase-js does, or sent raw.
        const safe =
          /[,()"]/.test(joined) && !joined.startsWith('(') && !joined.startsWith('{')
            ? quoted(joined)
            : joined;
        return rest.length > 0 ? `${column}.${operator}.${safe}` : `${column}.${value}`;
      }),
      fc
        .tuple(
          fc.constantFrom('and', 'or', 'not.and', 'not.or'),
          fc.array(tie('tree'), { minLength: 1, maxLength: 3 }),
        )
        .map(([operator, children]) => `${operator}(${children.join(',')})`),
    ),
  }));
  return fc.array(tree, { minLength: 1, maxLength: 3 }).map((children) => children.join(','));
}

interface SelectPlan {
  text: string;
  shape: Shape;
  /** Paths of to-many embeds (for their filters, orders and limits). */
  embedPaths: { path: string; table: Table }[];
  hasInner: boolean;
}

/** A select list that keeps each level's key (so every row can be identified), plus random columns and embeds. */
function selectFor(table: Table, depth: number, prefix: string): fc.Arbitrary<SelectPlan> {
  const keyColumns = table === 'workspace_members' ? ['workspace_id', 'user_id'] : ['id'];
  const others = COLUMNS[table].filter((column) => !keyColumns.includes(column));
  const embed =
    depth >= 2
      ? fc.constant<SelectPlan[]>([])
      : fc
          .uniqueArray(fc.constantFrom(...RELATED[table]), {
            maxLength: 2,
            selector: (r) => r.table,
          })
          .chain((related) =>
            related.length === 0
              ? fc.constant<SelectPlan[]>([])
              : fc.tuple(
                  ...related.map((relation) =>
                    fc
                      .tuple(
                        fc.constantFrom('', `e_${relation.table}:`),
                        fc.constantFrom('', '', '!inner', '!left'),
                      )
                      .chain(([alias, join]) => {
                        const output = alias ? alias.slice(0, -1) : relation.table;
                        return selectFor(relation.table, depth + 1, `${prefix}${output}.`).map(
                          (child): SelectPlan => ({
                            text: `${alias}${relation.table}${join}(${child.text})`,
                            shape: {
                              table,
                              keys: [],
                              embeds: [{ output, toOne: relation.toOne, shape: child.shape }],
                            },
                            embedPaths: [
                              ...(relation.toOne
                                ? []
                                : [{ path: `${prefix}${output}`, table: relation.table }]),
                              ...child.embedPaths,
                            ],
                            hasInner: join === '!inner' || child.hasInner,
                          }),
                        );
                      }),
                  ),
                ),
          );
  const spread =
    table === 'workspace_members' && depth < 2
      ? fc.constantFrom(undefined, '...profiles(spread_profile:id,full_name)')
      : fc.constant(undefined);
  return fc
    .tuple(fc.subarray(others), fc.boolean(), fc.constantFrom('', 'n:', 'text'), embed, spread)
    .map(([columns, star, castOrAlias, embeds, spreadText]) => {
      const items = star ? ['*'] : [...keyColumns];
      for (const column of columns) {
        if (castOrAlias === 'text') items.push(`${column}::text`);
        else if (castOrAlias === 'n:') items.push(`${column}_x:${column}`);
        else items.push(column);
      }
      items.push(...embeds.map((plan) => plan.text));
      if (spreadText) items.push(spreadText);
      return {
        text: items.join(','),
        shape: {
          table,
          keys: keyColumns,
          embeds: embeds.flatMap((plan) => plan.shape.embeds),
          ...(spreadText ? { spreadProfileKey: 'spread_profile' } : {}),
        },
        embedPaths: embeds.flatMap((plan) => plan.embedPaths),
        hasInner: embeds.some((plan) => plan.hasInner),
      };
    });
}

const orderTerm = (table: Table) =>
  fc
    .tuple(
      columnOf(table),
      fc.constantFrom('', '.asc', '.desc', '.desc.nullslast', '.nullsfirst', '.sideways'),
    )
    .map(([column, direction]) => `${column}${direction}`);

const orderValue = (table: Table) =>
  fc.array(orderTerm(table), { minLength: 1, maxLength: 3 }).map((terms) => terms.join(','));

const rangeNumber = fc.oneof(
  fc.nat({ max: 5 }).map(String),
  fc.constantFrom('-1', '1.5', 'x', '99999999999999999999', '1e3', ' 2 ', ''),
);

const prefer = fc
  .subarray([
    'count=exact',
    'count=planned',
    'count=estimated',
    'return=representation',
    'return=minimal',
    'return=headers-only',
    'resolution=merge-duplicates',
    'resolution=ignore-duplicates',
    'missing=default',
    'handling=strict',
    'handling=lenient',
    'tx=rollback',
    'max-affected=1',
    'timezone=America/New_York',
    'timezone=Not/AZone',
    'params=single-object',
    'unknown=thing',
  ])
  .map((tokens) => tokens.join(', '));

const accept = fc.constantFrom(
  undefined,
  'application/json',
  'application/vnd.pgrst.object+json',
  'text/csv',
  'application/json;nulls=stripped',
  'application/openapi+json',
  'image/png',
  '*/*',
);

/** A read: keys always selected, random filters, logic trees, orders, ranges, counts. */
function readRequest(actor: fc.Arbitrary<Actor>) {
  return fc.constantFrom(...TABLES).chain((table) =>
    selectFor(table, 0, '').chain((select) => {
      const embedPath =
        select.embedPaths.length > 0
          ? fc.constantFrom(...select.embedPaths)
          : fc.constant(undefined);
      const parameter = fc.oneof(
        {
          weight: 4,
          arbitrary: typedFilter(table).map(({ column, operator, value }): [string, string] => [
            column,
            `${operator}.${value}`,
          ]),
        },
        fc
          .tuple(columnOf(table), filterOperand)
          .map(([column, value]): [string, string] => [column, value]),
        fc
          .tuple(fc.constantFrom('or', 'and', 'not.or', 'not.and'), logicChildren(table))
          .map(([key, children]): [string, string] => [key, `(${children})`]),
        orderValue(table).map((value): [string, string] => ['order', value]),
        fc
          .tuple(fc.constantFrom('limit', 'offset'), rangeNumber)
          .map(([key, value]): [string, string] => [key, value]),
        embedPath.chain((embed) =>
          embed === undefined
            ? fc.constant<[string, string]>(['limit', '3'])
            : fc.oneof(
                fc
                  .tuple(columnOf(embed.table), filterOperand)
                  .map(([column, value]): [string, string] => [`${embed.path}.${column}`, value]),
                logicChildren(embed.table).map((children): [string, string] => [
                  `${embed.path}.or`,
                  `(${children})`,
                ]),
                orderValue(embed.table).map((value): [string, string] => [
                  `${embed.path}.order`,
                  value,
                ]),
                rangeNumber.map((value): [string, string] => [`${embed.path}.limit`, value]),
                fc
                  .constantFrom('is.null', 'not.is.null')
                  .map((value): [string, string] => [embed.path, value]),
              ),
        ),
      );
      return fc
        .record({
          actor,
          method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD'),
          parameters: fc.array(parameter, { maxLength: 4 }),
          prefer: fc.constantFrom(undefined, 'count=exact', 'count=planned', 'count=estimated'),
          range: fc.constantFrom(undefined, '0-1', '1-', '0-0', '5-2', 'items=0-9', 'junk'),
          accept: fc.constantFrom(
            undefined,
            'application/json',
            'application/vnd.pgrst.object+json',
          ),
        })
        .map(({ actor: who, method, parameters, prefer: preference, range, accept: media }) => ({
          table,
          select,
          hasFilters: parameters.some(
            ([key]) =>
              !['order', 'limit', 'offset'].includes(key) &&
              !key.endsWith('.order') &&
              !key.endsWith('.limit'),
          ),
          request: {
            actor: who,
            method,
            path: table,
            query: [['select', select.text], ...parameters] as [string, string][],
            headers: {
              ...(preference ? { prefer: preference } : {}),
              ...(range ? { range } : {}),
              ...(media ? { accept: media } : {}),
            },
          } satisfies FuzzRequest,
        }));
    }),
  );
}

// ---- generators: bodies ---------------------------------------------------------------------

const jsonLeaf = fc.oneof(
  filterValue,
  worldId(),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 63, true, false, null),
);

const jsonValue = fc.oneof(
  { weight: 4, arbitrary: jsonLeaf },
  { weight: 1, arbitrary: fc.array(jsonLeaf, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), jsonLeaf, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }).map((text) => JSON.parse(text) as unknown) },
);

function rowBody(table: Table) {
  const writable = {
    profiles: ['id', 'full_name', 'company'],
    workspaces: ['id', 'name', 'created_by'],
    workspace_members: ['workspace_id', 'user_id', 'role'],
  }[table];
  const typical = {
    id: worldId(),
    workspace_id: worldId(),
    user_id: worldId(),
    created_by: worldId(),
    role: fc.constantFrom('owner', 'admin', 'member', 'superuser', ''),
    name: fc.constantFrom('Renamed', 'Fuzz B', '', ' padded ', 'x'.repeat(200)),
    full_name: fc.constantFrom('Mallory', ''),
    company: fc.constantFrom('Evil Corp'),
  } as Record<string, fc.Arbitrary<unknown>>;
  return fc
    .dictionary(
      fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(...writable) },
        { weight: 1, arbitrary: anyColumn },
      ),
      fc.oneof(
        { weight: 3, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: jsonValue },
      ),
      { minKeys: 1, maxKeys: 3 },
    )
    .chain((keys) =>
      fc.record(
        Object.fromEntries(
          Object.entries(keys).map(([key, value]) => [
            key,
            value === undefined ? (typical[key] ?? jsonValue) : fc.constant(value),
          ]),
        ),
      ),
    );
}

function body(table: Table): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: rowBody(table).map((row) => JSON.stringify(row)) },
    {
      weight: 2,
      arbitrary: fc.array(rowBody(table), { maxLength: 3 }).map((rows) => JSON.stringify(rows)),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        'null',
        '[]',
        '[[]]',
        '[{}]',
        '{}',
        '"text"',
        '42',
        '{"a":',
        '\u0000',
        '[{"role":"member"},{"name":"x"}]',
        JSON.stringify({ role: [[[[['deep']]]]] }),
        JSON.stringify(Array.from({ length: 2000 }, () => ({ role: 'member' }))),
        JSON.stringify({ role: 'member', nested: { a: [1, { b: 2 }] } }),
      ),
    },
    { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  );
}

/** A write: PATCH/DELETE with random filters, POST with random bodies (others' ids included). */
/** Writes that are well-formed, so that the policies (not the parser) decide: the interesting ones. */
function plausibleWrite(actor: fc.Arbitrary<Actor>) {
  const eq = (column: string, value: fc.Arbitrary<string>) =>
    value.map((id): [string, string] => [column, `eq.${id}`]);
  const memberFilter = fc.oneof(
    eq('user_id', worldId()),
    eq('workspace_id', worldId()),
    eq('role', fc.constantFrom('owner', 'admin', 'member')),
    fc
      .tuple(worldId(), worldId())
      .map(([x, y]): [string, string] => ['or', `(user_id.eq.${x},workspace_id.eq.${y})`]),
    fc.tuple(worldId()).map(([x]): [string, string] => ['user_id', `neq.${x}`]),
  );
  // Mostly a customer's workspace and a user who is not in it yet: inserts that can succeed.
  const member = fc.record({
    workspace_id: fc.oneof(fc.constantFrom(ids.wsA, ids.wsB), worldId()),
    user_id: fc.oneof(fc.constantFrom(ids.a, ids.b), worldId()),
    role: fc.constantFrom('owner', 'admin', 'member'),
  });
  const preference = fc.constantFrom(
    undefined,
    'return=representation',
    'return=representation, count=exact',
    'resolution=merge-duplicates, return=representation',
    'resolution=ignore-duplicates',
    'return=headers-only',
    'return=representation, tx=rollback',
    'return=representation, max-affected=1, handling=strict',
  );
  const media = fc.constantFrom(
    undefined,
    undefined,
    'text/csv',
    'application/vnd.pgrst.object+json',
    'application/json;nulls=stripped',
  );
  const write = fc.oneof(
    fc
      .tuple(fc.array(memberFilter, { maxLength: 2 }), fc.constantFrom('owner', 'admin', 'member'))
      .map(([filters, role]) => ({
        table: 'workspace_members' as Table,
        method: 'PATCH',
        query: filters,
        body: JSON.stringify({ role }),
      })),
    fc.array(memberFilter, { maxLength: 2 }).map((filters) => ({
      table: 'workspace_members' as Table,
      method: 'DELETE',
      query: filters,
      body: undefined,
    })),
    fc.oneof(member, fc.array(member, { minLength: 1, maxLength: 3 })).map((rows) => ({
      table: 'workspace_members' as Table,
      method: 'POST',
      query: [] as [string, string][],
      body: JSON.stringify(rows),
    })),
    fc
      .tuple(
        fc.array(
          fc.oneof(
            eq('id', worldId()),
            eq('created_by', worldId()),
            eq('name', fc.constantFrom('Fuzz A', 'Fuzz B')),
          ),
          { maxLength: 2 },
        ),
        fc.constantFrom('Renamed', 'Fuzz B', ''),
      )
      .map(([filters, name]) => ({
        table: 'workspaces' as Table,
        method: 'PATCH',
        query: filters,
        body: JSON.stringify({ name }),
      })),
  );
  return fc
    .tuple(actor, write, preference, media)
    .map(([who, { table, method, query, body: text }, prefer, accept]) => ({
      table,
      request: {
        actor: who,
        method,
        path: table,
        query,
        headers: {
          'content-type': 'application/json',
          ...(prefer ? { prefer } : {}),
          ...(accept ? { accept } : {}),
        },
        ...(text === undefined ? {} : { body: text }),
      } satisfies FuzzRequest,
    }));
}

function writeRequest(actor: fc.Arbitrary<Actor>) {
  return fc.oneof(plausibleWrite(actor), randomWrite(actor));
}

function randomWrite(actor: fc.Arbitrary<Actor>) {
  return fc
    .constantFrom<Table>('workspace_members', 'workspace_members', 'workspaces', 'profiles')
    .chain((table) => {
      const filter = fc.oneof(
        fc
          .tuple(columnOf(table), filterOperand)
          .map(([column, value]): [string, string] => [column, value]),
        fc
          .tuple(fc.constantFrom(...COLUMNS[table].slice(0, 3)), worldId())
          .map(([column, id]): [string, string] => [column, `eq.${id}`]),
        fc
          .tuple(fc.constantFrom('or', 'not.and'), logicChildren(table))
          .map(([key, children]): [string, string] => [key, `(${children})`]),
      );
      return fc
        .record({
          actor,
          method: fc.constantFrom('POST', 'PATCH', 'DELETE', 'PUT'),
          filters: fc.array(filter, { maxLength: 3 }),
          select: fc.constantFrom(
            undefined,
            '*',
            COLUMNS[table].join(','),
            `*,${RELATED[table][0]!.table}(*)`,
          ),
          onConflict: fc.constantFrom(undefined, 'workspace_id,user_id', 'id', 'role'),
          body: body(table),
          prefer,
        })
        .map(
          ({
            actor: who,
            method,
            filters,
            select,
            onConflict,
            body: text,
            prefer: preference,
          }) => ({
            table,
            request: {
              actor: who,
              method,
              path: table,
              query: [
                ...(select ? [['select', select] as [string, string]] : []),
                ...(onConflict && method === 'POST'
                  ? [['on_conflict', onConflict] as [string, string]]
                  : []),
                ...filters,
              ],
              headers: {
                'content-type': 'application/json',
                ...(preference ? { prefer: preference } : {}),
              },
              ...(method === 'DELETE' ? {} : { body: text }),
            } satisfies FuzzRequest,
          }),
        );
    });
}

// ---- generators: anything at all --------------------------------------------------------------

/** Names that exist (random strings may hit one: `id`, `*`): not hostile. */
const REAL_NAMES = new Set<string>([
  '*',
  ...TABLES,
  ...Object.values(COLUMNS).flat(),
  'fuzz_canary',
  'is_admin',
  'is_partner',
  'workspace_role',
  'is_workspace_member',
  'shares_workspace_with',
]);

const HOSTILE_NAMES = [
  'pg_catalog.pg_authid',
  'pg_authid',
  'auth.users',
  'users',
  '"x"; drop table fuzz_canary; --',
  'x"; drop table fuzz_canary; --',
  "x'; drop table fuzz_canary; --",
  'fuzz_canary; select 1',
  'workspaces; delete from workspaces',
  'id) or (1=1',
  'id --',
  '--',
  '/* x */',
  '/*',
  'x*/',
  'name::text; select',
  'text; select 1',
  'text) from auth.users --',
  'int $$',
  '$$ int',
  '$1',
  'x $1',
  'ẅörkspacës',
  'ｗｏｒｋｓｐａｃｅｓ',
  '工作区',
  '😀',
  '\u0000id',
  'id\u0000',
  'a'.repeat(70),
  'b'.repeat(5000),
  ' ',
  '',
  '.',
  '..',
  '../profiles',
  'a.b.c',
  'workspaces/../profiles',
  '%2e%2e',
  '%',
  '%zz',
  '\\',
  '"',
  "'",
  '(',
  ')',
  ',',
  ':',
  '::',
  '->',
  '!inner',
  'information_schema.tables',
  'fuzz_private.canary',
  'canary',
  'pg_sleep',
  'set_config',
  'current_setting',
  'version',
];

const hostileName = fc
  .oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_NAMES) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...HOSTILE_NAMES), fc.constantFrom(...HOSTILE_NAMES))
        .map(([x, y]) => `${x}${y}`),
    },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 10 }) },
  )
  .filter((name) => !REAL_NAMES.has(name.trim()));

const anyActor = fc.constantFrom<Actor>('anon', 'a', 'b');
const readActor = fc.constantFrom<Actor>('anon', 'a', 'b', 'service');

const headerText = fc.oneof(
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    maxLength: 30,
  }),
  fc.constantFrom('public', 'auth', 'storage', 'pg_catalog', ''),
);

const anyPath = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...TABLES) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        'is_admin',
        'is_partner',
        'workspace_role',
        'is_workspace_member',
        'shares_workspace_with',
        'nope',
      )
      .map((name) => `rpc/${name}`),
  },
  {
    weight: 1,
    arbitrary: hostileName
      .filter((name) => !isDotSegment(name))
      .map((name) => encodeURIComponent(name)),
  },
  {
    weight: 1,
    arbitrary: hostileName
      .filter((name) => !isDotSegment(name))
      .map((name) => `rpc/${encodeURIComponent(name)}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      'rpc',
      'rpc/',
      'workspaces/1',
      'a%2fb',
      '%E0%A4%A',
      '100%25',
      '%00',
      'fuzz_canary',
    ),
  },
);

const anyKey = fc.oneof(
  fc.constantFrom(
    'select',
    'order',
    'limit',
    'offset',
    'or',
    'and',
    'not.or',
    'columns',
    'on_conflict',
    'workspace_members.order',
    'workspace_members.limit',
    'profiles.or',
    'not',
    'x.y.z',
    'workspace_id',
    'user_id',
    'role',
    'workspace_id',
    'id',
    'name',
  ),
  anyColumn,
  hostileName,
);

const anyValue = fc.oneof(
  filterOperand,
  fc.constantFrom(
    '*',
    '*,workspace_members(*,profiles(*))',
    'id,name::text',
    'count()',
    'id.count()',
    'name->a->>b',
    'or(',
    '(id.eq.1',
    'id.desc.nullsfirst',
  ),
  // Deep nesting: logic trees, embeds and JSON paths around the nesting limit and far beyond.
  fc.integer({ min: 1, max: 400 }).map((n) => `(${'or('.repeat(n)}id.is.null${')'.repeat(n + 1)}`),
  fc.integer({ min: 1, max: 120 }).map((n) => `id${'->a'.repeat(n)}`),
  fc
    .integer({ min: 1, max: 80 })
    .map(
      (n) =>
        Array.from({ length: n }, (_, i) => (i % 2 ? 'workspaces(' : 'workspace_members(')).join(
          '',
        ) +
        '*' +
        ')'.repeat(n),
    ),
  hostileName,
  fc.string({ maxLength: 20 }),
);

/** Calls of the schema's functions: arguments right, wrong or missing, read like tables. */
const rpcRequest = fc
  .record({
    actor: readActor,
    fn: fc.constantFrom(
      'workspace_role',
      'is_workspace_member',
      'shares_workspace_with',
      'is_admin',
      'is_partner',
    ),
    method: fc.constantFrom('GET', 'POST', 'HEAD'),
    args: fc.dictionary(
      fc.constantFrom('workspace_id', 'user_id', 'x'),
      fc.oneof(worldId(), filterValue),
      { maxKeys: 2 },
    ),
    extra: fc.array(
      fc.oneof(
        fc.constantFrom<[string, string]>(
          ['select', '*'],
          ['select', 'x'],
          ['order', 'x'],
          ['limit', '1'],
          ['offset', '1'],
          ['x', 'eq.1'],
          ['or', '(x.eq.1)'],
        ),
      ),
      { maxLength: 2 },
    ),
    accept,
    prefer: fc.constantFrom(undefined, 'count=exact', 'params=single-object', 'tx=rollback'),
  })
  .map(({ actor, fn, method, args, extra, accept: media, prefer: preference }): FuzzRequest => ({
    actor,
    method,
    path: `rpc/${fn}`,
    query: [...(method === 'POST' ? [] : Object.entries(args)), ...extra],
    headers: {
      'content-type': 'application/json',
      ...(media ? { accept: media } : {}),
      ...(preference ? { prefer: preference } : {}),
    },
    ...(method === 'POST' ? { body: JSON.stringify(args) } : {}),
  }));

const anyRequest = fc
  .record({
    actor: fc.constantFrom<Actor>('anon', 'a', 'b', 'service'),
    method: fc.constantFrom('GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'PROPFIND'),
    path: anyPath,
    query: fc.array(fc.tuple(anyKey, anyValue), { maxLength: 5 }),
    prefer,
    accept,
    range: fc.option(
      fc.oneof(headerText, fc.constantFrom('0-1', '2-1', '0-', 'items=0-99999999999999999999')),
      { nil: undefined },
    ),
    profile: fc.option(headerText, { nil: undefined }),
    contentType: fc.constantFrom(
      undefined,
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'text/csv',
      'application/vnd.pgrst.object+json',
    ),
    body: fc.oneof(body('workspace_members'), body('workspaces')),
  })
  .map((value): FuzzRequest => {
    // service_role is only fuzzed reading (its writes would bypass every policy by design).
    const actor =
      value.actor === 'service' && !['GET', 'HEAD'].includes(value.method) ? 'a' : value.actor;
    return {
      actor,
      method: value.method,
      path: value.path,
      query: value.query,
      headers: {
        ...(value.prefer ? { prefer: value.prefer } : {}),
        ...(value.accept ? { accept: value.accept } : {}),
        ...(value.range !== undefined ? { range: value.range } : {}),
        ...(value.profile !== undefined
          ? {
              [['GET', 'HEAD'].includes(value.method) ? 'accept-profile' : 'content-profile']:
                value.profile,
            }
          : {}),
        ...(value.contentType ? { 'content-type': value.contentType } : {}),
      },
      ...(['GET', 'HEAD'].includes(value.method) ? {} : { body: value.body }),
    };
  });

// ---- hostile identifiers ---------------------------------------------------------------------------

type Slot =
  | 'table'
  | 'function'
  | 'column'
  | 'alias'
  | 'embed'
  | 'hint'
  | 'order'
  | 'filter'
  | 'logic'
  | 'embed-filter'
  | 'json-key'
  | 'cast'
  | 'operator'
  | 'columns'
  | 'on_conflict'
  | 'body-key';

/** Where a name goes in the grammar: quoted (exactly that name), or raw. */
function asName(name: string, isQuoted: boolean): string {
  return isQuoted ? quoted(name) : name;
}

function hostileRequest(slot: Slot, name: string, isQuoted: boolean, actor: Actor): FuzzRequest {
  const n = asName(name, isQuoted);
  const get = (path: string, query: [string, string][]): FuzzRequest => ({
    actor,
    method: 'GET',
    path,
    query,
    headers: {},
  });
  switch (slot) {
    case 'table':
      return get(encodeURIComponent(name), [['select', '*']]);
    case 'function':
      return get(`rpc/${encodeURIComponent(name)}`, []);
    case 'column':
      return get('workspaces', [['select', `id,${n}`]]);
    case 'alias':
      return get('workspaces', [['select', `id,${n}:name`]]);
    case 'embed':
      return get('workspaces', [['select', `id,${n}(*)`]]);
    case 'hint':
      return get('workspaces', [['select', `id,workspace_members!${n}(*)`]]);
    case 'order':
      return get('workspaces', [['order', `${n}.desc`]]);
    case 'filter':
      return get('workspaces', [[n, 'eq.1']]);
    case 'logic':
      return get('workspaces', [['or', `(${n}.eq.1,id.is.null)`]]);
    case 'embed-filter':
      return get('workspaces', [
        ['select', 'id,workspace_members(*)'],
        [`${n}.role`, 'eq.owner'],
      ]);
    case 'json-key':
      return get('workspaces', [
        ['select', `id,name->${n},created_by->>${n}`],
        ['order', `name->>${n}`],
      ]);
    case 'cast':
      return get('workspaces', [['select', `id,name::${name}`]]);
    case 'operator':
      return get('workspaces', [['name', `${name}.x`]]);
    case 'columns':
      return {
        actor,
        method: 'POST',
        path: 'workspace_members',
        query: [['columns', n]],
        headers: { 'content-type': 'application/json' },
        body: '{"role":"member"}',
      };
    case 'on_conflict':
      return {
        actor,
        method: 'POST',
        path: 'workspace_members',
        query: [['on_conflict', n]],
        headers: { 'content-type': 'application/json', prefer: 'resolution=merge-duplicates' },
        body: '{"role":"member"}',
      };
    case 'body-key':
      return {
        actor,
        method: 'PATCH',
        path: 'workspaces',
        query: [['id', `eq.${ids.wsA}`]],
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ [name]: 'x' }),
      };
  }
}

/** The characters PostgREST's pIdentifier takes for a cast: letters, digits, `_`, `$` and spaces. */
const CAST_CHARACTERS = /^[\p{L}\p{N}_ $]+$/u;

/** PostgREST's cast identifiers, minus what SQL reads as a parameter or dollar quote (`$1`, `$$`). */
function isSafeCast(cast: string): boolean {
  const trimmed = cast.trim();
  return CAST_CHARACTERS.test(trimmed) && !/(?:^|\s)\$/.test(trimmed);
}

/** Unknown or unparsable: a parse error, no such relation/column/function/relationship, or no grant. */
const IDENTIFIER_ERRORS = /^(PGRST1\d\d|PGRST2\d\d|42703|42501)$/;

/** Property 2 for one name in one slot: unknown or unparsable, never an identifier in SQL. */
async function checkHostile(
  slot: Slot,
  name: string,
  isQuoted: boolean,
  actor: Actor,
): Promise<void> {
  // `.` and `..` as a path segment are resolved by the URL itself: the request would leave /rest/v1.
  if ((slot === 'table' || slot === 'function') && isDotSegment(name)) return;
  const who =
    actor === 'service' && ['columns', 'on_conflict', 'body-key'].includes(slot) ? 'a' : actor;
  const request = hostileRequest(slot, name, isQuoted, who);
  const answer = await exercise(request);
  const context = `${slot} ${JSON.stringify(name)}\n  ${describeRequest(request, answer)}`;
  const code = errorCode(answer);
  if (slot === 'alias' || slot === 'json-key') {
    // Data, not identifiers: a parse error, or an answer. An empty name (or one
    // cut empty at a NUL, as PostgREST does) is `""`, which PostgreSQL refuses.
    // Quoted, the name is one; raw, its `,` or `(` may start other (unknown) items.
    const isEmptyName = /zero-length delimited identifier/.test(answer.text);
    if (answer.status >= 400 && !(who === 'anon' && code === '42501') && !isEmptyName)
      expect(code, context).toMatch(isQuoted ? /^PGRST100$/ : IDENTIFIER_ERRORS);
  } else if (slot === 'cast') {
    if (!isSafeCast(name)) expect(code, context).toBe('PGRST100');
  } else {
    expect(answer.status, context).toBeGreaterThanOrEqual(400);
    expect(code, context).toMatch(IDENTIFIER_ERRORS);
    // Never as an identifier: the name does not occur quoted in any statement.
    const quotedName = `"${name.replaceAll('"', '""')}"`;
    if (name.trim().length > 0 && name.trim() === name && name !== '*')
      for (const sql of answer.statements)
        expect(sql.includes(quotedName), `${context}\n  ${sql}`).toBe(false);
  }
}

const SLOTS: Slot[] = [
  'table',
  'function',
  'column',
  'alias',
  'embed',
  'hint',
  'order',
  'filter',
  'logic',
  'embed-filter',
  'json-key',
  'cast',
  'operator',
  'columns',
  'on_conflict',
  'body-key',
];

// ---- setup ----------------------------------------------------------------------------------------------

async function signIn(email: string): Promise<string> {
  const { data, error } = await clientFor(server).auth.signInWithPassword({
    email,
    password: PASSWORD,
  });
  if (error) throw error;
  return data.session.access_token;
}

interface Canaries {
  authUsers: number;
  publicCanary: string;
  privateCanary: string;
}

async function canaries(): Promise<Canaries> {
  const { rows } = await direct().query<Canaries>(
    `select (select count(*)::int from auth.users) "authUsers",
            (select json_agg(c order by c.id)::text from public.fuzz_canary c) "publicCanary",
            (select json_agg(c order by c.id)::text from fuzz_private.canary c) "privateCanary"`,
  );
  return rows[0]!;
}

let canariesBefore: Canaries;

beforeAll(async () => {
  testDatabase = await cloneTestDatabase();
  await testDatabase.db.exec(`
    create table public.fuzz_canary (id int primary key, secret text not null);
    insert into public.fuzz_canary values (1, 'public canary'), (2, 'still here');
    revoke all on public.fuzz_canary from anon, authenticated;
    create schema fuzz_private;
    create table fuzz_private.canary (id int primary key, secret text not null);
    insert into fuzz_private.canary values (1, 'private canary');
  `);
  server = await startTestServer({ database: recording(testDatabase.db) });
  await server.reloadSchema();
  const a = await createSignedInUser(server, { fullName: 'Ann Fuzz', company: 'Fuzz A' });
  const b = await createSignedInUser(server, { fullName: 'Ben Fuzz', company: 'Fuzz B' });
  const m = await createSignedInUser(server, { fullName: 'Max Fuzz', company: 'Fuzz M' });
  const { rows } = await direct().query<{ id: string; created_by: string }>(
    `select id, created_by from public.workspaces where created_by = any($1::uuid[])`,
    [[a.id, b.id, m.id]],
  );
  Object.assign(ids, {
    a: a.id,
    b: b.id,
    m: m.id,
    wsA: rows.find((row) => row.created_by === a.id)!.id,
    wsB: rows.find((row) => row.created_by === b.id)!.id,
    wsM: rows.find((row) => row.created_by === m.id)!.id,
  });
  // M is a member of both customers' workspaces (so A and B both see M's profile).
  await direct().query(
    `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $3, 'member'), ($2, $3, 'member')`,
    [ids.wsA, ids.wsB, ids.m],
  );
  tokens.anon = server.anonKey;
  tokens.service = server.serviceRoleKey;
  tokens.a = await signIn(a.email);
  tokens.b = await signIn(b.email);
  facts = await computeFacts();
  baseline = await snapshot();
  canariesBefore = await canaries();
}, 60_000);

afterAll(async () => {
  if (process.env.REST_FUZZ_STATS)
    console.log(
      [...outcomes]
        .sort((x, y) => y[1] - x[1])
        .map(([key, n]) => `${n}\t${key}`)
        .join('\n'),
    );
  await server?.close();
  await testDatabase?.drop();
});

// ---- the properties -----------------------------------------------------------------------------------

describe('/rest/v1 under fuzzing', () => {
  it('the world is as the policies say (sanity check of the oracle)', async () => {
    expect(facts.visible.a.workspaces).toEqual(new Set([ids.wsA]));
    expect(facts.visible.b.workspaces).toEqual(new Set([ids.wsB]));
    expect(facts.visible.a.profiles).toEqual(new Set([ids.a, ids.m]));
    for (const actor of ['a', 'b'] as const) {
      const answer = await exercise({
        actor,
        method: 'GET',
        path: 'workspaces',
        query: [['select', 'id,workspace_members(workspace_id,user_id,profiles(id))']],
        headers: {},
      });
      expect(answer.status).toBe(200);
      const rows = JSON.parse(answer.text) as { id: string; workspace_members: unknown[] }[];
      expect(rows.map((row) => row.id)).toEqual([...facts.visible[actor].workspaces]);
      expect(rows[0]!.workspace_members).toHaveLength(2);
    }
    const anon = await exercise({
      actor: 'anon',
      method: 'GET',
      path: 'workspaces',
      query: [],
      headers: {},
    });
    expect([anon.status, errorCode(anon)]).toEqual([401, '42501']);
  });

  it(
    '1. never answers 5xx, and every error is PostgREST-shaped',
    { timeout: PROPERTY_TIMEOUT },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof({ weight: 4, arbitrary: anyRequest }, rpcRequest),
          async (request) => {
            await exercise(request);
          },
        ),
        { numRuns: RUNS, seed: SEED },
      );
    },
  );

  it(
    '2. hostile identifiers never reach SQL: unknown or unparsable, canaries intact',
    { timeout: PROPERTY_TIMEOUT },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...SLOTS),
          hostileName,
          fc.boolean(),
          readActor,
          checkHostile,
        ),
        { numRuns: RUNS, seed: SEED },
      );
    },
  );

  it(
    '2. every listed hostile name in every slot, raw and quoted',
    { timeout: PROPERTY_TIMEOUT },
    async () => {
      for (const [index, name] of HOSTILE_NAMES.entries()) {
        for (const slot of SLOTS) {
          await checkHostile(slot, name, index % 2 === 0, index % 3 === 0 ? 'service' : 'a');
          await checkHostile(slot, name, index % 2 === 1, 'b');
        }
      }
    },
  );

  it('2. casts are limited to PostgREST identifiers; other schemas are not exposed', async () => {
    for (const cast of [
      'text; select 1',
      'text)',
      'text--',
      'text/*',
      "text'",
      'text"',
      'pg_catalog.text',
      'int[]',
      'varchar(10)',
    ]) {
      const request: FuzzRequest = {
        actor: 'a',
        method: 'GET',
        path: 'workspaces',
        query: [['select', `id,name::${cast}`]],
        headers: {},
      };
      const answer = await exercise(request);
      expect([answer.status, errorCode(answer)], describeRequest(request, answer)).toEqual([
        400,
        'PGRST100',
      ]);
    }
    for (const select of [
      'id,name::text',
      'id,name::varchar',
      'id,name::character varying',
      'id,created_at::date',
      'id,created_at::timestamp with time zone',
      'id,created_by::text',
      'id::text',
    ]) {
      const request: FuzzRequest = {
        actor: 'a',
        method: 'GET',
        path: 'workspaces',
        query: [['select', select]],
        headers: {},
      };
      expect((await exercise(request)).status, select).toBe(200);
    }
    // Dollar quotes and parameter references would change the statement around the cast.
    for (const select of ['id::int $$,name::$$ text', 'name::text $1', 'name::$tag$']) {
      const request: FuzzRequest = {
        actor: 'a',
        method: 'GET',
        path: 'workspaces',
        query: [['select', select]],
        headers: {},
      };
      const answer = await exercise(request);
      expect([answer.status, errorCode(answer)], describeRequest(request, answer)).toEqual([
        400,
        'PGRST100',
      ]);
    }
    for (const actor of ['anon', 'a', 'service'] as const) {
      for (const path of ['users', 'canary', 'pg_authid', 'identities', 'sessions']) {
        const answer = await exercise({
          actor,
          method: 'GET',
          path,
          query: [['select', '*']],
          headers: {},
        });
        expect([answer.status, errorCode(answer)], `${actor} ${path}`).toEqual([404, 'PGRST205']);
      }
      for (const schema of ['auth', 'fuzz_private', 'pg_catalog', 'information_schema']) {
        const answer = await exercise({
          actor,
          method: 'GET',
          path: 'users',
          query: [],
          headers: { 'accept-profile': schema },
        });
        expect([answer.status, errorCode(answer)], `${actor} ${schema}`).toEqual([406, 'PGRST106']);
      }
    }
  });

  it(
    '3. reads (filters, logic trees, embeds, orders, ranges, counts) return only rows the policies allow',
    { timeout: PROPERTY_TIMEOUT },
    async () => {
      let rowsChecked = 0;
      await fc.assert(
        fc.asyncProperty(readRequest(readActor), async ({ table, select, hasFilters, request }) => {
          const answer = await exercise(request);
          const context = describeRequest(request, answer);
          if (request.actor === 'anon') {
            // anon holds no grant on the product tables: never rows.
            expect(answer.status, context).toBeGreaterThanOrEqual(400);
            return;
          }
          if (answer.status >= 300) return;
          const allowed = facts.visible[request.actor][table];
          const total = /\/(\d+)$/.exec(answer.headers.get('content-range') ?? '')?.[1];
          if (total !== undefined && request.headers.prefer === 'count=exact') {
            expect(Number(total), context).toBeLessThanOrEqual(allowed.size);
            if (!hasFilters && !select.hasInner) expect(Number(total), context).toBe(allowed.size);
          }
          if (request.method === 'HEAD') return;
          rowsChecked += checkRows(request.actor, select.shape, JSON.parse(answer.text), context);
        }),
        { numRuns: RUNS, seed: SEED },
      );
      expect(rowsChecked).toBeGreaterThan(RUNS / 4);
    },
  );

  it(
    "3. writes (PATCH/DELETE with random filters, POST with others' ids) change only what the policies allow",
    { timeout: PROPERTY_TIMEOUT },
    async () => {
      let writesByA = 0;
      await fc.assert(
        fc.asyncProperty(writeRequest(anyActor), async ({ table, request }) => {
          const answer = await exercise(request);
          if (request.actor === 'a' && answer.status < 300) writesByA += 1;
          if (
            answer.status >= 300 ||
            !answer.text ||
            !(answer.headers.get('content-type') ?? '').includes('json')
          )
            return;
          // Returned rows are rows the actor could see before or after the write (or,
          // with tx=rollback, a row the actor may insert).
          const returned = JSON.parse(answer.text) as unknown;
          const after = answer.visibleAfter ?? facts.visible[request.actor];
          for (const row of (Array.isArray(returned) ? returned : [returned]) as Record<
            string,
            unknown
          >[]) {
            if (row === null || typeof row !== 'object') continue;
            const key = rowKey(table, row);
            if (key.includes('undefined')) continue;
            expect(
              facts.visible[request.actor][table].has(key) ||
                after[table].has(key) ||
                (request.method === 'POST' &&
                  isPermittedChange(request.actor, `${table}:${key}`, undefined, row)),
              `returned ${table} ${key}\n  ${describeRequest(request, answer)}`,
            ).toBe(true);
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
      expect(writesByA).toBeGreaterThan(0);
    },
  );

  it('answers what the fuzz once found as 4xx, not 5xx', async () => {
    const deepEmbed = Array.from({ length: 99 }, (_, i) =>
      i % 2 ? 'workspaces(' : 'workspace_members(',
    ).join('');
    const cases: [Actor, string, string, [string, string][], string?, Record<string, string>?][] = [
      ['a', 'GET', '100%25', []], // a lone % after decoding: decoded twice, URIError
      ['a', 'GET', 'rpc/100%25', []],
      ['a', 'GET', 'workspaces', [['select', 'id,name->a\u0000b']]], // NUL in a JSON key: literal() threw
      ['a', 'GET', 'workspaces', [['select', 'id,"a\u0000b":name']]], // NUL in SQL text: 08P01 (503)
      ['a', 'GET', 'workspaces', [['or', `(${'or('.repeat(3000)}id.is.null${')'.repeat(3001)}`]]], // stack overflow
      ['service', 'GET', 'workspaces', [['select', `${deepEmbed}*${')'.repeat(99)}`]]], // PGlite: 26000
      ['a', 'GET', 'workspaces', [['select', `name${'->a'.repeat(1000)}`]]],
      ['a', 'GET', 'workspaces', [['select', 'id::int $$,name::$$ text']]], // dollar quote across casts
      ['a', 'GET', 'workspaces', [['select', 'id::text $1']]],
      ['a', 'GET', 'workspaces', [['select', 'id:: ']]],
      ['a', 'PATCH', 'workspaces', [], '{}'], // nothing to set, a bound body: 08P01 (503)
      ['anon', 'PATCH', 'workspace_members', [['role', 'eq.owner']], '{}'],
      // params=single-object on a function without a json argument: parameters[0] undefined (500)
      ['anon', 'POST', 'rpc/is_admin', [], '{}', { prefer: 'params=single-object' }],
      // headers-only read the CSV body as JSON for the Location header: SyntaxError (500)
      [
        'service',
        'POST',
        'workspace_members',
        [],
        JSON.stringify({ workspace_id: ids.wsA, user_id: ids.b, role: 'member' }),
        { prefer: 'return=headers-only, tx=rollback', accept: 'text/csv' },
      ],
    ];
    for (const [actor, method, path, query, body, headers] of cases) {
      const request: FuzzRequest = {
        actor,
        method,
        path,
        query,
        headers: { 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body }),
      };
      const answer = await exercise(request);
      expect(answer.status, describeRequest(request, answer)).toBeGreaterThanOrEqual(200);
      expect(answer.status, describeRequest(request, answer)).toBeLessThan(500);
      expect(errorCode(answer) ?? '', describeRequest(request, answer)).not.toMatch(
        /^(08|26|42601)/,
      );
      if (headers?.prefer?.startsWith('return=headers-only'))
        expect(answer.headers.get('location')).toMatch(/^\/workspace_members\?/);
    }
  });

  it('canaries outside the API are untouched', async () => {
    expect(await canaries()).toEqual(canariesBefore);
    const { rows } = await direct().query<{ n: number }>(
      `select count(*)::int n from pg_catalog.pg_authid`,
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
  });
});
