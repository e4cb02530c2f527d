// `npm run bench:startup`: the built server on PGlite, BENCH_RUNS times (default 5), each run
// on a new data folder: first start on the empty folder, SIGTERM → exit, restart on the now
// existing folder, and a drain (20 password sign-ins in flight at SIGTERM). Beside the restart,
// two floors measured in the same runs, so the figures mean something on a busy machine:
//   - bare Node: a process that imports nothing of ours and listens (http.createServer);
//   - raw PGlite: a process that opens the same data folder, runs `select 1`, then listens.
// Times are spawn → first 200 (from /health for ours: it pings the database). Prints medians,
// min and max. BENCH_ENTRY runs another build (e.g. an older checkout's dist/server/main.mjs).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtServerEntry, freePort, root } from './support';

const entry = process.env.BENCH_ENTRY ? path.resolve(process.env.BENCH_ENTRY) : builtServerEntry();
const runs = Number(process.env.BENCH_RUNS ?? 5);
const SIGN_INS = 20;
const SIGNAL_AFTER_MS = 50;

interface Spawned {
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
  /** spawn → the first 200 from `probe`, in ms. */
  ready: number;
}

/** Spawns `node args` and polls `probe` every 5 ms until it answers 200. */
async function spawnUntilReady(
  args: string[],
  env: Record<string, string>,
  probe: string,
): Promise<Spawned> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}${probe}`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${args.join(' ').slice(0, 80)} exited during start-up\n${errors}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { child, port, exited, ready: performance.now() - started };
}

async function stop(spawned: Spawned): Promise<number> {
  const stopping = performance.now();
  spawned.child.kill('SIGTERM');
  const code = await spawned.exited;
  if (code !== 0) throw new Error(`exited ${code} on SIGTERM`);
  return performance.now() - stopping;
}

const startServer = (dataDir: string) =>
  spawnUntilReady(
    [entry],
    {
      // The defaults (demo accounts, sample data), with sign-ins unlimited for the drain.
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      MAILER_AUTOCONFIRM: 'true',
      RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000000',
      RATE_LIMIT_FAILED_SIGN_INS: '1000000',
    },
    '/health',
  );

// The floors: what any Node process, and any process that opens this PGlite folder, pays.
const BARE_NODE = `require('node:http').createServer((q, s) => s.end('ok')).listen(process.env.PORT, '127.0.0.1')`;
const RAW_PGLITE = `
import { createServer } from 'node:http';
import { PGlite } from '@electric-sql/pglite';
const db = await PGlite.create(process.env.PGDATA);
await db.query('select 1');
createServer((q, s) => { db.query('select 1').then(() => s.end('ok')); }).listen(process.env.PORT, '127.0.0.1');
process.on('SIGTERM', () => db.close().then(() => process.exit(0)));
`;

/** One POST on its own connection; `onSent` once the whole request is written to it. */
function post(
  port: number,
  pathname: string,
  apikey: string,
  body: unknown,
  onSent?: () => void,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: 'POST',
        agent: false,
        headers: { apikey, 'Content-Type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    if (onSent) outgoing.on('finish', onSent);
    outgoing.end(payload);
  });
}

/** 20 password sign-ins in flight, SIGTERM 50 ms after they are all sent: ms from SIGTERM to exit. */
async function drainWithSignIns(server: Spawned, dataDir: string): Promise<number> {
  const { anonKey } = JSON.parse(await readFile(path.join(dataDir, 'keys.json'), 'utf8')) as {
    anonKey: string;
  };
  const credentials = { email: 'drain@example.com', password: 'a drain of no consequence' };
  const signedUp = await post(server.port, '/auth/v1/signup', anonKey, credentials);
  if (signedUp.status !== 200) throw new Error(`sign-up: ${signedUp.status} ${signedUp.body}`);
  // Signalled once every request is on its connection (as scripts/graceful-stop.test.ts does): a
  // connection still in the listen backlog when the listener closes is refused, by design.
  const sent: Promise<void>[] = [];
  const signIns = Array.from({ length: SIGN_INS }, () => {
    let onSent = () => {};
    const written = new Promise<void>((resolve) => (onSent = resolve));
    const signIn = post(
      server.port,
      '/auth/v1/token?grant_type=password',
      anonKey,
      credentials,
      onSent,
    );
    // A request that failed before it was written is reported below, not waited for.
    sent.push(
      Promise.race([
        written,
        signIn.then(
          () => undefined,
          () => undefined,
        ),
      ]),
    );
    return signIn;
  });
  await Promise.all(sent);
  await new Promise((resolve) => setTimeout(resolve, SIGNAL_AFTER_MS));
  const stopping = performance.now();
  server.child.kill('SIGTERM');
  const [answers, code] = await Promise.all([Promise.all(signIns), server.exited]);
  const ms = performance.now() - stopping;
  const failed = answers.filter((answer) => answer.status !== 200);
  if (failed.length > 0) {
    throw new Error(`${failed.length} of ${SIGN_INS} sign-ins failed: ${failed[0]!.status}`);
  }
  if (code !== 0) throw new Error(`exited ${code} after the drain`);
  return ms;
}

const results = {
  first: [] as number[],
  restart: [] as number[],
  bare: [] as number[],
  raw: [] as number[],
  stop: [] as number[],
  drain: [] as number[],
};
for (let run = 0; run < runs; run += 1) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-bench-'));
  try {
    const cold = await startServer(dataDir);
    results.first.push(cold.ready);
    // A running server, as one is stopped: not in the same instant it came up.
    await new Promise((resolve) => setTimeout(resolve, 200));
    results.stop.push(await stop(cold));

    const bare = await spawnUntilReady(['-e', BARE_NODE], {}, '/');
    results.bare.push(bare.ready);
    bare.child.kill('SIGTERM');
    await bare.exited;
    const raw = await spawnUntilReady(
      ['--input-type=module', '-e', RAW_PGLITE],
      { PGDATA: path.join(dataDir, 'pgdata') },
      '/',
    );
    results.raw.push(raw.ready);
    await stop(raw);

    const warm = await startServer(dataDir);
    results.restart.push(warm.ready);
    results.drain.push(await drainWithSignIns(warm, dataDir));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const row = (label: string, values: number[], note = '') =>
  console.log(
    `${label.padEnd(50)} median ${median(values).toFixed(0).padStart(5)} ms   (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)}, n=${values.length})${note}`,
  );
const ratio = (floor: number[]) => (median(results.restart) / median(floor)).toFixed(2);
console.log(
  `startup, ${path.relative(root, entry) || entry} on PGlite (spawn → first 200), node ${process.version}`,
);
row('first start, empty data folder', results.first);
row('restart, existing data folder', results.restart);
row('  floor: bare node, listens', results.bare, `   restart = ${ratio(results.bare)}×`);
row(
  '  floor: open PGlite folder + select 1, listens',
  results.raw,
  `   restart = ${ratio(results.raw)}×`,
);
row('SIGTERM → exit 0 (idle)', results.stop);
row(`SIGTERM → exit 0 (${SIGN_INS} sign-ins in flight, all 200)`, results.drain);
