// `npm run bench:lighthouse`: builds, serves the production server on a fresh
// data folder, runs Lighthouse (Debian's Chromium) three times on mobile and
// once on desktop for `/`, and prints the medians. A benchmark, not a test.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { freePort } from './support';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chromePath = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromeFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const mobileRuns = Number(process.env.LIGHTHOUSE_MOBILE_RUNS ?? 3);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

interface RunResult {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptBytes: number;
  scriptRequests: number;
}

interface NetworkItem {
  resourceType?: string;
  transferSize?: number;
}

function summarise(lhr: Result): RunResult {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const requests = (
    (lhr.audits['network-requests']?.details as { items?: NetworkItem[] })?.items ?? []
  ).filter((item) => item.resourceType === 'Script');
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    scriptBytes: requests.reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
    scriptRequests: requests.length,
  };
}

async function audit(url: string, formFactor: 'mobile' | 'desktop'): Promise<RunResult> {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags });
  try {
    const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error' };
    const result = await lighthouse(
      url,
      flags,
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error('Lighthouse returned no result');
    const runtimeError = result.lhr.runtimeError;
    if (runtimeError) throw new Error(`Lighthouse: ${runtimeError.code} ${runtimeError.message}`);
    return summarise(result.lhr);
  } finally {
    await chrome.kill();
  }
}

function printRow(label: string, runs: RunResult[]) {
  const pick = (key: keyof RunResult) => median(runs.map((run) => run[key]));
  console.log(
    [
      label.padEnd(22),
      `perf ${pick('performance')}`,
      `a11y ${pick('accessibility')}`,
      `best ${pick('bestPractices')}`,
      `seo ${pick('seo')}`,
      `LCP ${(pick('lcpMs') / 1000).toFixed(2)} s`,
      `TBT ${Math.round(pick('tbtMs'))} ms`,
      `CLS ${pick('cls').toFixed(3)}`,
      `JS ${(pick('scriptBytes') / 1024).toFixed(1)} KB in ${pick('scriptRequests')} files`,
    ].join('  '),
  );
}

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = await freePort();
const dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-lighthouse-'));
const url = `http://127.0.0.1:${port}/`;
const server = spawn(process.execPath, [path.join(root, 'dist', 'server', 'main.mjs')], {
  env: {
    PATH: process.env.PATH,
    PORT: String(port),
    HOST: '127.0.0.1',
    SITE_URL: url.slice(0, -1),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  },
  stdio: 'inherit',
});
try {
  for (;;) {
    const ok = await fetch(`${url}health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (server.exitCode !== null) throw new Error('the server exited during start-up');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const mobile: RunResult[] = [];
  for (let run = 0; run < mobileRuns; run += 1) {
    const result = await audit(url, 'mobile');
    mobile.push(result);
    printRow(`mobile run ${run + 1}`, [result]);
  }
  const desktop = [await audit(url, 'desktop')];
  console.log(`\nLighthouse 12.8.2 on ${url} (Chromium at ${chromePath}), medians:`);
  printRow(`mobile (n=${mobile.length})`, mobile);
  printRow('desktop (n=1)', desktop);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
}
