import { defineConfig } from '@playwright/test';

/**
 * E2E in Debian's Chromium (never a downloaded browser) against the built app
 * and real servers on fresh data folders (scripts/e2e-server.mjs).
 */
const port = Number(process.env.E2E_PORT ?? 4173);
const ports = {
  E2E_PORT: port,
  E2E_MAIL_PORT: Number(process.env.E2E_MAIL_PORT ?? port + 1),
  E2E_SHORT_PORT: Number(process.env.E2E_SHORT_PORT ?? port + 2),
  E2E_SHORT_MAIL_PORT: Number(process.env.E2E_SHORT_MAIL_PORT ?? port + 3),
};

/**
 * The app servers the tests run against, each with its test API (emails it sent,
 * its keys): `main` with production auth settings minus the per-IP limits,
 * `short` the same with 100-second access tokens for session-refresh tests.
 * e2e/auth-support.ts reads this, so the ports are decided here only.
 */
export const e2eServers = {
  main: {
    url: `http://127.0.0.1:${ports.E2E_PORT}`,
    mailUrl: `http://127.0.0.1:${ports.E2E_MAIL_PORT}`,
  },
  short: {
    url: `http://127.0.0.1:${ports.E2E_SHORT_PORT}`,
    mailUrl: `http://127.0.0.1:${ports.E2E_SHORT_MAIL_PORT}`,
  },
} as const;

const baseURL = e2eServers.main.url;

export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: chromiumFlags,
    },
    trace: 'retain-on-failure',
  },
  // One browser project: each spec sets the viewports it needs (the spec names six).
  projects: [{ name: 'chromium', use: { viewport: { width: 1440, height: 900 } } }],
  // One entry starts both servers: Playwright starts webServer entries one after another (each
  // waits for its URL), which would add a whole server start-up (~6 s) to every run.
  webServer: {
    name: 'app servers',
    command: 'node scripts/e2e-server.mjs',
    // 200 once both servers answer /health.
    url: `${e2eServers.main.mailUrl}/ready`,
    reuseExistingServer: false,
    timeout: 180_000,
    // Without it Playwright SIGKILLs the harness, which then leaves its data folders behind.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: Object.fromEntries(Object.entries(ports).map(([name, value]) => [name, String(value)])),
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
