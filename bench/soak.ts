// `npm run soak`: SOAK_MINUTES (default 10) of mixed traffic against the built
// server on the embedded database (PGlite) in a fresh temporary data folder,
// to find errors and leaks that only time shows. Not part of `npm test`.
//
// SOAK_CONCURRENCY loops (default 8), each a signed-in customer of one of
// SOAK_USERS workspaces (default 4), pick steps at random, with a short pause
// (SOAK_THINK_MS, default 25) between them:
// - the landing page and a static asset it links;
// - a password sign-in, and a refresh of the loop's session;
// - /rest/v1 reads as the dashboard makes them (workspace_members, workspaces,
//   call_kpis, call_trends, filtered_calls' first page) and a write
//   (update_workspace), all under row-level security;
// - a small text document uploaded to the `knowledge` bucket, downloaded,
//   compared and deleted;
// - a realtime channel joined through supabase-js (the `ws` package as its
//   transport), a broadcast sent with `self` and awaited, the channel left.
//
// Prints a line per minute (requests, errors, p50/p99, the server's RSS from
// /proc/<pid>/status and its main thread's heap, read by a small preload that
// writes process.memoryUsage() to a file), then a summary with errors by kind,
// latency per step and memory at the end of the warm-up (the first interval)
// against the end. Exits 1 when any request failed, any object was left in the
// bucket, or the server did not exit 0 on SIGTERM.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { WebSocket } from 'ws';
import { builtServerEntry, freePort, percentile, waitForHealth } from './support';

const entry = builtServerEntry();
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 8);
const USERS = Number(process.env.SOAK_USERS ?? 4);
const THINK_MS = Number(process.env.SOAK_THINK_MS ?? 25);
const DURATION_MS = MINUTES * 60_000;
// A line a minute; a run shorter than four minutes prints four lines.
const INTERVAL_MS = Math.min(60_000, Math.max(5_000, DURATION_MS / 4));
const REQUEST_TIMEOUT_MS = 30_000;
const PASSWORD = 'a soak passphrase that is long enough';
const MB = 1024 * 1024;

// The soak signs in and refreshes far more often than one address may by
// default (30 sign-ins and 150 refreshes per 5 minutes per IP), all from 127.0.0.1.
const RATE_LIMITS = {
  RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000000',
  RATE_LIMIT_TOKEN_REFRESH: '1000000',
};

// ---------------------------------------------------------------------------
// Measurements

interface Sample {
  kind: string;
  ms: number;
}

const window: Sample[] = [];
const all: Sample[] = [];
const errors = new Map<string, number>();
const firstErrors: string[] = [];
let windowErrors = 0;

function record(kind: string, ms: number): void {
  const sample = { kind, ms };
  window.push(sample);
  all.push(sample);
}

function fail(kind: string, detail: string): void {
  errors.set(kind, (errors.get(kind) ?? 0) + 1);
  windowErrors += 1;
  if (firstErrors.length < 20) {
    firstErrors.push(`${new Date().toISOString()} ${kind}: ${detail.slice(0, 300)}`);
  }
}

/** Times one step's request; a thrown error or an unexpected status counts as an error of its kind. */
async function timed<T>(kind: string, task: () => Promise<T>): Promise<T | undefined> {
  const started = performance.now();
  try {
    const result = await task();
    record(kind, performance.now() - started);
    return result;
  } catch (error) {
    fail(kind, error instanceof Error ? error.message : String(error));
    return undefined;
  }
}

// ---------------------------------------------------------------------------
// The server

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const workDir = await mkdtemp(path.join(tmpdir(), 'cervana-soak-'));
const dataDir = path.join(workDir, 'data');
const logFile = path.join(workDir, 'server.log');
const memoryFile = path.join(workDir, 'memory.json');
const probe = path.join(workDir, 'memory-probe.mjs');
await writeFile(
  probe,
  `import { writeFileSync } from 'node:fs';
setInterval(() => {
  try { writeFileSync(${JSON.stringify(memoryFile)}, JSON.stringify(process.memoryUsage())); } catch {}
}, 1000).unref();
`,
);

