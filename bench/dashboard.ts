// `npm run bench:dashboard`: the customer dashboard (issue 15) with 10,000 calls
// in one workspace, on the built server, on PGlite and then on PostgreSQL
// (DATABASE_URL, or a throw-away local cluster when the binaries are
// installed). Prints numbers, asserts nothing. Goals from the issue: data shown
// within 1.5 s; KPI p95 under 50 ms; at least 200 ingestions/s on PGlite.
//
// - Set-up: the server creates the database on a first start; a user signs up
//   (their workspace comes with sample calls); with the server stopped, the
//   bench replaces the samples with 10,000 calls, inserted set-based in SQL
//   (over the last 60 days, so the default 30-day view and the period before
//   it, which call_kpis compares with, hold all of them; outcomes, sentiments,
//   durations, repeat callers, summaries and transcripts of 3 to 8 segments
//   drawn from a dozen topics), and raises the workspace's ingestion rate limit
//   (private.ingestion_limits); then the server starts again.
// - Time until data is shown: Playwright (Debian's Chromium) at 1280×800 with
//   a 4× CPU slowdown (CDP Emulation.setCPUThrottlingRate), signed in (the
//   session of one sign-in through the form, reused as storage state), from
//   navigation start to the frame after the data appeared (a MutationObserver
//   installed before the page's scripts notes the moment, two animation
//   frames later it is painted): /dashboard = the five KPI cards and the
//   calls-per-day chart drawn, /dashboard/calls = the first page of rows.
//   Cold (a new browser context per run: nothing cached) and warm (one
//   context, a returning visitor). The limit, in the same run and the same
//   way: a static page (/privacy-policy, prerendered) until its heading shows.
// - Query latency through the data API as the signed-in member (sequential
//   requests, JWT verification and row-level security included): call_kpis,
//   call_trends, and filtered_calls' first page of 50 and the keyset page after
//   it, with and without a search term; beside the raw driver running the same
//   SQL in one round trip under the same role and claims (PGlite in-process on
//   the stopped server's folder, `pg` on PostgreSQL).
// - Ingestion: POST /functions/v1/call-events with valid signatures from 8, 16
//   and 32 concurrent clients (closed loop); its two parts on their own (the
//   database call, ingest_call through the data API with the service role key
//   as the function makes it, and the recording's signed upload URL); beside
//   the limits: GET /health and a one-row REST select as the signed-in user.
//
// BENCH_ENGINES=pglite|postgres runs one engine; BENCH_ONLY=shown,queries,
// ingestion some parts; BENCH_RUNS (5) page loads per measure; BENCH_QUERIES
// (100) requests per query; BENCH_SECONDS (5) per throughput measure.
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { decodeJwt } from 'jose';
import pg from 'pg';
import { chromiumFlags } from '../playwright.config';
import {
  freePort,
  loadSchema,
  onEachEngine,
  percentile,
  runClosedLoop,
  startBenchServer,
  stopBenchServer,
  waitForHealth,
  expectOk,
  shownObserver,
} from './support';
import { SEARCH, literal, seedSql } from './dashboard-data';

const CALLS = 10_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCIES = [8, 16, 32];
const PARTS = (process.env.BENCH_ONLY ?? 'shown,queries,ingestion').split(',');
const CPU_SLOWDOWN = 4;
const VIEWPORT = { width: 1280, height: 800 };
const PASSWORD = 'a bench passphrase that is long enough';
const EMAIL = 'bench-dashboard@example.com';
const LIST_COLUMNS =
  'id,started_at,direction,from_number,to_number,duration_seconds,outcome,sentiment,summary,is_sample';

// ---------------------------------------------------------------------------
// Processes and HTTP

interface Session {
  accessToken: string;
  userId: string;
  workspaceId: string;
}

