// `npm run bench:auth`: sign-ins per second beside raw bcrypt comparisons (the
// same library, cost and password, in a piscina pool like the server's: one
// thread per core, lowered priority, the server's own worker module) at the same
// concurrency in the same run, in alternating rounds (BENCH_ROUNDS, default 5, of
// BENCH_SECONDS, default 4, per side); GET /user and token refreshes per second;
// and /health latency while a sign-in burst runs. For the built server on PGlite
// and then on PostgreSQL (DATABASE_URL, or a throw-away local cluster when the
// binaries are installed). Medians over the rounds with min–max.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import bcrypt from 'bcrypt';
import { Piscina } from 'piscina';
import {
  builtServerEntry,
  freePort,
  onEachEngine,
  percentile,
  printSides,
  root,
  roundResult,
  roundSettings,
  runClosedLoop,
  waitForHealth,
  type RoundResult,
} from './support';

const entry = builtServerEntry();
const CONCURRENCY = 20;
const PASSWORD = 'a bench passphrase that is long enough';
const BCRYPT_COST = 10;
const { rounds: ROUNDS, durationMs: DURATION_MS } = roundSettings();

/** Raw bcrypt: the server's worker module in a pool set up as the server sets up its own. */
function rawBcrypt() {
  const threads = Math.max(1, availableParallelism());
  const pool = new Piscina({
    filename: path.join(root, 'server', 'auth', 'password-worker.mjs'),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    niceIncrement: 10,
  });
  const hash = bcrypt.hashSync(PASSWORD, BCRYPT_COST);
  return {
    compare: async () => {
      const ok = (await pool.run({ password: PASSWORD, hash }, { name: 'compare' })) as boolean;
      if (!ok) throw new Error('raw bcrypt: no match');
    },
    close: () => pool.destroy(),
  };
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
  const raw = rawBcrypt();

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
    const signIn = async (index: number) => {
      await post('/auth/v1/token?grant_type=password', {
        email: emails[index % emails.length],
        password: PASSWORD,
      });
    };
    const getUser = async (index: number) => {
      const response = await fetch(`${base}/auth/v1/user`, {
        headers: { authorization: `Bearer ${sessions[index % sessions.length]!.access_token}` },
      });
      if (!response.ok) throw new Error(`user ${response.status}`);
      await response.arrayBuffer();
    };
    // Each refresh chain is used by one client at a time (a chain refreshed twice at once
    // would be a reuse).
    const refreshTokens = sessions.map((session) => session.refresh_token);
    const freeSlots = refreshTokens.map((_, slot) => slot);
    const refresh = async () => {
      const slot = freeSlots.pop()!;
      try {
        const next = await post('/auth/v1/token?grant_type=refresh_token', {
          refresh_token: refreshTokens[slot],
        });
        refreshTokens[slot] = next.refresh_token;
      } finally {
        freeSlots.push(slot);
      }
    };

    // Warm up: the hashing threads of both sides, JIT, the pool.
    await runClosedLoop(CONCURRENCY, 1000, signIn);
    await runClosedLoop(CONCURRENCY, 1000, raw.compare);

    const results = {
      signIn: [] as RoundResult[],
      compare: [] as RoundResult[],
      user: [] as RoundResult[],
      refresh: [] as RoundResult[],
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      results.signIn.push(roundResult(await runClosedLoop(CONCURRENCY, DURATION_MS, signIn)));
      results.compare.push(roundResult(await runClosedLoop(CONCURRENCY, DURATION_MS, raw.compare)));
      results.user.push(roundResult(await runClosedLoop(CONCURRENCY, DURATION_MS, getUser)));
      results.refresh.push(roundResult(await runClosedLoop(CONCURRENCY, DURATION_MS, refresh)));
    }

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
    const burst = roundResult(await runClosedLoop(CONCURRENCY, DURATION_MS, signIn));
    bursting = false;
    await prober;

    console.log(
      `\n${engine}, ${CONCURRENCY} concurrent clients, ${ROUNDS} rounds of ${DURATION_MS / 1000} s per side, node ${process.version}`,
    );
    console.log('  medians over the rounds, (min–max)');
    printSides(
      'sign-in (password grant) beside raw bcrypt',
      [
        { label: 'sign-in (HTTP, rate limits, session, tokens)', rounds: results.signIn },
        {
          label: `raw bcrypt.compareSync, cost ${BCRYPT_COST}, ${availableParallelism()} threads`,
          rounds: results.compare,
        },
      ],
      '/s',
    );
    printSides('GET /user', [{ label: 'GET /user', rounds: results.user }], '/s');
    printSides(
      'token refresh (rotation)',
      [{ label: 'token refresh', rounds: results.refresh }],
      '/s',
    );
    console.log(
      `  sign-in burst: ${burst.rate.toFixed(0)} /s; GET /health meanwhile p50 ${percentile(healthLatencies, 50).toFixed(1)} ms, p99 ${percentile(healthLatencies, 99).toFixed(1)} ms (n=${healthLatencies.length}, goal p99 ≤ 50 ms)`,
    );
  } finally {
    await raw.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

console.log('auth benchmark (bcrypt cost 10; each sign-in compares once)');
await onEachEngine(runBench);
