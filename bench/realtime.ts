// `npm run bench:realtime`: the Realtime service (/realtime/v1) of the built
// server, on PGlite and then on PostgreSQL (DATABASE_URL, or a throw-away local
// cluster when the binaries are installed). Prints numbers, asserts nothing.
//
// - Broadcast fan-out: BENCH_SOCKETS (1,000) raw `ws` clients speaking Phoenix
//   vsn 2.0.0 joined to one topic, and one sender socket publishing at fixed
//   rates (BENCH_RATES messages/s, default 1 and 10: 1,000 and 10,000
//   deliveries/s). Deliveries/s achieved and p50/p99 latency from the sender's
//   timestamp in the payload to each receiver (same process, same clock),
//   median and spread over BENCH_ROUNDS rounds of BENCH_SECONDS each. One
//   official supabase-js client joins the same topic and counts what it gets.
// - Memory per idle socket: the server's RSS (/proc/<pid>/status VmRSS) and JS
//   heap after a forced garbage collection (through the inspector, the server
//   runs with --inspect on a loopback port), before and after the sockets join;
//   the baseline is read a minute after start-up, once the process has given
//   back its start-up memory (the postgres_changes part runs first meanwhile).
// - postgres_changes INSERT → delivery: BENCH_SUBSCRIBERS (100) users, created
//   with the service role key (admin API, a cost-4 bcrypt password_hash so the
//   set-up takes seconds) and signed in with their password, each subscribed
//   to INSERTs of public.bench_events, a table under row-level security (each
//   user reads their own rows) in the supabase_realtime publication. The table
//   is created as bench/rest.ts does: the server creates the database on a
//   first start, the bench adds the table while it is stopped (PGlite cannot be
//   reached from outside the server process), the server starts again. Rows
//   are inserted through /rest/v1 with the service role key: single rows at
//   10/s (each reaches its owner only), and one 100-row INSERT (one row per
//   subscriber); latency from the insert's response (and from its request).
// - Limits measured in the same run: a plain `ws` WebSocketServer in its own
//   process relaying each broadcast frame to every other socket (no Phoenix
//   hub, no channel state): its fan-out rate and latency and its bytes per
//   idle socket; for postgres_changes, a REST broadcast to the same
//   subscriber sockets (the push path without the database).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { createClient } from '@supabase/supabase-js';
import bcrypt from 'bcrypt';
import { WebSocket, type RawData } from 'ws';
import {
  benchServerEnv,
  builtServerEntry,
  freePort,
  loadSchema,
  onEachEngine,
  percentile,
  waitForHealth,
} from './support';

const entry = builtServerEntry();
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const RATES = (process.env.BENCH_RATES ?? '1,10').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100);
const INSERTS_PER_SECOND = 10;
/** How long a round waits after its last message for late deliveries. */
const DRAIN_MS = 500;
const TOPIC = 'realtime:fanout';
const CHANGES_TOPIC = 'realtime:bench-changes';
const PASSWORD = 'a bench passphrase that is long enough';

const SCHEMA = `
create table if not exists public.bench_events (
  id bigserial primary key,
  owner uuid not null,
  body text,
  created_at timestamptz not null default now()
);
alter table public.bench_events enable row level security;
drop policy if exists bench_events_own on public.bench_events;
create policy bench_events_own on public.bench_events for select to authenticated using (owner = auth.uid());
grant select on public.bench_events to authenticated;
grant select, insert on public.bench_events to service_role;
grant usage on sequence public.bench_events_id_seq to service_role;
do $$
begin
  if exists (select from pg_catalog.pg_publication where pubname = 'supabase_realtime') then
    alter publication supabase_realtime add table public.bench_events;
  end if;
end
$$;
`;

// ---------------------------------------------------------------------------
// Processes

/** Node with the inspector on a loopback port (for forced GC readings); inspector chatter is dropped. */
function spawnNode(args: string[], env: NodeJS.ProcessEnv, inspectPort: number): ChildProcess {
  const child = spawn(process.execPath, [`--inspect=127.0.0.1:${inspectPort}`, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const quiet = /^(Debugger (listening|attached|ending)|For help, see|Waiting for the debugger)/;
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (!quiet.test(line)) console.error(line);
  });
  child.stdout!.resume();
  return child;
}

