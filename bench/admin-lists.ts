// `npm run bench:admin-lists`: the admin area's lists (issue 17) with 100,000
// rows in each of leads, admin_audit_log, outbox_messages and demo_bookings,
// on the built server, on PGlite and then on PostgreSQL (DATABASE_URL, or a
// throw-away local cluster when the binaries are installed). Prints numbers,
// asserts nothing. The goal: a deep page (after 50 pages of 50, by cursor)
// costs about what the first page does, because every list pages by key over
// an index that serves its order.
//
// - Set-up: the server creates the database; an admin signs up; with the
//   server stopped, the bench inserts the rows set-based in SQL as the
//   superuser. The session runs with session_replication_role = replica, so
//   no row trigger fires: not the outbox's NOTIFY (100,000 wake-ups), not the
//   audit triggers. The audit log's append-only trigger refuses UPDATE, DELETE
//   and TRUNCATE only; inserting is what it allows, and it is left as it is.
//   Three rows in a row share a created_at, so the cursor's tie-break on id is
//   exercised.
// - Each list is read as the UI reads it, through the data API as the admin
//   (JWT verification and row-level security included): leads and bookings
//   with `or=(created_at.lt.X,and(created_at.eq.X,id.lt.Y))`, the audit log
//   with `id=lt.X`, the email log through admin_list_emails with its cursor.
//   The deep page's cursor comes from walking 50 pages through the API.
// - Beside it, the limit: the raw driver running the same SQL in one round
//   trip under the same role and claims (PGlite in-process on the stopped
//   server's folder, `pg` on PostgreSQL).
//
// BENCH_ENGINES=pglite|postgres runs one engine; BENCH_ROWS (100000) rows per
// table; BENCH_ROUNDS (5) rounds of BENCH_QUERIES (20) sequential requests.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import {
  freePort,
  loadSchema,
  onEachEngine,
  startBenchServer,
  stopBenchServer,
  waitForHealth,
  expectOk,
} from './support';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 20);
const PAGE = 50;
const DEPTH = 50;
const EMAIL = 'bench-admin@example.com';
const PASSWORD = 'a bench passphrase that is long enough';

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

// ---------------------------------------------------------------------------
// Processes and HTTP

async function authenticate(base: string, anonKey: string, path: string): Promise<string> {
  const response = await expectOk(
    await fetch(`${base}/auth/v1/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: anonKey },
      body: JSON.stringify({
        email: EMAIL,
        password: PASSWORD,
        data: { full_name: 'Bench Admin' },
      }),
    }),
    path,
  );
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * The admin area's data needs an aal2 session (decision 027): enrol an
 * authenticator app and verify a code, as every admin has, and return the
 * raised access token.
 */
async function secondFactor(base: string, anonKey: string, token: string): Promise<string> {
  const headers = {
    apikey: anonKey,
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  };
  const post = async (pathname: string, body: unknown) =>
    (await (
      await expectOk(
        await fetch(`${base}/auth/v1/${pathname}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        }),
        pathname,
      )
    ).json()) as Record<string, unknown>;
  const factor = (await post('factors', { factor_type: 'totp' })) as {
    id: string;
    totp: { secret: string };
  };
  const challenge = (await post(`factors/${factor.id}/challenge`, {})) as { id: string };
  const code = new TOTP({
    secret: Secret.fromBase32(factor.totp.secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  }).generate();
  const session = (await post(`factors/${factor.id}/verify`, {
    challenge_id: challenge.id,
    code,
  })) as { access_token: string };
  if (decodeJwt(session.access_token).aal !== 'aal2') throw new Error('admin not aal2');
  return session.access_token;
}

// ---------------------------------------------------------------------------
// Seeding