console.log(
  `soak: ${MINUTES} min of mixed traffic, ${CONCURRENCY} loops over ${USERS} users, think time ${THINK_MS} ms, built server on PGlite (embedded), node ${process.version}`,
);
console.log(
  `soak: the server's sign-in and refresh limits are raised for the soak (${Object.entries(
    RATE_LIMITS,
  )
    .map(([name, value]) => `${name}=${value}`)
    .join(', ')}): the defaults allow 30 sign-ins and 150 refreshes per 5 minutes per address`,
);
console.log(`soak: data folder and server log in ${workDir}`);

const log = createWriteStream(logFile);
const server = spawn(process.execPath, ['--import', probe, entry], {
  env: {
    PATH: process.env.PATH,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    SEED_DEMO: 'false',
    MAILER_AUTOCONFIRM: 'true',
    ...RATE_LIMITS,
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
server.stdout.pipe(log);
server.stderr.pipe(log);
const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));

function rssMb(): number | undefined {
  try {
    const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function heapMb(): Promise<{ heapUsed: number; external: number } | undefined> {
  try {
    const usage = JSON.parse(await readFile(memoryFile, 'utf8')) as {
      heapUsed: number;
      external: number;
    };
    return { heapUsed: usage.heapUsed / MB, external: usage.external / MB };
  } catch {
    return undefined;
  }
}

const started = performance.now();
await waitForHealth(base, server);
console.log(
  `soak: server pid ${server.pid} healthy after ${(performance.now() - started).toFixed(0)} ms`,
);

const config = (await (await fetch(`${base}/config.json`)).json()) as { anonKey: string };
const anonKey = config.anonKey;
const keysFile = JSON.parse(await readFile(path.join(dataDir, 'keys.json'), 'utf8')) as {
  serviceRoleKey: string;
};
const serviceRoleKey = keysFile.serviceRoleKey;

// ---------------------------------------------------------------------------
// HTTP helpers

async function request(
  pathname: string,
  init: RequestInit & { token?: string; expect?: number } = {},
): Promise<Response> {
  const { token, expect, headers, ...rest } = init;
  const response = await fetch(`${base}${pathname}`, {
    ...rest,
    headers: {
      apikey: anonKey,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(headers as Record<string, string> | undefined),
    },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const ok = expect === undefined ? response.ok : response.status === expect;
  if (!ok) {
    const body = await response.text().catch(() => '<unreadable>');
    throw new Error(`${rest.method ?? 'GET'} ${pathname} -> ${response.status} ${body}`);
  }
  return response;
}

const json = { 'content-type': 'application/json' };

interface Session {
  accessToken: string;
  refreshToken: string;
}

async function tokenGrant(grant: string, body: unknown): Promise<Session> {
  const response = await request(`/auth/v1/token?grant_type=${grant}`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(body),
  });
  const session = (await response.json()) as { access_token: string; refresh_token: string };
  return { accessToken: session.access_token, refreshToken: session.refresh_token };
}

// ---------------------------------------------------------------------------
// Set-up: users, their workspaces, a static asset

interface User {
  email: string;
  workspaceId: string;
}

const users: User[] = [];
for (let index = 0; index < USERS; index += 1) {
  const email = `soak-${index}@example.com`;
  const response = await request('/auth/v1/signup', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      email,
      password: PASSWORD,
      data: { full_name: `Soak Owner ${index}`, company: `Soak Company ${index}` },
    }),
  });
  const { access_token: token } = (await response.json()) as { access_token: string };
  const members = (await (
    await request('/rest/v1/workspace_members?select=workspace_id', { token })
  ).json()) as { workspace_id: string }[];
  const workspaceId = members[0]?.workspace_id;
  if (!workspaceId) throw new Error(`${email} has no workspace`);
  users.push({ email, workspaceId });
}

const landing = await (await request('/')).text();
const asset = /(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/.exec(landing)?.[1];
if (!asset) throw new Error('the landing page links no /assets/ script or style sheet');
console.log(`soak: ${USERS} users signed up, each with a workspace; static asset ${asset}`);

function period() {
  const to = new Date();
  to.setUTCHours(24, 0, 0, 0);
  const from = new Date(to.getTime() - 30 * 86_400_000);
  return { p_from: from.toISOString(), p_to: to.toISOString() };
}

// ---------------------------------------------------------------------------
// One loop: a customer of one workspace

class Loop {
  private session: Session | undefined;
  private sequence = 0;
  readonly realtime: SupabaseClient;

  constructor(
    readonly index: number,
    readonly user: User,
  ) {
    this.realtime = createClient(base, anonKey, {
      accessToken: async () => this.session?.accessToken ?? null,
      realtime: { transport: WebSocket as never },
    });
  }

  async signIn(): Promise<boolean> {
    const session = await timed('auth: password sign-in', () =>
      tokenGrant('password', { email: this.user.email, password: PASSWORD }),
    );
    if (session) this.session = session;
    return session !== undefined;
  }

  private async refresh(): Promise<void> {
    const session = await timed('auth: refresh', () =>
      tokenGrant('refresh_token', { refresh_token: this.session!.refreshToken }),
    );
    if (session) this.session = session;
  }

  private async page(): Promise<void> {
    await timed('site: GET /', async () => (await request('/')).arrayBuffer());
    await timed('site: static asset', async () => (await request(asset!)).arrayBuffer());
  }

  private async read(): Promise<void> {
    const token = this.session!.accessToken;
    const workspace = this.user.workspaceId;
    const choice = Math.floor(Math.random() * 5);
    if (choice === 0) {
      await timed('rest: workspace_members', async () =>
        (await request('/rest/v1/workspace_members?select=workspace_id,role', { token })).json(),
      );
    } else if (choice === 1) {
      await timed('rest: workspaces', async () =>
        (
          await request(`/rest/v1/workspaces?select=id,name,time_zone&id=eq.${workspace}`, {
            token,
          })
        ).json(),
      );
    } else if (choice === 2) {
      await timed('rest: rpc call_kpis', async () =>
        (
          await request('/rest/v1/rpc/call_kpis', {
            method: 'POST',
            token,
            headers: json,
            body: JSON.stringify({ p_workspace_id: workspace, ...period(), p_filters: {} }),
          })
        ).json(),
      );
    } else if (choice === 3) {
      await timed('rest: rpc call_trends', async () =>
        (
          await request('/rest/v1/rpc/call_trends', {
            method: 'POST',
            token,
            headers: json,
            body: JSON.stringify({
              p_workspace_id: workspace,
              ...period(),
              p_filters: {},
              p_time_zone: 'UTC',
            }),
          })
        ).json(),
      );
    } else {
      await timed('rest: rpc filtered_calls page', async () => {
        const rows = (await (
          await request(
            '/rest/v1/rpc/filtered_calls?select=id,started_at,direction,from_number,outcome,sentiment,summary,is_sample&order=started_at.desc,id.desc&limit=50',
            {
              method: 'POST',
              token,
              headers: json,
              body: JSON.stringify({ p_workspace_id: workspace, ...period(), p_filters: {} }),
            },
          )
        ).json()) as unknown[];
        if (rows.length === 0) throw new Error('filtered_calls: no calls (sample calls expected)');
      });
    }
  }

  private async write(): Promise<void> {
    this.sequence += 1;
    await timed('rest: rpc update_workspace', async () =>
      (
        await request('/rest/v1/rpc/update_workspace', {
          method: 'POST',
          token: this.session!.accessToken,
          headers: json,
          body: JSON.stringify({
            p_workspace_id: this.user.workspaceId,
            p_name: `Soak Company ${this.user.email} ${this.index}.${this.sequence}`,
            p_time_zone: this.sequence % 2 ? 'Europe/Paris' : 'UTC',
          }),
        })
      ).json(),
    );
  }

  private async storage(): Promise<void> {
    this.sequence += 1;
    const token = this.session!.accessToken;
    const key = `${this.user.workspaceId}/soak-${this.index}-${this.sequence}.txt`;
    const body = `soak ${key}\n${randomBytes(512 + Math.floor(Math.random() * 4096)).toString('base64')}\n`;
    const uploaded = await timed('storage: upload', async () =>
      (
        await request(`/storage/v1/object/knowledge/${key}`, {
          method: 'POST',
          token,
          headers: { 'content-type': 'text/plain' },
          body,
        })
      ).json(),
    );
    if (uploaded === undefined) return;
    await timed('storage: download', async () => {
      const text = await (
        await request(`/storage/v1/object/authenticated/knowledge/${key}`, { token })
      ).text();
      if (text !== body) throw new Error(`download of ${key} differs (${text.length} bytes)`);
    });
    await timed('storage: delete', async () =>
      (await request(`/storage/v1/object/knowledge/${key}`, { method: 'DELETE', token })).json(),
    );
  }

  private async broadcast(): Promise<void> {
    this.sequence += 1;
    const nonce = `${this.index}.${this.sequence}`;
    let received: (() => void) | undefined;
    const receipt = new Promise<void>((resolve) => (received = resolve));
    const channel = this.realtime.channel(`soak-room-${this.user.workspaceId}-${this.index}`, {
      config: { broadcast: { self: true, ack: true } },
    });
    channel.on('broadcast', { event: 'ping' }, (message) => {
      if ((message.payload as { nonce?: string }).nonce === nonce) received?.();
    });
    try {
      const joined = await timed('realtime: join', async () => {
        const status = await new Promise<string>((resolve) => {
          channel.subscribe((state, error) => {
            if (state === 'SUBSCRIBED') resolve(state);
            else if (state !== 'CLOSED') resolve(`${state} ${error?.message ?? ''}`);
          });
        });
        if (status !== 'SUBSCRIBED') throw new Error(`subscribe: ${status}`);
      });
      if (joined === undefined) return;
      await timed('realtime: broadcast round trip', async () => {
        const sent = await channel.send({ type: 'broadcast', event: 'ping', payload: { nonce } });
        if (sent !== 'ok') throw new Error(`send: ${sent}`);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          receipt,
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('broadcast not received in 10 s')), 10_000);
          }),
        ]).finally(() => clearTimeout(timer));
      });
    } finally {
      await timed('realtime: leave', async () => {
        const left = await this.realtime.removeChannel(channel);
        if (left !== 'ok') throw new Error(`leave: ${left}`);
      });
    }
  }

  /** Weighted steps: reads most, then pages, storage, realtime, writes, refreshes and sign-ins. */
  private readonly steps: [number, () => Promise<void>][] = [
    [8, () => this.read()],
    [2, () => this.page()],
    [2, () => this.storage()],
    [1, () => this.broadcast()],
    [1, () => this.write()],
    [1, () => this.refresh()],
    [0.5, async () => void (await this.signIn())],
  ];

  async run(deadline: number): Promise<void> {
    const total = this.steps.reduce((sum, [weight]) => sum + weight, 0);
    while (performance.now() < deadline) {
      let pick = Math.random() * total;
      const step = this.steps.find(([weight]) => (pick -= weight) < 0) ?? this.steps[0]!;
      await step[1]();
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * THINK_MS));
    }
  }
}