function startServer(
  port: number,
  dataDir: string,
  databaseUrl: string | undefined,
  inspectPort: number,
): ChildProcess {
  return spawnNode(
    [entry],
    {
      ...benchServerEnv(port, dataDir, databaseUrl),
    },
    inspectPort,
  );
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The limit: the `ws` library alone, relaying each broadcast frame as received to every other socket. */
async function startRawServer(port: number, inspectPort: number): Promise<ChildProcess> {
  const wsUrl = pathToFileURL(createRequire(import.meta.url).resolve('ws')).href;
  const script = `
    const { WebSocketServer } = (await import(${JSON.stringify(wsUrl)})).default;
    const wss = new WebSocketServer({ host: '127.0.0.1', port: ${port}, perMessageDeflate: false });
    wss.on('connection', (ws) => {
      ws.on('message', (data) => {
        const text = data.toString();
        const frame = JSON.parse(text);
        if (frame[3] === 'broadcast') {
          for (const client of wss.clients) if (client !== ws) client.send(text);
        } else {
          ws.send(JSON.stringify([frame[0], frame[1], frame[2], 'phx_reply', { status: 'ok', response: {} }]));
        }
      });
    });
    wss.on('listening', () => console.log('ready'));
  `;
  const child = spawnNode(['--input-type=module', '-e', script], {}, inspectPort);
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', () => resolve());
    child.once('exit', () => reject(new Error('raw ws server exited')));
  });
  return child;
}

interface Memory {
  rss: number;
  heap: number;
}

/**
 * RSS and main-thread heap used after forced collections in every thread
 * (Chrome DevTools protocol over the inspector port), once the RSS settles.
 */
async function settledMemory(child: ChildProcess, inspectPort: number): Promise<Memory> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const inspector = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    inspector.once('open', resolve);
    inspector.once('error', reject);
  });
  type Message = { id?: number; method?: string; params?: Record<string, string>; result?: object };
  let id = 0;
  const workers = new Set<string>();
  const waiting = new Map<string, (result: object | undefined) => void>();
  inspector.on('message', (data: RawData) => {
    const message = JSON.parse(data.toString()) as Message;
    if (message.method === 'NodeWorker.attachedToWorker') workers.add(message.params!.sessionId!);
    if (message.method === 'NodeWorker.detachedFromWorker')
      workers.delete(message.params!.sessionId!);
    let key = message.id !== undefined ? `main:${message.id}` : undefined;
    let result = message.result;
    if (message.method === 'NodeWorker.receivedMessageFromWorker') {
      const inner = JSON.parse(message.params!.message!) as Message;
      key = inner.id !== undefined ? `${message.params!.sessionId}:${inner.id}` : undefined;
      result = inner.result;
    }
    if (key === undefined) return;
    waiting.get(key)?.(result);
    waiting.delete(key);
  });
  const call = (method: string, params: object = {}, worker?: string) =>
    new Promise<{ result?: { value?: string } }>((resolve) => {
      const callId = ++id;
      const key = `${worker ?? 'main'}:${callId}`;
      const timer = setTimeout(() => {
        waiting.delete(key); // a thread that ended meanwhile
        resolve({});
      }, 5000);
      waiting.set(key, (result) => {
        clearTimeout(timer);
        resolve(result as { result?: { value?: string } });
      });
      const message = JSON.stringify({ id: callId, method, params });
      inspector.send(
        worker
          ? JSON.stringify({
              id: ++id,
              method: 'NodeWorker.sendMessageToWorker',
              params: { sessionId: worker, message },
            })
          : message,
      );
    });
  // The server's worker threads (the embedded database, password hashing) have heaps of their own.
  await call('NodeWorker.enable', { waitForDebuggerOnStart: false });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const read = async (): Promise<Memory> => {
    await Promise.all(
      [...workers].map((worker) => call('HeapProfiler.collectGarbage', {}, worker)),
    );
    await call('HeapProfiler.collectGarbage');
    const evaluated = await call('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const usage = JSON.parse(evaluated.result?.value ?? '{}') as { heapUsed: number };
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { rss: rssKb * 1024, heap: usage.heapUsed };
  };
  // V8 and the allocator give pages back some time after a collection: read
  // until the RSS holds still (within 256 KB for three readings a second apart), 20 s at most.
  let last = await read();
  let still = 0;
  for (let attempt = 0; attempt < 20 && still < 2; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = await read();
    still = Math.abs(now.rss - last.rss) < 256 * 1024 ? still + 1 : 0;
    last = now;
  }
  inspector.close();
  return last;
}