function seedSql(adminId: string, rows: number): string {
  const admin = literal(adminId);
  // created_at: three rows share each moment, one moment every 5 minutes back from now.
  const at = `now() - ((n / 3) * interval '5 minutes')`;
  return `
set session_replication_role = replica;
update auth.users set raw_app_meta_data = raw_app_meta_data || '{"role":"admin"}' where id = ${admin};
insert into public.leads (full_name, email, company, team_size, monthly_call_volume, consent_at,
  status, message, created_at, updated_at)
select 'Lead ' || n, 'lead' || n || '@example.com', 'Company ' || (n % 5000),
  (array['1-5','6-20','21-50','51-200','200+'])[1 + n % 5],
  (array['under-500','500-2000','2000-10000','10000+'])[1 + n % 4], ${at},
  (array['new','contacted','qualified','won','lost'])[1 + n % 5],
  'We answer about ' || n % 900 || ' calls a month.', ${at}, ${at}
from generate_series(1, ${rows}) n;
insert into public.admin_audit_log (at, actor_id, actor_email, action, target_table, target_id, before, after, client_ip)
select ${at}, ${admin}, ${literal(EMAIL)}, 'update', 'leads', md5(n::text),
  jsonb_build_object('status', 'new'), jsonb_build_object('status', 'contacted'), '127.0.0.1'
from generate_series(1, ${rows}) n;
insert into public.outbox_messages (channel, recipient, subject, body_text, template, metadata,
  status, attempts, next_attempt_at, last_error, created_at, sent_at)
select 'email', 'person' || n || '@example.com', 'Message ' || n,
  'Hello, this is message ' || n || E'.\\n\\nhttps://cervana.example/demo?booking=' || md5(n::text),
  (array['sales_inquiry_confirmation','sales_inquiry_notification','demo_booking_booked',
    'partner_application_confirm','auth.magic_link','auth.recovery'])[1 + n % 6],
  jsonb_build_object('n', n),
  (array['sent','logged','failed','pending'])[1 + n % 4], 1 + n % 3, ${at},
  case when n % 4 = 2 then '550 no such mailbox' end, ${at}, case when n % 4 = 0 then ${at} end
from generate_series(1, ${rows}) n;
insert into public.demo_bookings (starts_at, ends_at, full_name, email, company, team_size,
  time_zone, manage_token_hash, created_at, updated_at)
select timestamptz '2020-01-01' + n * interval '30 minutes',
  timestamptz '2020-01-01' + n * interval '30 minutes' + interval '30 minutes',
  'Booker ' || n, 'booker' || n || '@example.com', 'Company ' || (n % 5000), '6-20', 'UTC',
  sha256(convert_to('bench-' || n, 'UTF8')), ${at}, ${at}
from generate_series(1, ${rows}) n;
set session_replication_role = origin;
analyze public.leads;
analyze public.admin_audit_log;
analyze public.outbox_messages;
analyze public.demo_bookings;
`;
}

// ---------------------------------------------------------------------------
// The lists, through the API and in SQL

type Cursor = { createdAt: string; id: string } | { id: number } | null;

interface List {
  name: string;
  /** The API request for the page after `cursor`. */
  request: (cursor: Cursor) => { path: string; method: 'GET' | 'POST'; body?: unknown };
  /** The same page in SQL, returning the body the API sends. */
  sql: (cursor: Cursor) => string;
  /** The cursor after a page's last row. */
  next: (row: Record<string, unknown>) => Cursor;
}

const byTime = (row: Record<string, unknown>): Cursor => ({
  createdAt: String(row.created_at),
  id: String(row.id),
});

function tableList(name: string, table: string, columns: string): List {
  return {
    name,
    request: (cursor) => {
      const after =
        cursor && 'createdAt' in cursor
          ? // As the app sends it: the lte bounds the index range, the or breaks ties.
            `&created_at=lte.${encodeURIComponent(cursor.createdAt)}&or=${encodeURIComponent(`(created_at.lt."${cursor.createdAt}",and(created_at.eq."${cursor.createdAt}",id.lt.${cursor.id}))`)}`
          : '';
      return {
        method: 'GET',
        path: `/rest/v1/${table}?select=${columns}&order=created_at.desc,id.desc&limit=${PAGE + 1}${after}`,
      };
    },
    sql: (cursor) => {
      const after =
        cursor && 'createdAt' in cursor
          ? `where created_at <= ${literal(cursor.createdAt)}::timestamptz and (created_at < ${literal(cursor.createdAt)}::timestamptz or (created_at = ${literal(cursor.createdAt)}::timestamptz and id < ${literal(cursor.id)}::uuid))`
          : '';
      return `select coalesce(json_agg(t), '[]')::text from (select ${columns} from public.${table} ${after}
        order by created_at desc, id desc limit ${PAGE + 1}) t`;
    },
    next: byTime,
  };
}

