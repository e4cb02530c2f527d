// `npm run bench:auth`: sign-ins per second and p95 under 20 concurrent clients,
// GET /user and token refreshes per second, and /health latency while a sign-in
// burst runs, for the built server on PGlite and then on PostgreSQL (DATABASE_URL,
// or a throw-away local cluster when the binaries are installed), side by side.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtServerEntry, freePort, onEachEngine, percentile, waitForHealth } from './support';

const entry = builtServerEntry();
const CONCURRENCY = 20;
const PASSWORD = 'a bench passphrase that is long enough';

/** Runs `total` calls of `task` with `concurrency` in flight; returns each call's latency in ms. */
async function pool(
  total: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const index = next;
        next += 1;
        const callStarted = performance.now();
        await task(index);
        latencies.push(performance.now() - callStarted);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

function report(label: string, result: { latencies: number[]; seconds: number }) {
  const rate = result.latencies.length / result.seconds;
  console.log(
    `${label.padEnd(34)} ${rate.toFixed(0).padStart(6)} /s   p50 ${percentile(result.latencies, 50).toFixed(1).padStart(6)} ms   p95 ${percentile(result.latencies, 95).toFixed(1).padStart(6)} ms   (n=${result.latencies.length})`,
  );
}

async function runBench(engine: string, databaseUrl: string | undefined): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-bench-auth-'));
  const unlimited = '1000000';
  const server = spawn(process.execPath, [entry], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      MAILER_AUTOCONFIRM: 'true',
      RATE_LIMIT_SIGN_IN_SIGN_UPS: unlimited,
      RATE_LIMIT_TOKEN_REFRESH: unlimited,
      RATE_LIMIT_FAILED_SIGN_INS: unlimited,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });

  const post = async (pathname: string, body: unknown, token?: string) => {
    const response = await fetch(`${base}${pathname}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${pathname} ${response.status} ${await response.text()}`);
    return (await response.json()) as { access_token: string; refresh_token: string };
  };

  try {
    await waitForHealth(base, server);
    const emails = Array.from({ length: CONCURRENCY }, (_, index) => `bench-${index}@example.com`);
    const sessions = await Promise.all(
      emails.map((email) => post('/auth/v1/signup', { email, password: PASSWORD })),
    );

    console.log(`\n${engine}, ${CONCURRENCY} concurrent clients, node ${process.version}`);
    report(
      'sign-in (password grant)',
      await pool(400, CONCURRENCY, async (index) => {
        await post('/auth/v1/token?grant_type=password', {
          email: emails[index % emails.length],
          password: PASSWORD,
        });
      }),
    );
    report(
      'GET /user',
      await pool(3000, CONCURRENCY, async (index) => {
        const response = await fetch(`${base}/auth/v1/user`, {
          headers: { authorization: `Bearer ${sessions[index % sessions.length]!.access_token}` },
        });
        if (!response.ok) throw new Error(`user ${response.status}`);
        await response.arrayBuffer();
      }),
    );
    const refreshTokens = sessions.map((session) => session.refresh_token);
    report(
      'token refresh (rotation)',
      await pool(1000, CONCURRENCY, async (index) => {
        // Each client refreshes its own chain, one at a time.
        const slot = index % CONCURRENCY;
        const next = await post('/auth/v1/token?grant_type=refresh_token', {
          refresh_token: refreshTokens[slot],
        });
        refreshTokens[slot] = next.refresh_token;
      }).catch((error: unknown) => {
        throw error;
      }),
    );

    // /health latency while a sign-in burst keeps the hashing threads busy.
    const healthLatencies: number[] = [];
    let bursting = true;
    const prober = (async () => {
      while (bursting) {
        const started = performance.now();
        await (await fetch(`${base}/health`)).arrayBuffer();
        healthLatencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const burst = await pool(300, CONCURRENCY, async (index) => {
      await post('/auth/v1/token?grant_type=password', {
        email: emails[index % emails.length],
        password: PASSWORD,
      });
    });
    bursting = false;
    await prober;
    report('sign-in during the burst', burst);
    console.log(
      `${'GET /health during the burst'.padEnd(34)}   p50 ${percentile(healthLatencies, 50).toFixed(1)} ms   p99 ${percentile(healthLatencies, 99).toFixed(1)} ms   (n=${healthLatencies.length}, goal p99 ≤ 50 ms)`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

console.log('auth benchmark (bcrypt cost 10; each sign-in hashes once)');
await onEachEngine(runBench);
