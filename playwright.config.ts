import { defineConfig } from '@playwright/test';

/**
 * E2E in Debian's Chromium (never a downloaded browser) against the built app
 * and a real server on a fresh data folder.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${port}`;

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
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    url: `${baseURL}/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    env: { PORT: String(port), HOST: '127.0.0.1', SITE_URL: baseURL },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
