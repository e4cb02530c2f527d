// `npm run bench:lighthouse`: builds, serves the production server on a fresh
// data folder, and runs Lighthouse (Debian's Chromium) on `/` and, from the
// same server, on a plain-HTML page of the same hero (`plain-hero.ts`), in
// turns, on mobile and on desktop. Prints medians with their spread (min–max)
// and our page's ratio to the plain one. A benchmark, not a test.
//
//   --no-build              use the current build
//   LIGHTHOUSE_RUNS=5       runs per page and form factor (default 3)
//   LIGHTHOUSE_SITE_DIR=…   a built site other than dist/client (e.g. an older build)
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { plainHeroPage } from './plain-hero';
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
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? process.env.LIGHTHOUSE_MOBILE_RUNS ?? 3);
const builtSite = path.resolve(
  process.env.LIGHTHOUSE_SITE_DIR ?? path.join(root, 'dist', 'client'),
);
// The plain page is served as a page of the app (a call's page, `/dashboard/calls/:callId`),
// so it takes the same way through the server as `/`: filled in, compressed, no-cache, same headers.
const plainPath = '/dashboard/calls/plain-hero';

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
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptBytes: number;
  scriptRequests: number;
  documentBytes: number;
  stylesheetBytes: number;
  fontBytes: number;
}

interface NetworkItem {
  resourceType?: string;
  transferSize?: number;
}

function summarise(lhr: Result): RunResult {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const items = (lhr.audits['network-requests']?.details as { items?: NetworkItem[] })?.items ?? [];
  const ofType = (type: string) => items.filter((item) => item.resourceType === type);
  const bytes = (type: string) =>
    ofType(type).reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    scriptBytes: bytes('Script'),
    scriptRequests: ofType('Script').length,
    documentBytes: bytes('Document'),
    stylesheetBytes: bytes('Stylesheet'),
    fontBytes: bytes('Font'),
  };
}

async function audit(url: string, formFactor: 'mobile' | 'desktop'): Promise<RunResult> {
  // Lighthouse now and then loses the trace on this shared machine (NO_NAVSTART): try again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await auditOnce(url, formFactor);
    } catch (error) {
      if (attempt === 3) throw error;
      console.warn(`retrying ${url} (${formFactor}): ${(error as Error).message}`);
    }
  }
}

async function auditOnce(url: string, formFactor: 'mobile' | 'desktop'): Promise<RunResult> {
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

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** "median (min–max)" of one figure over runs. */
function spread(runsOf: RunResult[], key: keyof RunResult, format: (value: number) => string) {
  const values = runsOf.map((run) => run[key]);
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high
    ? format(median(values))
    : `${format(median(values))} (${format(low)}–${format(high)})`;
}

function printRow(label: string, results: RunResult[]) {
  const pick = (key: keyof RunResult) => median(results.map((run) => run[key]));
  console.log(
    [
      label.padEnd(16),
      `scores ${pick('performance')}/${pick('accessibility')}/${pick('bestPractices')}/${pick('seo')}`,
      `FCP ${spread(results, 'fcpMs', (ms) => String(Math.round(ms)))} ms`,
      `LCP ${spread(results, 'lcpMs', (ms) => String(Math.round(ms)))} ms`,
      `TBT ${spread(results, 'tbtMs', (ms) => String(Math.round(ms)))} ms`,
      `CLS ${spread(results, 'cls', (value) => value.toFixed(3))}`,
      `JS ${kb(pick('scriptBytes'))} in ${pick('scriptRequests')}`,
      `HTML ${kb(pick('documentBytes'))}`,
      `CSS ${kb(pick('stylesheetBytes'))}`,
      `font ${kb(pick('fontBytes'))}`,
    ].join('  '),
  );
}

function printRatios(ours: RunResult[], plain: RunResult[]) {
  const ratio = (key: keyof RunResult) => {
    const base = median(plain.map((run) => run[key]));
    return base > 0 ? `${(median(ours.map((run) => run[key])) / base).toFixed(2)}×` : 'n/a';
  };
  // Each run of ours beside the plain run taken just before it, so both saw the same load.
  const paired = ours.map((run, index) => run.lcpMs / plain[index]!.lcpMs);
  console.log(
    [
      'ours / plain'.padEnd(16),
      `FCP ${ratio('fcpMs')}`,
      `LCP ${ratio('lcpMs')} (run by run ${Math.min(...paired).toFixed(2)}–${Math.max(...paired).toFixed(2)}×)`,
    ].join('  '),
  );
}

if (!process.argv.includes('--no-build') && !process.env.LIGHTHOUSE_SITE_DIR) {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = await freePort();
const dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-lighthouse-'));
const siteDir = path.join(dataDir, 'site');
await cp(builtSite, siteDir, { recursive: true });
const landingHtml = await readFile(path.join(siteDir, 'index.html'), 'utf8');
await mkdir(path.join(siteDir, plainPath), { recursive: true });
await writeFile(path.join(siteDir, plainPath, 'index.html'), plainHeroPage(landingHtml));

const origin = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [path.join(root, 'dist', 'server', 'main.mjs')], {
  env: {
    PATH: process.env.PATH,
    PORT: String(port),
    HOST: '127.0.0.1',
    SITE_URL: origin,
    SITE_DIR: siteDir,
    DATA_DIR: path.join(dataDir, 'data'),
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  for (;;) {
    const ok = await fetch(`${origin}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (server.exitCode !== null) throw new Error('the server exited during start-up');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const results = {
    mobile: { ours: [] as RunResult[], plain: [] as RunResult[] },
    desktop: { ours: [] as RunResult[], plain: [] as RunResult[] },
  };
  for (let run = 1; run <= runs; run += 1) {
    for (const formFactor of ['mobile', 'desktop'] as const) {
      const plain = await audit(`${origin}${plainPath}`, formFactor);
      const ours = await audit(`${origin}/`, formFactor);
      results[formFactor].plain.push(plain);
      results[formFactor].ours.push(ours);
      printRow(`${formFactor} ${run} plain`, [plain]);
      printRow(`${formFactor} ${run} ours`, [ours]);
    }
  }
  console.log(
    `\nLighthouse 12.8.2 (Chromium at ${chromePath}), ${builtSite}: medians of ${runs} runs (min–max);` +
      ' scores are performance/accessibility/best practices/SEO; bytes as transferred (compressed, with headers)',
  );
  for (const formFactor of ['mobile', 'desktop'] as const) {
    console.log(`\n${formFactor}`);
    printRow('plain hero', results[formFactor].plain);
    printRow('ours /', results[formFactor].ours);
    printRatios(results[formFactor].ours, results[formFactor].plain);
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
}
