// What the benchmarks share: the built server's entry, free ports, percentiles,
// waiting for /health, and running a benchmark on each database engine.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { findPostgresBinaries, startPostgresCluster } from '../server/testing/postgres-cluster';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The built server; exits with a hint when there is no build. */
export function builtServerEntry(): string {
  const entry = path.join(root, 'dist', 'server', 'main.mjs');
  if (!existsSync(entry)) {
    console.error('Build first: npm run build');
    process.exit(1);
  }
  return entry;
}

/**
 * Runs a benchmark's SQL on a stopped server's database: over `pg` on
 * PostgreSQL, or by opening the embedded database's folder directly.
 */
export async function loadSchema(
  sql: string,
  dataDir: string,
  databaseUrl: string | undefined,
): Promise<void> {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(sql);
    await client.end();
    return;
  }
  const db = await PGlite.create(path.join(dataDir, 'pgdata'));
  await db.exec(sql);
  await db.close();
}

/** The environment a benchmarked server runs with: quiet, no demo accounts, no sign-up limits. */
export function benchServerEnv(
  port: number,
  dataDir: string,
  databaseUrl: string | undefined,
): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    MAILER_AUTOCONFIRM: 'true',
    RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
}

/**
 * Starts the built server for a benchmark, its errors on this process's
 * stderr. BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") are
 * passed to its Node, to profile it under load.
 */