const AUDIT_COLUMNS =
  'id,at,actor_id,actor_email,action,target_table,target_id,before,after,client_ip';

const lists: List[] = [
  tableList(
    'leads',
    'leads',
    'id,full_name,email,company,status,owner_id,deal_value_cents,currency,partner_id,created_at',
  ),
  {
    name: 'audit log',
    request: (cursor) => ({
      method: 'GET',
      path: `/rest/v1/admin_audit_log?select=${AUDIT_COLUMNS}&order=id.desc&limit=${PAGE + 1}${
        cursor && 'id' in cursor && !('createdAt' in cursor) ? `&id=lt.${cursor.id}` : ''
      }`,
    }),
    sql: (cursor) =>
      `select coalesce(json_agg(t), '[]')::text from (select ${AUDIT_COLUMNS} from public.admin_audit_log
        ${cursor && !('createdAt' in cursor) ? `where id < ${cursor.id}` : ''}
        order by id desc limit ${PAGE + 1}) t`,
    next: (row) => ({ id: Number(row.id) }),
  },
  {
    name: 'email log (admin_list_emails)',
    request: (cursor) => ({
      method: 'POST',
      path: '/rest/v1/rpc/admin_list_emails',
      body: {
        p_limit: PAGE + 1,
        ...(cursor && 'createdAt' in cursor
          ? { p_after_created_at: cursor.createdAt, p_after_id: cursor.id }
          : {}),
      },
    }),
    sql: (cursor) =>
      `select coalesce(json_agg(t), '[]')::text from public.admin_list_emails(p_limit => ${PAGE + 1}${
        cursor && 'createdAt' in cursor
          ? `, p_after_created_at => ${literal(cursor.createdAt)}::timestamptz, p_after_id => ${literal(cursor.id)}::uuid`
          : ''
      }) t`,
    next: byTime,
  },
  tableList(
    'demo bookings',
    'demo_bookings',
    'id,starts_at,ends_at,full_name,email,company,team_size,status,created_at',
  ),
];

async function fetchPage(
  base: string,
  headers: Record<string, string>,
  list: List,
  cursor: Cursor,
): Promise<Record<string, unknown>[]> {
  const request = list.request(cursor);
  const response = await expectOk(
    await fetch(`${base}${request.path}`, {
      method: request.method,
      headers,
      ...(request.body ? { body: JSON.stringify(request.body) } : {}),
    }),
    list.name,
  );
  return (await response.json()) as Record<string, unknown>[];
}

/** The cursor of page DEPTH + 1, walking the pages by key (and checking no row comes twice). */
async function deepCursor(
  base: string,
  headers: Record<string, string>,
  list: List,
): Promise<Cursor> {
  let cursor: Cursor = null;
  const seen = new Set<string>();
  for (let page = 0; page < DEPTH; page += 1) {
    const rows = (await fetchPage(base, headers, list, cursor)).slice(0, PAGE);
    for (const row of rows) seen.add(String(row.id));
    if (rows.length < PAGE) throw new Error(`${list.name}: only ${page + 1} pages`);
    cursor = list.next(rows.at(-1)!);
  }
  if (seen.size !== PAGE * DEPTH) throw new Error(`${list.name}: rows repeated across pages`);
  return cursor;
}

/** Median of each round of QUERIES sequential calls, after warming up. */
async function rounds(run: () => Promise<void>): Promise<number[]> {
  for (let warm = 0; warm < 5; warm += 1) await run();
  const medians: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const times: number[] = [];
    for (let index = 0; index < QUERIES; index += 1) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    medians.push(median(times));
  }
  return medians;
}

function rawStatement(claims: Record<string, unknown>, sql: string): string {
  return `begin;
select set_config('role', 'authenticated', true),
  set_config('request.jwt.claims', ${literal(JSON.stringify({ ...claims, role: 'authenticated' }))}, true),
  set_config('search_path', 'public, extensions', true);
${sql};
commit;`;
}