// ---------------------------------------------------------------------------
// A minimal Phoenix vsn 2.0.0 client

type Payload = Record<string, unknown>;
type Listener = (event: string, payload: Payload, receivedAt: number) => void;

class PhoenixSocket {
  private ref = 0;
  private readonly replies = new Map<string, (payload: Payload) => void>();
  private heartbeat: NodeJS.Timeout | undefined;
  listener: Listener | undefined;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const receivedAt = performance.now();
      if (isBinary) return; // JSON broadcasts arrive as text
      const [, ref, , event, payload] = JSON.parse(data.toString()) as [
        string | null,
        string | null,
        string,
        string,
        Payload,
      ];
      if (event === 'phx_reply' && ref !== null) {
        const resolve = this.replies.get(ref);
        this.replies.delete(ref);
        resolve?.(payload);
        return;
      }
      this.listener?.(event, payload, receivedAt);
    });
    // The server closes sockets silent for 60 s; heartbeats at a random phase.
    const beat = () => this.send(null, 'phoenix', 'heartbeat', {});
    const first = setTimeout(() => {
      beat();
      this.heartbeat = setInterval(beat, 20_000);
    }, Math.random() * 20_000);
    this.heartbeat = first;
    ws.on('close', () => clearTimeout(this.heartbeat));
  }

  static open(url: string): Promise<PhoenixSocket> {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new PhoenixSocket(ws)));
      ws.once('error', reject);
    });
  }

  send(joinRef: string | null, topic: string, event: string, payload: unknown): string {
    const ref = String(++this.ref);
    this.ws.send(JSON.stringify([joinRef, ref, topic, event, payload]));
    return ref;
  }

  request(joinRef: string | null, topic: string, event: string, payload: unknown) {
    const ref = this.send(joinRef, topic, event, payload);
    return new Promise<Payload>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${event} on ${topic}: no reply`)), 15_000);
      this.replies.set(ref, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
    });
  }

  /** Joins; resolves to the join ref, rejects with the server's reason. */
  async join(topic: string, accessToken: string, postgresChanges: object[] = []): Promise<string> {
    const joinRef = String(this.ref + 1);
    const reply = await this.request(joinRef, topic, 'phx_join', {
      config: {
        broadcast: { self: false, ack: false },
        presence: { key: '', enabled: false },
        postgres_changes: postgresChanges,
        private: false,
      },
      access_token: accessToken,
    });
    if (reply.status !== 'ok') {
      throw new Error(String((reply.response as { reason?: string } | undefined)?.reason));
    }
    return joinRef;
  }

  close(): Promise<void> {
    clearTimeout(this.heartbeat);
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.ws.terminate();
        resolve();
      }, 2000);
      this.ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      this.ws.close();
    });
  }
}

async function openMany<T>(count: number, open: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(50, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await open(index);
      }
    }),
  );
  return results;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `task(k)` at start + k/rate for `durationMs` (no drift); resolves after the last call. */
async function atFixedRate(rate: number, durationMs: number, task: (k: number) => void) {
  const started = performance.now();
  const count = Math.round((rate * durationMs) / 1000);
  for (let k = 0; k < count; k += 1) {
    const due = started + (k * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    task(k);
  }
  const end = started + durationMs - performance.now();
  if (end > 0) await sleep(end);
  return count;
}

// ---------------------------------------------------------------------------
// Measurements

interface Round {
  rate: number;
  p50: number;
  p99: number;
  delivered: number;
  expected: number;
}

interface FanOut {
  rounds: Map<number, Round[]>;
  memory: { before: Memory; after: Memory };
  official?: { received: number; sent: number };
}

/** Opens the sockets (measuring memory), then runs the fan-out rounds at each rate. */
async function measureFanOut(options: {
  url: string;
  token: string;
  memory: () => Promise<Memory>;
  /** When the process's memory has settled after its start (performance.now()). */
  settledAt: number;
  official?: { base: string; anonKey: string };
}): Promise<FanOut> {
  // Warm-up (code paths, JIT, buffers), then the baseline.
  const warm = await openMany(50, async () => {
    const socket = await PhoenixSocket.open(options.url);
    await socket.join(TOPIC, options.token);
    return socket;
  });
  await Promise.all(warm.map((socket) => socket.close()));
  await sleep(1000);
  // A new process gives memory back for a while after it starts (V8's memory
  // reducer about 8 s in; the server again about 50 s in): the baseline waits.
  await sleep(Math.max(0, options.settledAt - performance.now()));
  const before = await options.memory();
  const receivers = await openMany(SOCKETS, async () => {
    const socket = await PhoenixSocket.open(options.url);
    await socket.join(TOPIC, options.token);
    return socket;
  });
  await sleep(1000);
  const after = await options.memory();
  const memory = { before, after };

  let latencies: number[] = [];
  for (const socket of receivers) {
    socket.listener = (event, payload, receivedAt) => {
      if (event !== 'broadcast') return;
      const t = (payload.payload as { t?: number } | undefined)?.t;
      if (typeof t === 'number') latencies.push(receivedAt - t);
    };
  }
  let official: FanOut['official'];
  let officialCount = 0;
  let officialClient: ReturnType<typeof createClient> | undefined;
  if (options.official) {
    officialClient = createClient(options.official.base, options.official.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    await new Promise<void>((resolve, reject) => {
      officialClient!
        .channel(TOPIC.slice('realtime:'.length))
        .on('broadcast', { event: 'tick' }, () => {
          officialCount += 1;
        })
        .subscribe((status, error) => {
          if (status === 'SUBSCRIBED') resolve();
          else if (status !== 'CLOSED') reject(error ?? new Error(status));
        });
    });
    official = { received: 0, sent: 0 };
  }

  const sender = await PhoenixSocket.open(options.url);
  const joinRef = await sender.join(TOPIC, options.token);
  const publish = () =>
    sender.send(joinRef, TOPIC, 'broadcast', {
      type: 'broadcast',
      event: 'tick',
      payload: { t: performance.now() },
    });
  await atFixedRate(Math.max(...RATES), 2000, publish); // warm-up
  await sleep(DRAIN_MS);

  const rounds = new Map<number, Round[]>();
  for (const rate of RATES) {
    const list: Round[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      latencies = [];
      officialCount = 0;
      const sent = await atFixedRate(rate, ROUND_MS, publish);
      await sleep(DRAIN_MS);
      list.push({
        rate,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        delivered: latencies.length,
        expected: sent * SOCKETS,
      });
      if (official) {
        official.received += officialCount;
        official.sent += sent;
      }
    }
    rounds.set(rate, list);
  }
  if (officialClient) await officialClient.removeAllChannels();
  await sender.close();
  await Promise.all(receivers.map((socket) => socket.close()));
  return { rounds, memory, ...(official ? { official } : {}) };
}

interface Changes {
  single: { fromSent: number[]; fromReturned: number[]; delivered: number; expected: number }[];
  batch: { fromSent: number[]; fromReturned: number[]; delivered: number; expected: number }[];
  limit: { p50: number; p99: number }[];
  foreign: number;
}

async function json(response: Response): Promise<Payload> {
  const body = (await response.json()) as Payload;
  if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** postgres_changes: INSERT → delivery to signed-in subscribers under RLS. */
async function measureChanges(options: {
  base: string;
  url: string;
  anonKey: string;
  serviceRoleKey: string;
}): Promise<Changes | string> {
  const { base, anonKey, serviceRoleKey } = options;
  const service = {
    apikey: serviceRoleKey,
    authorization: `Bearer ${serviceRoleKey}`,
    'content-type': 'application/json',
  };
  // Created with a cost-4 bcrypt hash (the admin API's password_hash) so that
  // 100 sign-ins take a second rather than half a minute of hashing.
  const passwordHash = await bcrypt.hash(PASSWORD, 4);
  const users = await openMany(SUBSCRIBERS, async (index) => {
    const email = `bench-${index}@example.com`;
    await json(
      await fetch(`${base}/auth/v1/admin/users`, {
        method: 'POST',
        headers: service,
        body: JSON.stringify({ email, password_hash: passwordHash, email_confirm: true }),
      }),
    );
    const session = await json(
      await fetch(`${base}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      }),
    );
    return { id: (session.user as { id: string }).id, token: session.access_token as string };
  });

  const sentAt = new Map<string, { sent: number; returned: number }>();
  let fromSent: number[] = [];
  let fromReturned: number[] = [];
  let broadcastLatencies: number[] = [];
  let foreign = 0;
  const pending: { body: string; receivedAt: number }[] = [];
  let subscribers: PhoenixSocket[];
  try {
    subscribers = await openMany(SUBSCRIBERS, async (index) => {
      const user = users[index]!;
      const socket = await PhoenixSocket.open(options.url);
      socket.listener = (event, payload, receivedAt) => {
        if (event === 'broadcast') {
          const t = (payload.payload as { t?: number } | undefined)?.t;
          if (typeof t === 'number') broadcastLatencies.push(receivedAt - t);
        } else if (event === 'postgres_changes') {
          const record = (payload.data as { record?: { owner?: string; body?: string } }).record;
          if (record?.owner !== user.id) foreign += 1;
          if (record?.body) pending.push({ body: record.body, receivedAt });
        }
      };
      await socket.join(CHANGES_TOPIC, user.token, [
        { event: 'INSERT', schema: 'public', table: 'bench_events' },
      ]);
      return socket;
    });
  } catch (error) {
    return `not available (${(error as Error).message})`;
  }
  // A delivery may arrive before the insert's response: matched once the round is over.
  const settle = () => {
    for (const { body, receivedAt } of pending.splice(0)) {
      const times = sentAt.get(body);
      if (!times) continue;
      fromSent.push(receivedAt - times.sent);
      fromReturned.push(receivedAt - times.returned);
    }
  };
  const insert = async (rows: { owner: string; body: string }[]) => {
    const sent = performance.now();
    const response = await fetch(`${base}/rest/v1/bench_events`, {
      method: 'POST',
      headers: { ...service, prefer: 'return=minimal' },
      body: JSON.stringify(rows),
    });
    if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`);
    await response.arrayBuffer();
    const returned = performance.now();
    for (const row of rows) sentAt.set(row.body, { sent, returned });
  };

  const result: Changes = { single: [], batch: [], limit: [], foreign: 0 };
  let seq = 0;
  // Warm-up: a few single inserts.
  for (let k = 0; k < 5; k += 1) {
    await insert([{ owner: users[k % SUBSCRIBERS]!.id, body: `w${seq++}` }]);
  }
  await sleep(DRAIN_MS);
  pending.length = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    // Single-row inserts at a fixed rate, owners in turn: each row reaches its owner only.
    fromSent = [];
    fromReturned = [];
    const inserts: Promise<void>[] = [];
    const count = await atFixedRate(INSERTS_PER_SECOND, ROUND_MS, (k) => {
      inserts.push(insert([{ owner: users[k % SUBSCRIBERS]!.id, body: `s${seq++}` }]));
    });
    await Promise.all(inserts);
    await sleep(DRAIN_MS);
    settle();
    result.single.push({ fromSent, fromReturned, delivered: fromSent.length, expected: count });

    // One INSERT of 100 rows, one per subscriber.
    fromSent = [];
    fromReturned = [];
    await insert(users.map((user) => ({ owner: user.id, body: `b${seq++}` })));
    await sleep(DRAIN_MS);
    settle();
    result.batch.push({
      fromSent,
      fromReturned,
      delivered: fromSent.length,
      expected: SUBSCRIBERS,
    });

    // The limit: a REST broadcast to the same sockets (no database change involved).
    broadcastLatencies = [];
    for (let k = 0; k < 10; k += 1) {
      await json202(
        await fetch(`${base}/realtime/v1/api/broadcast`, {
          method: 'POST',
          headers: { apikey: anonKey, 'content-type': 'application/json' },
          body: JSON.stringify({
            messages: [
              {
                topic: CHANGES_TOPIC.slice('realtime:'.length),
                event: 'ping',
                payload: { t: performance.now() },
                private: false,
              },
            ],
          }),
        }),
      );
      await sleep(1000 / INSERTS_PER_SECOND);
    }
    await sleep(DRAIN_MS);
    result.limit.push({
      p50: percentile(broadcastLatencies, 50),
      p99: percentile(broadcastLatencies, 99),
    });
  }
  result.foreign = foreign;
  await Promise.all(subscribers.map((socket) => socket.close()));
  return result;
}

async function json202(response: Response): Promise<void> {
  if (response.status !== 202) throw new Error(`${response.status} ${await response.text()}`);
  await response.arrayBuffer();
}

// ---------------------------------------------------------------------------
// Output

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const spread = (values: number[], digits: number, unit = '') =>
  `${median(values).toFixed(digits)}${unit} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;

function row(label: string, ours: string, limit: string, share = '') {
  console.log(`  ${label.padEnd(40)} ${ours.padEnd(28)} ${limit.padEnd(26)} ${share}`.trimEnd());
}

function printFanOut(ours: FanOut, raw: FanOut) {
  row('', 'ours: median (min–max)', 'limit: raw ws median', 'ours / limit');
  // Per socket, and the process's whole figure before → after the sockets joined.
  const perSocket = ({ memory }: FanOut, key: keyof Memory) =>
    `${kb((memory.after[key] - memory.before[key]) / SOCKETS)} (${mb(memory.before[key])}→${mb(memory.after[key])})`;
  row('idle joined socket, RSS', perSocket(ours, 'rss'), perSocket(raw, 'rss'));
  row('idle joined socket, JS heap', perSocket(ours, 'heap'), perSocket(raw, 'heap'));
  for (const rate of RATES) {
    const list = ours.rounds.get(rate)!;
    const limit = raw.rounds.get(rate)!;
    const perSecond = (rounds: Round[]) => rounds.map((r) => r.delivered / (ROUND_MS / 1000));
    const lost = list.reduce((sum, r) => sum + r.expected - r.delivered, 0);
    console.log(
      `  fan-out ${rate} msg/s × ${SOCKETS} sockets (offered ${(rate * SOCKETS).toLocaleString('en-US')} deliveries/s)${lost ? `, ${lost} not delivered` : ''}`,
    );
    row(
      '  deliveries/s',
      spread(perSecond(list), 0),
      median(perSecond(limit)).toFixed(0),
      `${((100 * median(perSecond(list))) / median(perSecond(limit))).toFixed(0)}%`,
    );
    for (const p of ['p50', 'p99'] as const) {
      const ms = list.map((r) => r[p]);
      const limitMs = median(limit.map((r) => r[p]));
      row(
        `  latency ${p}`,
        spread(ms, 1, ' ms'),
        `${limitMs.toFixed(1)} ms`,
        `${(median(ms) / Math.max(limitMs, 0.05)).toFixed(1)}×`,
      );
    }
  }
  if (ours.official) {
    console.log(
      `  official supabase-js client on the same topic: received ${ours.official.received} of ${ours.official.sent} messages`,
    );
  }
}

function printChanges(changes: Changes | string) {
  if (typeof changes === 'string') {
    console.log(`  postgres_changes: ${changes}`);
    return;
  }
  const limitP50 = median(changes.limit.map((l) => l.p50));
  const limitP99 = median(changes.limit.map((l) => l.p99));
  console.log(
    `  postgres_changes INSERT → delivery, ${SUBSCRIBERS} signed-in subscribers (RLS: owner = auth.uid())` +
      `${changes.foreign ? `, ${changes.foreign} rows delivered to a non-owner (RLS leak!)` : ''}`,
  );
  row('', 'from insert returned', 'from insert sent', 'limit*: from sent');
  const section = (label: string, rounds: Changes['single']) => {
    const lost = rounds.reduce((sum, r) => sum + r.expected - r.delivered, 0);
    for (const p of [50, 99]) {
      const returned = rounds.map((r) => percentile(r.fromReturned, p));
      const sent = rounds.map((r) => percentile(r.fromSent, p));
      const limit = p === 50 ? limitP50 : limitP99;
      row(
        `  ${label}, p${p}`,
        spread(returned, 1, ' ms'),
        spread(sent, 1, ' ms'),
        `${limit.toFixed(1)} ms`,
      );
    }
    if (lost) console.log(`    ${label}: ${lost} rows not delivered`);
  };
  section(`single-row inserts ${INSERTS_PER_SECOND}/s`, changes.single);
  section(`${SUBSCRIBERS}-row INSERT`, changes.batch);
  console.log(
    `    single-row: owners in turn, each row reaches its owner's socket only; ${SUBSCRIBERS}-row: one row per subscriber` +
      `\n    * limit: REST /api/broadcast → the same ${SUBSCRIBERS} sockets (the push path without the database)`,
  );
}

// ---------------------------------------------------------------------------
// Runs

async function measureRaw(): Promise<FanOut> {
  const port = await freePort();
  const inspectPort = await freePort();
  const child = await startRawServer(port, inspectPort);
  const settledAt = performance.now() + 12_000;
  try {
    return await measureFanOut({
      url: `ws://127.0.0.1:${port}/`,
      token: 'none',
      memory: () => settledMemory(child, inspectPort),
      settledAt,
    });
  } finally {
    await stopProcess(child);
  }
}

console.log(
  `realtime benchmark, node ${process.version}: ${SOCKETS} sockets, rates ${RATES.join(', ')} msg/s, ${ROUNDS} rounds × ${ROUND_MS / 1000} s`,
);
await onEachEngine(async (engine, databaseUrl) => {
  const port = await freePort();
  const inspectPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-bench-realtime-'));
  let server = startServer(port, dataDir, databaseUrl, inspectPort);
  try {
    await waitForHealth(base, server);
    await stopProcess(server);
    await loadSchema(SCHEMA, dataDir, databaseUrl);
    server = startServer(port, dataDir, databaseUrl, inspectPort);
    await waitForHealth(base, server);
    const settledAt = performance.now() + 60_000;
    const child = server;

    const config = (await (await fetch(`${base}/config.json`)).json()) as { anonKey: string };
    const keys = JSON.parse(await readFile(path.join(dataDir, 'keys.json'), 'utf8')) as {
      serviceRoleKey: string;
    };
    const url = `ws://127.0.0.1:${port}/realtime/v1/websocket?apikey=${config.anonKey}&vsn=2.0.0`;
    // Database changes first, then the limit (while this server's memory settles), then fan-out.
    const changes = await measureChanges({
      base,
      url,
      anonKey: config.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
    });
    const raw = await measureRaw();
    const fanOut = await measureFanOut({
      url,
      token: config.anonKey,
      memory: () => settledMemory(child, inspectPort),
      settledAt,
      official: { base, anonKey: config.anonKey },
    });
    console.log(`\n${engine}`);
    printFanOut(fanOut, raw);
    printChanges(changes);
  } finally {
    await stopProcess(server);
    await rm(dataDir, { recursive: true, force: true });
  }
});