async function signUp(base: string, anonKey: string): Promise<Session> {
  const response = await expectOk(
    await fetch(`${base}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: anonKey },
      body: JSON.stringify({
        email: EMAIL,
        password: PASSWORD,
        data: { full_name: 'Bench Owner', company: 'Bench Calls Inc.' },
      }),
    }),
    'sign-up',
  );
  const { access_token: accessToken, user } = (await response.json()) as {
    access_token: string;
    user: { id: string };
  };
  const members = (await (
    await expectOk(
      await fetch(`${base}/rest/v1/workspace_members?select=workspace_id`, {
        headers: { apikey: anonKey, authorization: `Bearer ${accessToken}` },
      }),
      'workspace',
    )
  ).json()) as { workspace_id: string }[];
  const workspaceId = members[0]?.workspace_id;
  if (!workspaceId) throw new Error('the new user has no workspace');
  return { accessToken, userId: user.id, workspaceId };
}

async function signIn(base: string, anonKey: string): Promise<string> {
  const response = await expectOk(
    await fetch(`${base}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: anonKey },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    }),
    'sign-in',
  );
  return ((await response.json()) as { access_token: string }).access_token;
}

// ---------------------------------------------------------------------------
// Queries: through the data API, and the same SQL through the raw driver

interface Period {
  from: string;
  to: string;
}

/** The dashboard's default: today and the 29 days before it, in UTC. */
function defaultPeriod(): Period {
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  const day = 86_400_000;
  return {
    from: new Date(today.getTime() - 29 * day).toISOString(),
    to: new Date(today.getTime() + day).toISOString(),
  };
}

interface QueryCase {
  label: string;
  /** The data API request. */
  path: string;
  body: Record<string, unknown>;
  /** The same work in SQL, returning the body the API sends. */
  sql: string;
}

function queryCases(workspaceId: string, period: Period, cursors: Map<string, string>) {
  const filters = (q?: string) => (q ? { q } : {});
  const args = (q?: string) => ({
    p_workspace_id: workspaceId,
    p_from: period.from,
    p_to: period.to,
    p_filters: filters(q),
  });
  const sqlArgs = (q?: string) =>
    `${literal(workspaceId)}::uuid, ${literal(period.from)}::timestamptz, ${literal(period.to)}::timestamptz, ${literal(JSON.stringify(filters(q)))}::jsonb`;
  const page = (label: string, q: string | undefined, after: boolean): QueryCase => {
    const cursor = after ? cursors.get(q ?? '') : undefined;
    if (after && !cursor) throw new Error(`no cursor for ${label}`);
    const [startedAt, id] = cursor ? cursor.split('~') : [];
    const keysetApi = cursor
      ? `&or=${encodeURIComponent(`(started_at.lt."${startedAt}",and(started_at.eq."${startedAt}",id.lt.${id}))`)}`
      : '';
    const keysetSql = cursor
      ? `where c.started_at < ${literal(startedAt!)}::timestamptz or (c.started_at = ${literal(startedAt!)}::timestamptz and c.id < ${literal(id!)}::uuid)`
      : '';
    return {
      label,
      path: `/rest/v1/rpc/filtered_calls?select=${LIST_COLUMNS}&order=started_at.desc,id.desc&limit=50${keysetApi}`,
      body: args(q),
      sql: `select coalesce(json_agg(t), '[]')::text from (
        select ${LIST_COLUMNS} from public.filtered_calls(${sqlArgs(q)}) c ${keysetSql}
        order by c.started_at desc, c.id desc limit 50) t`,
    };
  };
  return [
    {
      label: 'call_kpis (30 days + previous)',
      path: '/rest/v1/rpc/call_kpis',
      body: args(),
      sql: `select public.call_kpis(${sqlArgs()})::text`,
    },
    {
      label: `call_kpis, search "${SEARCH}"`,
      path: '/rest/v1/rpc/call_kpis',
      body: args(SEARCH),
      sql: `select public.call_kpis(${sqlArgs(SEARCH)})::text`,
    },
    {
      label: 'call_trends (30 days)',
      path: '/rest/v1/rpc/call_trends',
      body: { ...args(), p_time_zone: 'UTC' },
      sql: `select coalesce(json_agg(t), '[]')::text from public.call_trends(${sqlArgs()}, 'UTC') t`,
    },
    page('page 1 (50 rows)', undefined, false),
    page('keyset page 2', undefined, true),
    page(`page 1, search "${SEARCH}"`, SEARCH, false),
    page(`keyset page 2, search "${SEARCH}"`, SEARCH, true),
  ] satisfies QueryCase[];
}