interface Timing {
  list: string;
  page: 'first' | 'deep';
  api: number[];
  raw: number[];
}

// ---------------------------------------------------------------------------
// Output

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
const spread = (values: number[]) =>
  `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`;

function row(cells: string[], widths: number[]) {
  console.log(
    `  ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 10)).join(' ')}`.trimEnd(),
  );
}

function print(timings: Timing[]) {
  const widths = [50, 20, 20, 8, 12];
  console.log(
    `\n  ms per page of ${PAGE}, median (min–max) of ${ROUNDS} round medians of ${QUERIES} sequential requests`,
  );
  row(['', 'data API (admin)', 'raw driver, same SQL', 'ratio', 'deep/first'], widths);
  for (const timing of timings) {
    const first = timings.find((other) => other.list === timing.list && other.page === 'first')!;
    row(
      [
        `${timing.list}, ${timing.page === 'first' ? 'first page' : `page ${DEPTH + 1} (cursor)`}`,
        spread(timing.api),
        spread(timing.raw),
        `${(median(timing.api) / Math.max(median(timing.raw), 0.01)).toFixed(1)}×`,
        timing.page === 'deep' ? `${(median(timing.api) / median(first.api)).toFixed(2)}×` : '',
      ],
      widths,
    );
  }
}

// ---------------------------------------------------------------------------
// Runs

console.log(
  `admin lists benchmark, node ${process.version}: ${ROWS.toLocaleString('en-US')} rows in each of leads, admin_audit_log, outbox_messages, demo_bookings`,
);
await onEachEngine(async (engine, databaseUrl) => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-bench-admin-lists-'));
  let server = startBenchServer(port, dataDir, databaseUrl);
  try {
    await waitForHealth(base, server);
    const { anonKey } = (await (await fetch(`${base}/config.json`)).json()) as { anonKey: string };
    const signedUp = await authenticate(base, anonKey, 'signup');
    const adminId = String(decodeJwt(signedUp).sub);
    await stopBenchServer(server);
    const seeding = performance.now();
    await loadSchema(seedSql(adminId, ROWS), dataDir, databaseUrl);
    const seeded = ((performance.now() - seeding) / 1000).toFixed(1);
    server = startBenchServer(port, dataDir, databaseUrl);
    await waitForHealth(base, server);

    const token = await secondFactor(
      base,
      anonKey,
      await authenticate(base, anonKey, 'token?grant_type=password'),
    );
    const headers = {
      apikey: anonKey,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    };
    const cursors = new Map<string, Cursor>();
    const timings: Timing[] = [];
    for (const list of lists) {
      const cursor = await deepCursor(base, headers, list);
      cursors.set(list.name, cursor);
      for (const [page, at] of [
        ['first', null],
        ['deep', cursor],
      ] as const) {
        timings.push({
          list: list.name,
          page,
          api: await rounds(async () => {
            await fetchPage(base, headers, list, at);
          }),
          raw: [],
        });
      }
    }
    await stopBenchServer(server);

    // The limit: the same SQL through the raw driver (the embedded database opens only with the server stopped).
    const claims = decodeJwt(token);
    const pglite = databaseUrl ? null : await PGlite.create(path.join(dataDir, 'pgdata'));
    const client = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : null;
    await client?.connect();
    try {
      for (const timing of timings) {
        const list = lists.find((candidate) => candidate.name === timing.list)!;
        const statement = rawStatement(
          claims,
          list.sql(timing.page === 'first' ? null : cursors.get(list.name)!),
        );
        timing.raw = await rounds(async () => {
          if (client) await client.query(statement);
          else await pglite!.exec(statement);
        });
      }
    } finally {
      await client?.end();
      await pglite?.close();
    }

    console.log(`\n${engine} (${(ROWS * 4).toLocaleString('en-US')} rows inserted in ${seeded} s)`);
    print(timings);
  } finally {
    await stopBenchServer(server);
    await rm(dataDir, { recursive: true, force: true });
  }
});
