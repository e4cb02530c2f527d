// `npm run bench:rest`: the data API beside the raw driver, in the same run, on
// PGlite and then on PostgreSQL (DATABASE_URL, or a throw-away local cluster
// when the binaries are installed). 20 concurrent keep-alive clients signed in
// as a user (JWT verification, the live-session check and row-level security
// on every request) run a single-row select by id and a 50-row page with one
// embed; in alternating rounds (BENCH_ROUNDS, default 5, of BENCH_SECONDS,
// default 4, per side) the raw driver runs the very SQL the server runs for
// those requests at the same concurrency:
//
// - "raw, plain select": that statement alone with its parameters, prepared once per
//   connection, as the database's owner (no role, no claims, so no row-level security).
// - "raw, same settings": one round trip of BEGIN; the request context's statement
//   (search_path, role authenticated, the same claims, method, path, headers,
//   transaction_read_only, client_ip, statement_timeout, auth.require_live_session);
//   the statement with its parameters as literals; COMMIT (the simple protocol: one
//   script, planned each time). That is what the request amounts to in SQL.
//
// PostgreSQL: the raw side is a `pg` pool of 20 in this process. PGlite: the raw side
// is PGlite opened in this process (on its main thread: the physical limit; the server
// runs its PGlite in a worker thread) on a copy of the server's data folder taken while
// the server was stopped. Each side prints req/s, p50 and p99 as medians over the rounds
// with min–max; the server's share of each raw side is the median of the per-round ratios.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import {
  parentPid,
  freePort,
  loadSchema,
  measuredRound,
  onEachEngine,
  printSides,
  roundResult,
  type RoundResult,
  roundSettings,
  runClosedLoop,
  startBenchServer,
  stopBenchServer,
  waitForHealth,
} from './support';

const CONCURRENCY = 20;
const AUTHORS = 100;
const POSTS = 10_000;
const { rounds: ROUNDS, durationMs: DURATION_MS } = roundSettings();
// BENCH_PROFILE=1: only the data API's single-row select, e.g. with BENCH_NODE_ARGS=--cpu-prof.
const PROFILE_ONLY = process.env.BENCH_PROFILE === '1';

const SCHEMA = `
create table if not exists public.bench_authors (id integer primary key, name text not null);
create table if not exists public.bench_posts (
  id bigserial primary key,
  author_id integer not null references public.bench_authors (id),
  title text not null,
  body text not null,
  created_at timestamptz not null default now()
);
create index if not exists bench_posts_author_id_idx on public.bench_posts (author_id);
alter table public.bench_authors enable row level security;
alter table public.bench_posts enable row level security;
drop policy if exists bench_read on public.bench_authors;
create policy bench_read on public.bench_authors for select to authenticated using (true);
drop policy if exists bench_read on public.bench_posts;
create policy bench_read on public.bench_posts for select to authenticated using (true);
drop policy if exists bench_write on public.bench_posts;
create policy bench_write on public.bench_posts for insert to authenticated with check (true);
insert into public.bench_authors select i, 'Author ' || i from generate_series(1, ${AUTHORS}) i on conflict do nothing;
insert into public.bench_posts (author_id, title, body)
  select 1 + (i % ${AUTHORS}), 'Post ' || i, repeat('Call summary text. ', 10) from generate_series(1, ${POSTS}) i;
`;

/** A read of the benchmark: the API request, and the SQL the server runs for it (server/rest/sql). */
interface ReadCase {
  label: string;
  path(index: number): string;
  sql: string;
  params(index: number): string[];
}

const rowId = (index: number) => String(1 + ((index * 7919) % POSTS));
const pageOffset = (index: number) => String((index * 50) % (POSTS - 50));

