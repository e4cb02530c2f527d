// `npm run bench:storage`: /storage/v1 on the filesystem store and the embedded
// database (PGlite), for the built server: upload and download throughput for
// 1 MB and 100 MB objects, and 1 KB downloads per second with p50/p95 at 16
// concurrent clients. Uploads go through supabase-js (1 MB) or a file streamed
// with fetch (100 MB); downloads read the raw HTTP body with fetch, so they
// measure the server rather than the client's Blob assembly. MB = 2^20 bytes.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createClient } from '@supabase/supabase-js';
import { WebSocket } from 'ws';
import {
  startBenchServer,
  stopBenchServer,
  freePort,
  percentile,
  root,
  runClosedLoop,
  waitForHealth,
} from './support';

const MB = 1024 * 1024;
const SMALL_SIZE = 1024;
const SMALL_OBJECTS = 64;
const SMALL_CONCURRENCY = 16;
const RUNS_1MB = Number(process.env.BENCH_RUNS_1MB ?? 30);
const RUNS_100MB = Number(process.env.BENCH_RUNS_100MB ?? 5);
const SMALL_MS = Number(process.env.BENCH_SECONDS ?? 8) * 1000;
const BUCKET = 'bench';

// Build once when there is no build yet (a stale build is used as it is: `npm run build`).
if (!existsSync(path.join(root, 'dist', 'server', 'main.mjs'))) {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

interface Timing {
  seconds: number[];
  bytes: number;
}

const describe = (error: Error) => `${error.message} ${JSON.stringify(error)}`;

/** Throws with the request and the server's answer when the status is not 2xx. */
async function expectOk(response: Response, request: string): Promise<void> {
  if (response.ok) return;
  const body = await response.text().catch(() => '<unreadable body>');
  throw new Error(`${request} -> HTTP ${response.status}: ${body}`);
}

/** Reads a response body to the end without keeping it; returns the byte count. */
async function drain(response: Response): Promise<number> {
  if (!response.body) return 0;
  const reader = response.body.getReader();
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return total;
    total += value.byteLength;
  }
}

async function writeRandomFile(file: string, megabytes: number): Promise<void> {
  const out = createWriteStream(file);
  for (let index = 0; index < megabytes; index += 1) {
    if (!out.write(randomBytes(MB))) await once(out, 'drain');
  }
  out.end();
  await finished(out);
}

async function repeat(runs: number, bytes: number, task: (run: number) => Promise<void>) {
  const timing: Timing = { seconds: [], bytes };
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await task(run);
    timing.seconds.push((performance.now() - started) / 1000);
  }
  return timing;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function throughputRow(label: string, timing: Timing) {
  const rates = timing.seconds.map((seconds) => timing.bytes / MB / seconds);
  const cell = (value: number) => value.toFixed(1).padStart(8);
  console.log(
    `${label.padEnd(40)} ${cell(median(rates))} MB/s   (min ${Math.min(...rates).toFixed(1)}, max ${Math.max(...rates).toFixed(1)}; median ${(median(timing.seconds) * 1000).toFixed(1)} ms per object, n=${rates.length})`,
  );
}

const workDir = await mkdtemp(path.join(tmpdir(), 'cervana-bench-storage-'));
const dataDir = path.join(workDir, 'data');
const bigFile = path.join(workDir, 'upload-100mb.bin');
await mkdir(dataDir);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = startBenchServer(port, dataDir, undefined, { STORAGE_BACKEND: 'fs' });
process.once('SIGINT', () => {
  server.kill('SIGTERM');
  rmSync(workDir, { recursive: true, force: true });
  process.exit(130);
});

