// The servers the E2E tests drive: the built app, twice, each on a fresh throw-away data folder,
// with every auth email really delivered over SMTP into an in-memory sink the tests read.
//
//   main   E2E_PORT (4173)               production auth settings, minus the per-IP limits
//   short  E2E_SHORT_PORT (E2E_PORT + 2)  the same with 100-second access tokens (refresh tests)
//
// Each has a test API on 127.0.0.1 only (E2E_MAIL_PORT = E2E_PORT + 1 for main,
// E2E_SHORT_MAIL_PORT = E2E_PORT + 3 for short); `?server=main|short` picks the other one:
//   GET /messages?to=<address>  [{ to, from, subject, text, html, attachments, date }], oldest first (no `to`: all)
//   GET /service-role-key       { serviceRoleKey, anonKey, url } from the server's DATA_DIR/keys.json
//   GET /ready                  200 once both servers answer /health, else 503 (Playwright waits on it)
//
// One process starts both so they boot in parallel: Playwright starts webServer entries one
// after another, each waiting for its URL. SIGTERM/SIGINT stop both and remove the data folders.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const basePort = Number(process.env.E2E_PORT ?? 4173);
const portFrom = (name, offset) => Number(process.env[name] ?? basePort + offset);

// Tests sign up, sign in and send mail from one IP far more often than a person would.
const NO_LIMIT = '100000';
const authEnvironment = {
  SEED_DEMO: 'false', // tests create the users they need
  MAILER_AUTOCONFIRM: 'false', // sign-up is confirmed through the emailed link, as in production
  MAILER_MAX_FREQUENCY: '0', // "resend" answers at once
  RATE_LIMIT_EMAIL_SENT: NO_LIMIT,
  RATE_LIMIT_SMS_SENT: NO_LIMIT,
  RATE_LIMIT_VERIFY: NO_LIMIT,
  RATE_LIMIT_TOKEN_REFRESH: NO_LIMIT,
  RATE_LIMIT_SIGN_IN_SIGN_UPS: NO_LIMIT,
  RATE_LIMIT_ANONYMOUS_USERS: NO_LIMIT,
  RATE_LIMIT_OTP: NO_LIMIT,
  RATE_LIMIT_FAILED_SIGN_INS: NO_LIMIT,
  // Every admin signs in with a second factor: one challenge and verify each time.
  RATE_LIMIT_MFA_CHALLENGE_AND_VERIFY: NO_LIMIT,
  // Quick stop: the harness may wait for in-flight requests before it removes the data folders.
  SHUTDOWN_TIMEOUT_MS: '1000',
};

const servers = [
  {
    name: 'main',
    port: portFrom('E2E_PORT', 0),
    apiPort: portFrom('E2E_MAIL_PORT', 1),
    environment: {},
  },
  {
    name: 'short',
    port: portFrom('E2E_SHORT_PORT', 2),
    apiPort: portFrom('E2E_SHORT_MAIL_PORT', 3),
    environment: { JWT_EXP: '100' },
  },
].map((server) => ({
  ...server,
  url: `http://${HOST}:${server.port}`,
  dataDir: mkdtempSync(path.join(tmpdir(), `cervana-e2e-${server.name}-`)),
  /** @type {{ to: string, from: string, subject: string, text: string, html: string, date: string }[]} */
  messages: [],
  /** @type {import('node:child_process').ChildProcess | undefined} */
  child: undefined,
  healthy: false,
}));
const byName = new Map(servers.map((server) => [server.name, server]));

const say = (message) => process.stderr.write(`e2e-server: ${message}\n`);

// ── SMTP sink ───────────────────────────────────────────────────────────────────────────────
// One listener per app server, so each message is known to come from that server.
function startSink(server) {
  const sink = new SMTPServer({
    // Plain SMTP: nodemailer would otherwise upgrade to TLS with a certificate it cannot trust.
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then((parsed) => {
        const date = new Date().toISOString(); // arrival, ms precision, for `after` filters
        // One entry per envelope recipient: tests look mail up by address.
        for (const recipient of session.envelope.rcptTo) {
          server.messages.push({
            to: recipient.address.toLowerCase(),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            attachments: parsed.attachments.map((attachment) => ({
              filename: attachment.filename ?? '',
              contentType: attachment.contentType,
              content: attachment.content.toString('utf8'),
            })),
            date,
          });
        }
        callback();
      }, callback);
    },
  });
  return new Promise((resolve, reject) => {
    sink.once('error', reject);
    sink.listen(0, HOST, () => {
      sink.off('error', reject);
      sink.on('error', (error) => say(`SMTP sink (${server.name}): ${error.message}`));
      resolve({ sink, port: sink.server.address().port });
    });
  });
}

