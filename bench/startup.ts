// `npm run bench:startup`: first start on an empty data folder, restart on an
// existing one, and SIGTERM-to-exit, for the built server. Prints medians.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtServerEntry, freePort } from './support';

const entry = builtServerEntry();
const runs = Number(process.env.BENCH_RUNS ?? 5);

async function startAndStop(dataDir: string): Promise<{ ready: number; stop: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [entry], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null) throw new Error('server exited during start-up');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const ready = performance.now() - started;
  const stopping = performance.now();
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`server exited ${code} on SIGTERM`);
  return { ready, stop: performance.now() - stopping };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const first: number[] = [];
const restart: number[] = [];
const stop: number[] = [];
for (let run = 0; run < runs; run += 1) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-bench-'));
  try {
    const cold = await startAndStop(dataDir);
    first.push(cold.ready);
    const warm = await startAndStop(dataDir);
    restart.push(warm.ready);
    stop.push(cold.stop, warm.stop);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
const row = (label: string, values: number[]) =>
  console.log(
    `${label.padEnd(44)} median ${median(values).toFixed(0).padStart(5)} ms   (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)}, n=${values.length})`,
  );
console.log(`startup, built server on PGlite (spawn → /health answers), node ${process.version}`);
row('first start, empty data folder', first);
row('restart, existing data folder', restart);
row('SIGTERM → exit 0', stop);