export function startBenchServer(
  port: number,
  dataDir: string,
  databaseUrl: string | undefined,
  extraEnv: Record<string, string> = {},
): ChildProcess {
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return spawn(process.execPath, [...nodeArgs, builtServerEntry()], {
    env: { PATH: process.env.PATH, ...benchServerEnv(port, dataDir, databaseUrl), ...extraEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** SIGTERM, and the exit (at once if it has already exited). */
export async function stopBenchServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The response, or an error naming the request with the status and body. */
export async function expectOk(response: Response, what: string): Promise<Response> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Resolves once `GET /health` answers 200; rejects if the server exits first. */
export async function waitForHealth(base: string, server: ChildProcess): Promise<void> {
  for (;;) {
    const isUp = await fetch(`${base}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (isUp) return;
    if (server.exitCode !== null) throw new Error('server exited');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Runs `bench` on PGlite, then on PostgreSQL: DATABASE_URL, or a throw-away
 * local cluster when the binaries are installed. BENCH_ENGINES=pglite or
 * =postgres runs one of them only.
 */
export async function onEachEngine(
  bench: (engine: string, databaseUrl: string | undefined) => Promise<void>,
): Promise<void> {
  const engines = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',');
  if (engines.includes('pglite')) await bench('PGlite (embedded)', undefined);
  if (!engines.includes('postgres')) return;
  if (process.env.DATABASE_URL) {
    await bench('PostgreSQL (DATABASE_URL)', process.env.DATABASE_URL);
    return;
  }
  const binaries = findPostgresBinaries();
  if (!binaries) {
    console.log('\nPostgreSQL: skipped (no initdb/pg_ctl found; set DATABASE_URL)');
    return;
  }
  const cluster = await startPostgresCluster(binaries);
  try {
    await bench('PostgreSQL (local throw-away cluster, fsync off)', cluster.url);
  } finally {
    await cluster.stop();
  }
}

/** `concurrency` clients issuing calls back to back for `durationMs` (a closed loop); latencies in ms. */
export async function runClosedLoop(
  concurrency: number,
  durationMs: number,
  task: (index: number) => Promise<unknown>,
): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const index = next++;
        const callStarted = performance.now();
        await task(index);
        latencies.push(performance.now() - callStarted);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

/** One round of one side: how many calls per second, and the latency percentiles in ms. */
export interface RoundResult {
  rate: number;
  p50: number;
  p99: number;
  n: number;
  /** CPU time per call, in µs: the server process, this process, the database's backends. */
  cpu?: { server: number; bench: number; database: number };
}

export function roundResult(result: { latencies: number[]; seconds: number }): RoundResult {
  return {
    rate: result.latencies.length / result.seconds,
    p50: percentile(result.latencies, 50),
    p99: percentile(result.latencies, 99),
    n: result.latencies.length,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** `median (min–max)` of a series, with `digits` decimals. */
export function spread(values: number[], digits = 0): string {
  if (values.length === 0) return '—';
  const format = (value: number) => value.toFixed(digits);
  return `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
}

/** How many alternating rounds, and how long each side of a round runs (BENCH_ROUNDS, BENCH_SECONDS). */
export function roundSettings(defaults = { rounds: 5, seconds: 4 }): {
  rounds: number;
  durationMs: number;
} {
  return {
    rounds: Number(process.env.BENCH_ROUNDS ?? defaults.rounds),
    durationMs: Number(process.env.BENCH_SECONDS ?? defaults.seconds) * 1000,
  };
}

/**
 * Prints one line per side: rate, p50 and p99 as medians over the rounds with
 * their min–max; and for every side after the first that is named in `ratioTo`,
 * our share of it (the median of the per-round ratios, with their min–max).
 */
export function printSides(
  title: string,
  sides: { label: string; rounds: RoundResult[] }[],
  unit = 'req/s',
): void {
  console.log(`  ${title}`);
  const [ours] = sides;
  for (const side of sides) {
    const rates = side.rounds.map((round) => round.rate);
    let share = '';
    if (ours && side !== ours && ours.rounds.length === side.rounds.length) {
      const ratios = ours.rounds.map((round, index) => round.rate / side.rounds[index]!.rate);
      share = `   ours/this ${spread(
        ratios.map((ratio) => ratio * 100),
        0,
      )} %`;
    }
    const cpu = side.rounds.every((round) => round.cpu)
      ? `   CPU µs/call: server ${median(side.rounds.map((round) => round.cpu!.server)).toFixed(0)}, bench ${median(side.rounds.map((round) => round.cpu!.bench)).toFixed(0)}, database ${median(side.rounds.map((round) => round.cpu!.database)).toFixed(0)}`
      : '';
    console.log(
      `    ${side.label.padEnd(50)} ${spread(rates).padStart(18)} ${unit}   p50 ${spread(
        side.rounds.map((round) => round.p50),
        1,
      ).padStart(17)} ms   p99 ${spread(
        side.rounds.map((round) => round.p99),
        1,
      ).padStart(17)} ms${share}${cpu}`,
    );
  }
}

/** CPU time (user + system, all threads) a process has used, in ms; 0 when /proc is not there. */
export function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of stat (counted from 1), in clock ticks (100 Hz).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** CPU time of every child process of `parentPid` (a PostgreSQL postmaster's backends), in ms. */
export function childrenCpuMs(parentPid: number | undefined): number {
  if (parentPid === undefined) return 0;
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === parentPid) total += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

/** The parent of a process (a backend's postmaster). */
export function parentPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * Runs a closed loop and also counts the CPU time it took per call: the server
 * process's (every thread), this process's, and the database backends' (children of
 * `postmasterPid`, PostgreSQL only).
 */
export async function measuredRound(
  concurrency: number,
  durationMs: number,
  task: (index: number) => Promise<unknown>,
  pids: { server?: number; postmaster?: number },
): Promise<RoundResult> {
  const server = processCpuMs(pids.server);
  const bench = process.cpuUsage();
  const database = childrenCpuMs(pids.postmaster);
  const result = roundResult(await runClosedLoop(concurrency, durationMs, task));
  const benchUsed = process.cpuUsage(bench);
  const perCall = (ms: number) => (ms * 1000) / Math.max(1, result.n);
  result.cpu = {
    server: perCall(processCpuMs(pids.server) - server),
    bench: perCall((benchUsed.user + benchUsed.system) / 1000),
    database: perCall(childrenCpuMs(pids.postmaster) - database),
  };
  return result;
}

/**
 * A script to install before a page's own scripts (`addInitScript`): for the
 * page whose path is a key of `conditions` (JavaScript expressions, evaluated
 * in the page), it sets `window.__shown = { at, painted }` when the condition
 * first holds (`at`) and two animation frames later, once that frame is
 * painted (`painted`), both from navigation start. The conditions are written
 * into the script as functions: the site's CSP forbids eval in the page.
 */
export function shownObserver(conditions: Record<string, string>): string {
  return `(() => {
  const conditions = {
    ${Object.entries(conditions)
      .map(([pathname, source]) => `${JSON.stringify(pathname)}: () => (${source})`)
      .join(',\n    ')}
  };
  const holds = conditions[location.pathname];
  if (!holds) return;
  window.__shown = null;
  let done = false;
  const check = () => {
    if (done || !holds()) return;
    done = true;
    observer.disconnect();
    const at = performance.now();
    requestAnimationFrame(() => requestAnimationFrame(() => {
      window.__shown = { at, painted: performance.now() };
    }));
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
  check();
})();`;
}