// ── Test API ────────────────────────────────────────────────────────────────────────────────
function send(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

async function answer(defaultServer, request, response) {
  const url = new URL(request.url ?? '/', `http://${HOST}`);
  if (request.method !== 'GET') return send(response, 405, { error: 'GET only' });
  const server = byName.get(url.searchParams.get('server') ?? defaultServer.name);
  if (!server) return send(response, 400, { error: 'server must be main or short' });
  switch (url.pathname) {
    case '/ready': {
      const ready = servers.every((each) => each.healthy);
      return send(response, ready ? 200 : 503, { ready });
    }
    case '/messages': {
      const to = url.searchParams.get('to')?.trim().toLowerCase();
      return send(
        response,
        200,
        to ? server.messages.filter((message) => message.to === to) : server.messages,
      );
    }
    case '/service-role-key': {
      try {
        // Format: server/keys/load-keys.ts (version 1: signingKey, anonKey, serviceRoleKey).
        const keys = JSON.parse(await readFile(path.join(server.dataDir, 'keys.json'), 'utf8'));
        return send(response, 200, {
          serviceRoleKey: keys.serviceRoleKey,
          anonKey: keys.anonKey,
          url: server.url,
        });
      } catch (error) {
        return send(response, 503, { error: `no keys yet: ${error.message}` });
      }
    }
    default:
      return send(response, 404, { error: 'not found' });
  }
}

function startApi(server) {
  const api = createServer((request, response) => {
    answer(server, request, response).catch((error) => send(response, 500, { error: `${error}` }));
  });
  return new Promise((resolve, reject) => {
    api.once('error', (error) =>
      reject(new Error(`test API (${server.name}) on ${HOST}:${server.apiPort}: ${error.message}`)),
    );
    api.listen(server.apiPort, HOST, () => resolve(api));
  });
}

// ── App servers ─────────────────────────────────────────────────────────────────────────────
let stopping = false;

function spawnApp(server, entry, smtpPort) {
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: {
      ...process.env,
      ...authEnvironment,
      ...server.environment,
      PORT: String(server.port),
      HOST,
      SITE_URL: server.url,
      // WebAuthn refuses an IP address as relying party: passkeys and security keys are tested
      // on http://localhost:<port>, the same server under the name browsers accept.
      WEBAUTHN_RP_ID: 'localhost',
      WEBAUTHN_RP_ORIGINS: `http://localhost:${server.port}`,
      URI_ALLOW_LIST: `http://localhost:${server.port}`,
      DATA_DIR: server.dataDir,
      SMTP_URL: `smtp://${HOST}:${smtpPort}`,
      LOG_FORMAT: 'json',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    },
    stdio: 'inherit',
  });
  server.child = child;
  child.on('exit', (code, signal) => {
    server.child = undefined;
    if (!stopping) {
      say(`the ${server.name} server stopped (${signal ?? `exit code ${code}`}); stopping`);
      void stop(1, false);
    }
  });
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(condition, what, timeoutMs = 170_000) {
  const deadline = Date.now() + timeoutMs;
  while (!stopping) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}

async function answersHealth(server) {
  try {
    const response = await fetch(`${server.url}/health`);
    return response.ok;
  } catch {
    return false;
  }
}

/** Waits for a child to exit; false when it is still running after `ms`. */
function exited(server, ms) {
  const child = server.child;
  if (!child) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

const closers = [];

async function stop(code, signalled) {
  if (stopping) return;
  stopping = true;
  for (const close of closers) close();
  // Ctrl-C and Playwright signal the whole process group, so the servers usually stop on
  // their own; a second signal would make them exit at once, skipping their clean shutdown.
  if (signalled) await Promise.all(servers.map((server) => exited(server, 1500)));
  await Promise.all(
    servers.map(async (server) => {
      server.child?.kill('SIGTERM');
      if (!(await exited(server, 10_000))) server.child?.kill('SIGKILL');
      await exited(server, 2000);
    }),
  );
  for (const server of servers) rmSync(server.dataDir, { recursive: true, force: true });
  process.exit(code);
}

process.on('SIGTERM', () => void stop(0, true));
process.on('SIGINT', () => void stop(0, true));

async function start() {
  const sinks = await Promise.all(servers.map(startSink));
  for (const { sink } of sinks) closers.push(() => sink.close());
  const apis = await Promise.all(servers.map(startApi));
  for (const api of apis) {
    closers.push(() => {
      api.close();
      api.closeAllConnections();
    });
  }
  const [main, short] = servers;
  // scripts/start.mjs rebuilds the site and server when the sources are newer than the build.
  // Only the main server goes through it; the short one starts from the same build once main
  // has got past that step (its data folder fills), so two builds never run at once.
  spawnApp(main, path.join(root, 'scripts', 'start.mjs'), sinks[0].port);
  await waitUntil(() => readdirSync(main.dataDir).length > 0, 'the main server to start');
  if (stopping) return;
  const entry = path.join(root, 'dist', 'server', 'main.mjs');
  if (!existsSync(entry)) throw new Error(`${entry} is missing after the build`);
  spawnApp(short, entry, sinks[1].port);
  await Promise.all(
    servers.map((server) =>
      waitUntil(async () => (server.healthy = await answersHealth(server)), `${server.url}/health`),
    ),
  );
}

start().catch(async (error) => {
  say(error instanceof Error ? error.message : String(error));
  await stop(1, false);
});