/** The first page's last row, as the next page's cursor, per search term ('' = none). */
async function pageCursors(
  base: string,
  headers: Record<string, string>,
  workspaceId: string,
  period: Period,
): Promise<Map<string, string>> {
  const cursors = new Map<string, string>();
  for (const q of ['', SEARCH]) {
    const response = await expectOk(
      await fetch(
        `${base}/rest/v1/rpc/filtered_calls?select=id,started_at&order=started_at.desc,id.desc&limit=50`,
        {
          method: 'POST',
          headers,
          body: JSON.stringify({
            p_workspace_id: workspaceId,
            p_from: period.from,
            p_to: period.to,
            p_filters: q ? { q } : {},
          }),
        },
      ),
      'first page',
    );
    const rows = (await response.json()) as { id: string; started_at: string }[];
    const last = rows.at(-1);
    if (!last || rows.length < 50) throw new Error(`only ${rows.length} rows for "${q}"`);
    cursors.set(q, `${last.started_at}~${last.id}`);
  }
  return cursors;
}

async function timeApi(
  base: string,
  headers: Record<string, string>,
  query: QueryCase,
): Promise<number[]> {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(`${base}${query.path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(query.body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${query.label}: ${response.status} ${text}`);
    return performance.now() - started;
  };
  for (let warm = 0; warm < 10; warm += 1) await once();
  const times: number[] = [];
  for (let run = 0; run < QUERIES; run += 1) times.push(await once());
  return times;
}

/** One round trip: the request's role and claims, transaction-locally, then the query. */
function rawStatement(claims: Record<string, unknown>, sql: string): string {
  return `begin;
select set_config('role', 'authenticated', true),
  set_config('request.jwt.claims', ${literal(JSON.stringify({ ...claims, role: 'authenticated' }))}, true),
  set_config('search_path', 'public, extensions', true);
${sql};
commit;`;
}

async function timeRaw(
  run: (sql: string) => Promise<void>,
  claims: Record<string, unknown>,
  query: QueryCase,
): Promise<number[]> {
  const statement = rawStatement(claims, query.sql);
  for (let warm = 0; warm < 10; warm += 1) await run(statement);
  const times: number[] = [];
  for (let index = 0; index < QUERIES; index += 1) {
    const started = performance.now();
    await run(statement);
    times.push(performance.now() - started);
  }
  return times;
}

async function rawTimings(
  dataDir: string,
  databaseUrl: string | undefined,
  claims: Record<string, unknown>,
  queries: QueryCase[],
): Promise<Map<string, number[]>> {
  const results = new Map<string, number[]>();
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      for (const query of queries) {
        results.set(
          query.label,
          await timeRaw(
            async (sql) => {
              await client.query(sql);
            },
            claims,
            query,
          ),
        );
      }
    } finally {
      await client.end();
    }
    return results;
  }
  const db = await PGlite.create(path.join(dataDir, 'pgdata'));
  try {
    for (const query of queries) {
      results.set(
        query.label,
        await timeRaw(
          async (sql) => {
            await db.exec(sql);
          },
          claims,
          query,
        ),
      );
    }
  } finally {
    await db.close();
  }
  return results;
}

// ---------------------------------------------------------------------------
// Time until data is shown

/** What "the data is shown" means on each page, as a DOM condition (JavaScript source). */
const SHOWN: Record<string, string> = {
  '/dashboard': `document.querySelectorAll('section[aria-labelledby="key-figures-heading"] li').length === 5
    && document.querySelector('figure[aria-labelledby="calls-per-day-heading"] svg rect[class*="fill-mint"]') !== null`,
  '/dashboard/calls': `document.querySelector('section[aria-label="Calls"] tbody tr a[href*="/dashboard/calls/"]') !== null`,
  '/privacy-policy': `document.querySelector('main h1') !== null`,
};

/** Installed before the page's own scripts: notes when the condition first holds, then when that frame is painted. */
const OBSERVER = shownObserver(SHOWN);

async function timeShown(context: BrowserContext, url: string): Promise<number> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(url, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(
      () => (window as unknown as { __shown: { painted: number } | null }).__shown,
      undefined,
      { timeout: 60_000, polling: 100 },
    );
    const { painted } = (await handle.jsonValue()) as { painted: number };
    return painted;
  } finally {
    await page.close();
  }
}

interface Shown {
  cold: Record<string, number[]>;
  warm: Record<string, number[]>;
}