const loops = Array.from(
  { length: CONCURRENCY },
  (_, index) => new Loop(index, users[index % USERS]!),
);
for (const loop of loops) {
  if (!(await loop.signIn())) throw new Error(`loop ${loop.index} could not sign in`);
}

// ---------------------------------------------------------------------------
// Run, reporting every interval

const fmt = (value: number | undefined, digits = 1) =>
  value === undefined ? '   n/a' : value.toFixed(digits).padStart(6);
let baseline: { rss: number | undefined; heap: number | undefined } | undefined;
let peakRss = 0;
const rssSampler = setInterval(() => {
  peakRss = Math.max(peakRss, rssMb() ?? 0);
}, 1000);

async function report(elapsedMs: number): Promise<void> {
  const latencies = window.map((sample) => sample.ms);
  const rss = rssMb();
  const heap = await heapMb();
  console.log(
    `${(elapsedMs / 60_000).toFixed(2).padStart(6)} min  requests ${String(latencies.length).padStart(6)}  errors ${String(windowErrors).padStart(3)}  p50 ${fmt(percentile(latencies, 50))} ms  p99 ${fmt(percentile(latencies, 99))} ms  RSS ${fmt(rss)} MB  heap ${fmt(heap?.heapUsed)} MB  external ${fmt(heap?.external)} MB`,
  );
  baseline ??= { rss, heap: heap?.heapUsed };
  window.length = 0;
  windowErrors = 0;
}