const READS: ReadCase[] = [
  {
    label: 'select one row by id',
    path: (index) => `/rest/v1/bench_posts?select=*&id=eq.${rowId(index)}`,
    sql: `WITH pgrst_source AS (SELECT "bench_posts".* FROM "public"."bench_posts" AS "bench_posts" WHERE "bench_posts"."id" = $1) SELECT null::bigint AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, coalesce(json_agg(_postgrest_t), '[]')::text AS body FROM (SELECT * FROM pgrst_source) _postgrest_t`,
    params: (index) => [rowId(index)],
  },
  {
    label: '50-row page with one embed',
    path: (index) =>
      `/rest/v1/bench_posts?select=id,title,created_at,author:bench_authors(name)&order=id&limit=50&offset=${pageOffset(index)}`,
    sql: `WITH pgrst_source AS (SELECT "bench_posts"."id" AS "id", "bench_posts"."title" AS "title", "bench_posts"."created_at" AS "created_at", row_to_json("bench_posts_author_1".*)::jsonb AS "author" FROM "public"."bench_posts" AS "bench_posts" LEFT JOIN LATERAL (SELECT "bench_authors_1"."name" AS "name" FROM "public"."bench_authors" AS "bench_authors_1" WHERE "bench_authors_1"."id" = "bench_posts"."author_id") AS "bench_posts_author_1" ON TRUE WHERE "bench_posts"."id" = ANY (ARRAY(SELECT "bench_posts"."id" FROM "public"."bench_posts" AS "bench_posts" ORDER BY "bench_posts"."id" LIMIT $1::bigint OFFSET $2::bigint)) ORDER BY "bench_posts"."id") SELECT null::bigint AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, coalesce(json_agg(_postgrest_t), '[]')::text AS body FROM (SELECT * FROM pgrst_source) _postgrest_t`,
    params: (index) => ['50', pageOffset(index)],
  },
];

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The statement with its parameters written in as literals. */
function withLiterals(sql: string, params: string[]): string {
  return sql.replace(/\$(\d+)/g, (_, number: string) => literal(params[Number(number) - 1]!));
}

/** The request context's statement (server/db/request-context.ts), with literals. */
function settingsStatement(
  claims: Record<string, unknown>,
  requestPath: string,
  headers: Record<string, string>,
): string {
  const headersJson = JSON.stringify({ 'x-forwarded-for': '127.0.0.1', ...headers });
  return `select set_config('search_path', 'public, extensions', true),
  set_config('role', 'authenticated', true),
  set_config('request.jwt.claims', ${literal(JSON.stringify({ ...claims, role: 'authenticated' }))}, true),
  set_config('request.method', 'GET', true),
  set_config('request.path', ${literal(requestPath)}, true),
  set_config('request.headers', ${literal(headersJson)}, true),
  set_config('transaction_read_only', 'on', true),
  set_config('request.client_ip', '127.0.0.1', true),
  set_config('statement_timeout', '8000', true),
  auth.require_live_session(${literal(String(claims.session_id))}, ${literal(String(claims.sub))})`;
}

/** The raw driver: a statement alone (prepared), or a script in one round trip. */
interface RawDriver {
  plain(name: string, sql: string, params: string[]): Promise<unknown>;
  script(sql: string): Promise<unknown>;
  close(): Promise<void>;
}

async function openRaw(dataDir: string, databaseUrl: string | undefined): Promise<RawDriver> {
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: CONCURRENCY });
    return {
      plain: (name, text, values) => pool.query({ name, text, values }),
      script: (sql) => pool.query(sql),
      close: () => pool.end(),
    };
  }
  const db = await PGlite.create(path.join(dataDir, 'raw-pgdata'));
  return {
    plain: (_name, sql, params) => db.query(sql, params),
    script: (sql) => db.exec(sql),
    close: () => db.close(),
  };
}