async function measureShown(browser: Browser, base: string): Promise<Shown> {
  // One sign-in through the form; its session is reused.
  const signInContext = await browser.newContext({ viewport: VIEWPORT });
  const signInPage = await signInContext.newPage();
  await signInPage.goto(`${base}/auth`);
  await signInPage.getByLabel('Email or phone number').fill(EMAIL);
  await signInPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await signInPage.getByRole('button', { name: 'Sign in', exact: true }).click();
  await signInPage.waitForURL(/\/dashboard$/, { timeout: 60_000 });
  const storageState = await signInContext.storageState();
  await signInContext.close();

  const pages = Object.keys(SHOWN);
  const shown: Shown = { cold: {}, warm: {} };
  for (const pathname of pages) {
    shown.cold[pathname] = [];
    shown.warm[pathname] = [];
  }
  const newContext = async () => {
    const context = await browser.newContext({ viewport: VIEWPORT, storageState });
    await context.addInitScript(OBSERVER);
    return context;
  };
  // Cold: a new context (empty cache) per load; the pages in turn, so drift hits all alike.
  for (let run = 0; run < RUNS; run += 1) {
    for (const pathname of pages) {
      const context = await newContext();
      try {
        shown.cold[pathname]!.push(await timeShown(context, `${base}${pathname}`));
      } finally {
        await context.close();
      }
    }
  }
  // Warm: one context, each page loaded once before the runs.
  const context = await newContext();
  try {
    for (const pathname of pages) await timeShown(context, `${base}${pathname}`);
    for (let run = 0; run < RUNS; run += 1) {
      for (const pathname of pages) {
        shown.warm[pathname]!.push(await timeShown(context, `${base}${pathname}`));
      }
    }
  } finally {
    await context.close();
  }
  return shown;
}

// ---------------------------------------------------------------------------
// Ingestion throughput

interface Load {
  label: string;
  /** One request; resolves with its HTTP status. */
  task: () => Promise<number>;
  /** The status that counts as done (others are shown beside the rate). */
  ok: number;
}

interface LoadResult {
  label: string;
  /** Per concurrency: done/s, p50, p95 ms and the statuses seen. */
  runs: { concurrency: number; rate: number; p50: number; p95: number; other: string }[];
}

/**
 * Ingestion through the function, and its parts on their own: the database
 * call (ingest_call through the data API with the service role key, as the
 * function makes it) and the recording's signed upload URL (storage); beside
 * them the limits, GET /health and a one-row REST select as the member.
 */