const runStarted = performance.now();
const deadline = runStarted + DURATION_MS;
const running = Promise.all(loops.map((loop) => loop.run(deadline)));
let nextReport = runStarted + INTERVAL_MS;
while (nextReport <= deadline + 1) {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextReport - performance.now())));
  if (nextReport < deadline - 1) await report(performance.now() - runStarted);
  nextReport += INTERVAL_MS;
}
await running;
await report(performance.now() - runStarted);
clearInterval(rssSampler);
const endRss = rssMb();
const endHeap = (await heapMb())?.heapUsed;

for (const loop of loops) await loop.realtime.removeAllChannels();

// Every uploaded document was deleted again: nothing may be left in the bucket.
let leftOver = 0;
for (const user of users) {
  const listed = (await (
    await request('/storage/v1/object/list/knowledge', {
      method: 'POST',
      token: serviceRoleKey,
      headers: json,
      body: JSON.stringify({ prefix: `${user.workspaceId}/`, limit: 1000 }),
    })
  ).json()) as { name: string }[];
  leftOver += listed.filter((object) => object.name.startsWith('soak-')).length;
}
if (leftOver > 0) {
  errors.set('storage: objects left in the bucket', leftOver);
}

// ---------------------------------------------------------------------------
// Stop and summarise

const stopping = performance.now();
server.kill('SIGTERM');
const exitCode = await exited;
const stopMs = performance.now() - stopping;
log.end();