try {
  await Promise.all([writeRandomFile(bigFile, 100), waitForHealth(base, server)]);
  // The server generated its keys on first start (no JWT_SECRET given), as `npm run keys` shows.
  const { serviceRoleKey } = JSON.parse(
    await readFile(path.join(dataDir, 'keys.json'), 'utf8'),
  ) as { serviceRoleKey: string };
  const supabase = createClient(base, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no WebSocket global, which the realtime client needs even unused.
    realtime: { transport: WebSocket as never },
  });
  const storage = supabase.storage.from(BUCKET);
  const headers = { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` };
  const objectUrl = (key: string) => `${base}/storage/v1/object/${BUCKET}/${key}`;

  const created = await supabase.storage.createBucket(BUCKET, { public: false });
  if (created.error) {
    throw new Error(
      `createBucket (POST /storage/v1/bucket {id: ${BUCKET}, public: false}) failed: ${describe(created.error)}`,
    );
  }

  /** GET /object/<bucket>/<key>, reading the whole body; checks the length. */
  const download = async (key: string, size: number) => {
    const url = objectUrl(key);
    const response = await fetch(url, { headers });
    await expectOk(response, `GET ${url}`);
    const received = await drain(response);
    if (received !== size) throw new Error(`GET ${url}: ${received} bytes, expected ${size}`);
  };

  /** POST /object/<bucket>/<key> with the file streamed from disk (chunked). */
  const uploadFile = async (key: string) => {
    const url = objectUrl(key);
    const init: RequestInit & { duplex: 'half' } = {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream', 'x-upsert': 'true' },
      body: Readable.toWeb(createReadStream(bigFile)) as ReadableStream<Uint8Array>,
      duplex: 'half',
    };
    const response = await fetch(url, init);
    await expectOk(response, `POST ${url} (100 MB stream)`);
    await response.arrayBuffer();
  };

  const upload = async (key: string, body: Buffer) => {
    const { error } = await storage.upload(key, body, {
      contentType: 'application/octet-stream',
      upsert: true,
    });
    if (error)
      throw new Error(
        `upload (POST /storage/v1/object/${BUCKET}/${key}, ${body.length} bytes) failed: ${describe(error)}`,
      );
  };

  // Warm up: one upload and download of each kind.
  const oneMb = randomBytes(MB);
  await upload('warm/1mb', oneMb);
  await download('warm/1mb', MB);
  await uploadFile('100mb/object');
  await download('100mb/object', 100 * MB);

  const upload1 = await repeat(RUNS_1MB, MB, (run) => upload(`1mb/${run}`, oneMb));
  const upload100 = await repeat(RUNS_100MB, 100 * MB, () => uploadFile('100mb/object'));
  const download1 = await repeat(RUNS_1MB, MB, (run) => download(`1mb/${run}`, MB));
  const download100 = await repeat(RUNS_100MB, 100 * MB, () => download('100mb/object', 100 * MB));
  const clientDownload1 = await repeat(RUNS_1MB, MB, async (run) => {
    const { data, error } = await storage.download(`1mb/${run}`);
    if (error)
      throw new Error(
        `download (GET /storage/v1/object/${BUCKET}/1mb/${run}) failed: ${describe(error)}`,
      );
    if (data.size !== MB) throw new Error(`download(1mb/${run}): ${data.size} bytes`);
  });

  // Small objects: back-to-back GETs from 16 clients for a fixed time.
  const small = randomBytes(SMALL_SIZE);
  for (let index = 0; index < SMALL_OBJECTS; index += 1) await upload(`1kb/${index}`, small);
  const runSmall = (durationMs: number) =>
    runClosedLoop(SMALL_CONCURRENCY, durationMs, (index) =>
      download(`1kb/${index % SMALL_OBJECTS}`, SMALL_SIZE),
    );
  await runSmall(1000);
  const smallResult = await runSmall(SMALL_MS);

  console.log(
    `\nstorage benchmark: filesystem store, PGlite (embedded), private bucket, service_role key, node ${process.version}`,
  );
  console.log(
    `(MB = 2^20 bytes; throughput per object, objects one at a time; median of n runs)\n`,
  );
  throughputRow('upload 1 MB (supabase-js upload)', upload1);
  throughputRow('upload 100 MB (fetch, file streamed)', upload100);
  throughputRow('download 1 MB (fetch, raw body)', download1);
  throughputRow('download 100 MB (fetch, raw body)', download100);
  throughputRow('download 1 MB (supabase-js download)', clientDownload1);
  const { latencies, seconds } = smallResult;
  console.log(
    `${`download 1 KB, ${SMALL_CONCURRENCY} concurrent (fetch)`.padEnd(40)} ${(latencies.length / seconds).toFixed(0).padStart(8)} req/s  (p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms; n=${latencies.length} in ${seconds.toFixed(1)} s)`,
  );
} finally {
  await stopBenchServer(server);
  await rm(workDir, { recursive: true, force: true });
}