async function measureIngestion(
  base: string,
  headers: Record<string, string>,
  serviceRoleKey: string,
  workspaceId: string,
  engineTag: string,
): Promise<LoadResult[]> {
  const rotated = await expectOk(
    await fetch(`${base}/rest/v1/rpc/rotate_ingestion_secret`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ p_workspace_id: workspaceId }),
    }),
    'rotate_ingestion_secret',
  );
  const secret = (await rotated.json()) as string;
  const service = {
    apikey: serviceRoleKey,
    authorization: `Bearer ${serviceRoleKey}`,
    'content-type': 'application/json',
  };
  let sequence = 0;
  /** A new call, signed: its body, timestamp and signature. */
  const signedCall = () => {
    sequence += 1;
    const body = JSON.stringify({
      call_id: `ingest-${engineTag}-${sequence}`,
      direction: 'inbound',
      from: `+1415555${String(sequence % 10000).padStart(4, '0')}`,
      to: '+18005550100',
      started_at: new Date(Date.now() - 120_000).toISOString(),
      duration_seconds: 60 + (sequence % 600),
      outcome: sequence % 5 === 0 ? 'escalated' : 'resolved',
      sentiment: 'neutral',
      summary: 'The caller asked about an invoice; the agent answered.',
      transcript: [
        { speaker: 'agent', start_ms: 0, end_ms: 2500, text: 'Thanks for calling.' },
        {
          speaker: 'caller',
          start_ms: 2600,
          end_ms: 6000,
          text: 'I have a question about my invoice.',
        },
        { speaker: 'agent', start_ms: 6100, end_ms: 9000, text: 'Let me check that for you.' },
      ],
      extracted: { topic: 'Billing' },
    });
    const t = String(Math.floor(Date.now() / 1000));
    const mac = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    return { body, t, mac };
  };
  const status = async (response: Response) => {
    await response.arrayBuffer();
    return response.status;
  };
  const loads: Load[] = [
    {
      label: 'POST /functions/v1/call-events',
      ok: 201,
      task: async () => {
        const { body, t, mac } = signedCall();
        return status(
          await fetch(`${base}/functions/v1/call-events`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-cervana-workspace': workspaceId,
              'x-cervana-signature': `t=${t},v1=${mac}`,
            },
            body,
          }),
        );
      },
    },
    {
      label: '  part: rpc/ingest_call (service role)',
      ok: 200,
      task: async () => {
        const { body, t, mac } = signedCall();
        return status(
          await fetch(`${base}/rest/v1/rpc/ingest_call`, {
            method: 'POST',
            headers: service,
            body: JSON.stringify({
              p_workspace_id: workspaceId,
              p_timestamp: t,
              p_signature: mac,
              p_body: body,
            }),
          }),
        );
      },
    },
    {
      label: '  part: storage upload/sign',
      ok: 200,
      task: async () => {
        sequence += 1;
        return status(
          await fetch(
            `${base}/storage/v1/object/upload/sign/call-recordings/${workspaceId}/bench-${engineTag}-${sequence}`,
            { method: 'POST', headers: service, body: '{}' },
          ),
        );
      },
    },
    {
      label: 'limit: GET /health',
      ok: 200,
      task: async () => status(await fetch(`${base}/health`)),
    },
    {
      label: 'limit: REST select, one row (member)',
      ok: 200,
      task: async () =>
        status(
          await fetch(`${base}/rest/v1/workspaces?select=id,name&id=eq.${workspaceId}`, {
            headers: { apikey: headers.apikey!, authorization: headers.authorization! },
          }),
        ),
    },
  ];

  // Warm-up: every path once under load.
  for (const load of loads) await runClosedLoop(8, 1000, load.task);
  const results: LoadResult[] = loads.map((load) => ({ label: load.label, runs: [] }));
  for (const concurrency of CONCURRENCIES) {
    for (const [index, load] of loads.entries()) {
      const statuses = new Map<number, number>();
      const run = await runClosedLoop(concurrency, SECONDS * 1000, async () => {
        const code = await load.task();
        statuses.set(code, (statuses.get(code) ?? 0) + 1);
      });
      results[index]!.runs.push({
        concurrency,
        rate: (statuses.get(load.ok) ?? 0) / run.seconds,
        p50: percentile(run.latencies, 50),
        p95: percentile(run.latencies, 95),
        other: [...statuses]
          .filter(([code]) => code !== load.ok)
          .map(([code, count]) => `${count}×${code}`)
          .join(', '),
      });
    }
  }
  return results;
}

// ---------------------------------------------------------------------------
// Output

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const spread = (values: number[], digits = 0) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

function row(cells: string[], widths: number[]) {
  console.log(
    `  ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 10)).join(' ')}`.trimEnd(),
  );
}

function printShown(shown: Shown) {
  const widths = [34, 24, 26, 8, 6];
  console.log(
    `\n  Time until data is shown, ms from navigation start, ${CPU_SLOWDOWN}× CPU slowdown, ${VIEWPORT.width}×${VIEWPORT.height}, median (min–max) of ${RUNS}`,
  );
  row(['', 'ours', 'limit: /privacy-policy', 'ratio', 'goal'], widths);
  for (const cache of ['cold', 'warm'] as const) {
    const limit = shown[cache]['/privacy-policy']!;
    for (const pathname of ['/dashboard', '/dashboard/calls']) {
      const ours = shown[cache][pathname]!;
      row(
        [
          `${pathname} (${cache} cache)`,
          spread(ours),
          spread(limit),
          `${(median(ours) / median(limit)).toFixed(1)}×`,
          median(ours) <= 1500 ? 'met' : 'MISSED',
        ],
        widths,
      );
    }
  }
}