const logLines = (await readFile(logFile, 'utf8')).split('\n').filter(Boolean);
const logErrors = logLines.filter((line) => {
  try {
    return (JSON.parse(line) as { level?: number }).level! >= 50;
  } catch {
    return false;
  }
});
const logWarnings = logLines.filter((line) => {
  try {
    return (JSON.parse(line) as { level?: number }).level === 40;
  } catch {
    return false;
  }
});

const errorCount = [...errors.values()].reduce((sum, count) => sum + count, 0);
const overall = all.map((sample) => sample.ms);
const seconds = (performance.now() - runStarted) / 1000;
console.log(`\nsummary after ${(seconds / 60).toFixed(1)} min`);
console.log(
  `requests ${overall.length} (${(overall.length / seconds).toFixed(1)}/s)   errors ${errorCount} (goal 0)   p50 ${percentile(overall, 50).toFixed(1)} ms   p99 ${percentile(overall, 99).toFixed(1)} ms`,
);
const kinds = [...new Set(all.map((sample) => sample.kind))].sort();
for (const kind of kinds) {
  const latencies = all.filter((sample) => sample.kind === kind).map((sample) => sample.ms);
  console.log(
    `  ${kind.padEnd(34)} n ${String(latencies.length).padStart(6)}   errors ${String(errors.get(kind) ?? 0).padStart(3)}   p50 ${fmt(percentile(latencies, 50))} ms   p99 ${fmt(percentile(latencies, 99))} ms`,
  );
}
for (const [kind, count] of errors) {
  if (!kinds.includes(kind)) console.log(`  ${kind.padEnd(34)} errors ${count}`);
}
for (const line of firstErrors) console.log(`  error: ${line}`);
const growth =
  baseline?.rss !== undefined && endRss !== undefined ? endRss - baseline.rss : undefined;
console.log(
  `RSS after the warm-up (${(INTERVAL_MS / 60_000).toFixed(2)} min) ${fmt(baseline?.rss)} MB, at the end ${fmt(endRss)} MB, growth ${growth === undefined ? 'n/a' : `${growth.toFixed(1)} MB (${((growth / baseline!.rss!) * 100).toFixed(1)} %)`}, peak ${peakRss.toFixed(1)} MB (goal: flat)`,
);
console.log(
  `main-thread heap after the warm-up ${fmt(baseline?.heap)} MB, at the end ${fmt(endHeap)} MB (between collections; the embedded database's thread is in RSS only)`,
);
console.log(
  `server log: ${logErrors.length} error and ${logWarnings.length} warning lines${logErrors.length + logWarnings.length > 0 ? ` (${logFile})` : ''}`,
);
for (const line of [...logErrors, ...logWarnings].slice(0, 5))
  console.log(`  ${line.slice(0, 400)}`);
console.log(`server: SIGTERM -> exit ${exitCode} in ${stopMs.toFixed(0)} ms`);

const keep = process.env.SOAK_KEEP === '1' || logErrors.length > 0;
if (keep) console.log(`kept ${workDir}`);
else await rm(workDir, { recursive: true, force: true });
process.exit(errorCount > 0 || exitCode !== 0 || logErrors.length > 0 ? 1 : 0);