/** A keep-alive HTTP client (node:http, one socket per concurrent client): cheaper than fetch. */
function httpClient(port: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const call = (method: string, pathname: string, headers: Record<string, string>, body?: string) =>
    new Promise<number>((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port, method, path: pathname, headers, agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            if (status >= 400) {
              reject(new Error(`${status} ${Buffer.concat(chunks).toString()}`));
            } else resolve(status);
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  return { call, close: () => agent.destroy() };
}

function decodeClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<
    string,
    unknown
  >;
}

async function runBench(engine: string, databaseUrl: string | undefined): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-bench-rest-'));
  // The first start creates the database and keys, and signs the user up; the bench
  // tables are added while it is stopped (and PGlite's folder copied for the raw side).
  let server = startBenchServer(port, dataDir, databaseUrl);
  const client = httpClient(port);
  let raw: RawDriver | undefined;
  try {
    await waitForHealth(base, server);
    const config = (await (await fetch(`${base}/config.json`)).json()) as { anonKey: string };
    const signUp = await fetch(`${base}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: config.anonKey },
      body: JSON.stringify({
        email: 'bench@example.com',
        password: 'a bench passphrase that is long enough',
      }),
    });
    const { access_token: token } = (await signUp.json()) as { access_token: string };
    await stopBenchServer(server);
    await loadSchema(SCHEMA, dataDir, databaseUrl);
    if (!databaseUrl) {
      await cp(path.join(dataDir, 'pgdata'), path.join(dataDir, 'raw-pgdata'), {
        recursive: true,
      });
    }
    server = startBenchServer(port, dataDir, databaseUrl);
    await waitForHealth(base, server);
    raw = await openRaw(dataDir, databaseUrl);

    const backend = databaseUrl
      ? ((await raw.script('select pg_backend_pid() as pid')) as { rows: { pid: number }[] })
          .rows[0]!.pid
      : undefined;
    const pids = {
      server: server.pid,
      postmaster: backend === undefined ? undefined : parentPid(backend),
    };
    const headers = { apikey: config.anonKey, authorization: `Bearer ${token}` };
    const claims = decodeClaims(token);
    // The headers as the server sees them (lower-case; without authorization, as in request.headers).
    const sqlHeaders = {
      apikey: config.anonKey,
      host: `127.0.0.1:${port}`,
      connection: 'keep-alive',
    };
    const settings = settingsStatement(claims, '/bench_posts', sqlHeaders);
    const rawRaw = raw;
    const sides = (read: ReadCase, statement: number) => ({
      ours: (index: number) => client.call('GET', read.path(index), headers),
      plain: (index: number) => rawRaw.plain(`bench_${statement}`, read.sql, read.params(index)),
      withSettings: (index: number) =>
        rawRaw.script(
          `begin;\n${settings};\n${withLiterals(read.sql, read.params(index))};\ncommit;`,
        ),
    });

    // Warm up every side (schema cache, JIT, connection pools, prepared statements).
    for (const [statement, read] of READS.entries()) {
      for (const side of Object.values(sides(read, statement))) {
        await runClosedLoop(CONCURRENCY, 1000, side);
      }
    }

    const results = READS.map(() => ({
      ours: [] as RoundResult[],
      plain: [] as RoundResult[],
      withSettings: [] as RoundResult[],
    }));
    const inserts: RoundResult[] = [];
    if (PROFILE_ONLY) {
      const result = roundResult(
        await runClosedLoop(CONCURRENCY, DURATION_MS, sides(READS[0]!, 0).ours),
      );
      console.log(`\n${engine}: data API, ${READS[0]!.label}: ${result.rate.toFixed(0)} req/s`);
      return;
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [statement, read] of READS.entries()) {
        const run = sides(read, statement);
        const into = results[statement]!;
        into.ours.push(await measuredRound(CONCURRENCY, DURATION_MS, run.ours, pids));
        into.plain.push(await measuredRound(CONCURRENCY, DURATION_MS, run.plain, pids));
        into.withSettings.push(
          await measuredRound(CONCURRENCY, DURATION_MS, run.withSettings, pids),
        );
      }
      inserts.push(
        await measuredRound(
          CONCURRENCY,
          DURATION_MS,
          async (index) => {
            const status = await client.call(
              'POST',
              '/rest/v1/bench_posts',
              { ...headers, 'content-type': 'application/json', prefer: 'return=minimal' },
              JSON.stringify({
                author_id: 1 + (index % AUTHORS),
                title: `Bench ${index}`,
                body: 'Inserted by the benchmark.',
              }),
            );
            if (status !== 201) throw new Error(`insert: ${status}`);
          },
          pids,
        ),
      );
    }

    console.log(
      `\n${engine}, ${CONCURRENCY} concurrent clients, ${ROUNDS} rounds of ${DURATION_MS / 1000} s per side, node ${process.version}`,
    );
    console.log('  medians over the rounds, (min–max)');
    const rawName = databaseUrl ? 'raw pg pool of 20' : 'raw PGlite in-process';
    for (const [statement, read] of READS.entries()) {
      const into = results[statement]!;
      printSides(read.label, [
        { label: 'data API (HTTP, JWT, settings, RLS)', rounds: into.ours },
        { label: `${rawName}, plain select`, rounds: into.plain },
        { label: `${rawName}, same settings, 1 round trip`, rounds: into.withSettings },
      ]);
    }
    printSides('insert one row (return=minimal)', [
      { label: 'data API (HTTP, JWT, settings, RLS)', rounds: inserts },
    ]);
  } finally {
    client.close();
    await raw?.close();
    await stopBenchServer(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

console.log(
  'data API benchmark (signed-in user: JWT verification, live-session check and row-level security on every request)',
);
await onEachEngine(runBench);