function printQueries(api: Map<string, number[]>, raw: Map<string, number[]>) {
  const widths = [38, 20, 20, 10, 6];
  console.log(
    `\n  Queries, ${CALLS.toLocaleString('en-US')} calls, ms, p50 / p95 of ${QUERIES} sequential requests`,
  );
  row(['', 'data API (member)', 'raw driver, same SQL', 'p95 ratio', 'goal'], widths);
  for (const [label, times] of api) {
    const rawTimes = raw.get(label) ?? [];
    const p95 = percentile(times, 95);
    const rawP95 = percentile(rawTimes, 95);
    row(
      [
        label,
        `${percentile(times, 50).toFixed(1)} / ${p95.toFixed(1)}`,
        rawTimes.length ? `${percentile(rawTimes, 50).toFixed(1)} / ${rawP95.toFixed(1)}` : '—',
        rawTimes.length ? `${(p95 / Math.max(rawP95, 0.01)).toFixed(1)}×` : '',
        label.startsWith('call_kpis') ? (p95 < 50 ? 'met' : 'MISSED') : '',
      ],
      widths,
    );
  }
}

function printThroughput(results: LoadResult[], isEmbedded: boolean) {
  const widths = [40, ...CONCURRENCIES.map(() => 22), 8];
  console.log(
    `\n  Ingestion, valid signatures, requests done/s (p50 / p95 ms), closed loop, ${SECONDS} s each`,
  );
  row(['', ...CONCURRENCIES.map((count) => `${count} clients`), 'goal'], widths);
  for (const result of results) {
    const isIngestion = result.label.startsWith('POST /functions');
    row(
      [
        result.label,
        ...result.runs.map(
          (run) =>
            `${run.rate.toFixed(0)} (${run.p50.toFixed(0)} / ${run.p95.toFixed(0)})${run.other ? ` [${run.other}]` : ''}`,
        ),
        isIngestion && isEmbedded
          ? Math.max(...result.runs.map((run) => run.rate)) >= 200
            ? 'met'
            : 'MISSED'
          : '',
      ],
      widths,
    );
  }
}

// ---------------------------------------------------------------------------
// Runs

console.log(
  `dashboard benchmark, node ${process.version}: ${CALLS.toLocaleString('en-US')} calls in one workspace`,
);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: chromiumFlags,
});
try {
  await onEachEngine(async (engine, databaseUrl) => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-bench-dashboard-'));
    let server = startBenchServer(port, dataDir, databaseUrl);
    try {
      await waitForHealth(base, server);
      const { anonKey } = (await (await fetch(`${base}/config.json`)).json()) as {
        anonKey: string;
      };
      const session = await signUp(base, anonKey);
      await stopBenchServer(server);
      const seeding = performance.now();
      await loadSchema(seedSql(session.workspaceId, CALLS), dataDir, databaseUrl);
      const seeded = ((performance.now() - seeding) / 1000).toFixed(1);
      server = startBenchServer(port, dataDir, databaseUrl);
      await waitForHealth(base, server);

      const token = await signIn(base, anonKey);
      const headers = {
        apikey: anonKey,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      };
      const period = defaultPeriod();
      const cursors = await pageCursors(base, headers, session.workspaceId, period);
      const queries = queryCases(session.workspaceId, period, cursors);
      const api = new Map<string, number[]>();
      let raw: Map<string, number[]> | null = null;
      if (PARTS.includes('queries')) {
        for (const query of queries) api.set(query.label, await timeApi(base, headers, query));
        // The raw driver on the same 10,000 calls, before the ingestion below adds its own:
        // the embedded database opens only with the server stopped.
        await stopBenchServer(server);
        raw = await rawTimings(dataDir, databaseUrl, decodeJwt(token), queries);
        server = startBenchServer(port, dataDir, databaseUrl);
        await waitForHealth(base, server);
      }
      const shown = PARTS.includes('shown') ? await measureShown(browser, base) : null;
      const keys = JSON.parse(await readFile(path.join(dataDir, 'keys.json'), 'utf8')) as {
        serviceRoleKey: string;
      };
      const throughput = PARTS.includes('ingestion')
        ? await measureIngestion(
            base,
            headers,
            keys.serviceRoleKey,
            session.workspaceId,
            databaseUrl ? 'pg' : 'pglite',
          )
        : null;

      await stopBenchServer(server);

      console.log(`\n${engine} (${CALLS.toLocaleString('en-US')} calls inserted in ${seeded} s)`);
      if (shown) printShown(shown);
      if (raw) printQueries(api, raw);
      if (throughput) printThroughput(throughput, !databaseUrl);
    } finally {
      await stopBenchServer(server);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
} finally {
  await browser.close();
}
