// `npm run bench:rest`: requests per second and latency of /rest/v1 for a
// single-row select by id, a 50-row page with one embed, and an insert, at 20
// concurrent clients signed in as a user (JWT verification and row-level
// security included), for the built server on PGlite and then on PostgreSQL
// (DATABASE_URL, or a throw-away local cluster when the binaries are installed).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  benchServerEnv,
  builtServerEntry,
  freePort,
  loadSchema,
  onEachEngine,
  percentile,
  runClosedLoop,
  waitForHealth,
} from './support';

const entry = builtServerEntry();
const CONCURRENCY = 20;
const AUTHORS = 100;
const POSTS = 10_000;
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 8) * 1000;

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

function run(durationMs: number, task: (index: number) => Promise<void>) {
  return runClosedLoop(CONCURRENCY, durationMs, task);
}

function report(label: string, result: { latencies: number[]; seconds: number }) {
  const rate = result.latencies.length / result.seconds;
  console.log(
    `${label.padEnd(30)} ${rate.toFixed(0).padStart(6)} req/s   p50 ${percentile(result.latencies, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(result.latencies, 99).toFixed(1).padStart(6)} ms   (n=${result.latencies.length})`,
  );
}

function startServer(port: number, dataDir: string, databaseUrl: string | undefined): ChildProcess {
  // e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server under load.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return spawn(process.execPath, [...nodeArgs, entry], {
    env: {
      PATH: process.env.PATH,
      ...benchServerEnv(port, dataDir, databaseUrl),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

async function runBench(engine: string, databaseUrl: string | undefined): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-bench-rest-'));
  // First start creates the database and keys; the bench tables are added while it is stopped.
  let server = startServer(port, dataDir, databaseUrl);
  try {
    await waitForHealth(base, server);
    await stopServer(server);
    await loadSchema(SCHEMA, dataDir, databaseUrl);
    server = startServer(port, dataDir, databaseUrl);
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
    const headers = { apikey: config.anonKey, authorization: `Bearer ${token}` };
    const get = async (url: string) => {
      const response = await fetch(url, { headers });
      if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    };
    // Warm up (schema cache, JIT, connection pool).
    await run(1000, (index) => get(`${base}/rest/v1/bench_posts?id=eq.${1 + (index % POSTS)}`));

    console.log(
      `\n${engine}, ${CONCURRENCY} concurrent clients, ${DURATION_MS / 1000} s each, node ${process.version}`,
    );
    report(
      'select one row by id',
      await run(DURATION_MS, (index) =>
        get(`${base}/rest/v1/bench_posts?select=*&id=eq.${1 + ((index * 7919) % POSTS)}`),
      ),
    );
    report(
      '50-row page with one embed',
      await run(DURATION_MS, (index) =>
        get(
          `${base}/rest/v1/bench_posts?select=id,title,created_at,author:bench_authors(name)&order=id&limit=50&offset=${(index * 50) % (POSTS - 50)}`,
        ),
      ),
    );
    report(
      'insert one row',
      await run(DURATION_MS, async (index) => {
        const response = await fetch(`${base}/rest/v1/bench_posts`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', prefer: 'return=minimal' },
          body: JSON.stringify({
            author_id: 1 + (index % AUTHORS),
            title: `Bench ${index}`,
            body: 'Inserted by the benchmark.',
          }),
        });
        if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`);
        await response.arrayBuffer();
      }),
    );
  } finally {
    await stopServer(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

console.log(
  'data API benchmark (signed-in user: JWT verification and row-level security on every request)',
);
await onEachEngine(runBench);
