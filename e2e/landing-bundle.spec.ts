import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';

/**
 * The signed-in areas' code never enters the landing page's bundle (issue 20):
 * every script `/` loads, with every section opened, is read as served and
 * searched for strings only the signed-in code holds, taken from the sources:
 * the data API names its reads call (`.rpc('…')`, `.from('…')`) and the labels
 * and titles its components and pages write, less any that public code uses
 * too. A static import of a dashboard, admin or partner-portal module from the
 * landing page brings its strings along, wherever the bundler puts them.
 */

const src = path.resolve(import.meta.dirname, '..', 'src');

/** The signed-in areas' modules: their routes, their frame, and the features only they use. */
const signedInFeatures = [
  'calls',
  'admin',
  'agent',
  'knowledge',
  'phone-numbers',
  'team',
  'account',
];
const portalOnlyPartnerFiles = [
  'api/commissions.ts',
  'api/deal-registrations.ts',
  'api/partner-account.ts',
  'api/partner-assets.ts',
  'api/partner-referrals.ts',
  'api/partner-summary.ts',
  'components/portal-home.tsx',
  'components/referral-list.tsx',
  'components/commissions-and-payouts.tsx',
  'components/commission-ledger.tsx',
];
const signedInRoute = /^(dashboard|admin|partner-portal|account-settings)/;

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const file = path.join(directory, name);
    if (statSync(file).isDirectory()) return filesUnder(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

function isSignedIn(file: string): boolean {
  const relative = path.relative(src, file).split(path.sep).join('/');
  const [top, second, third] = relative.split('/');
  if (top === 'app' && second === 'routes') return signedInRoute.test(third ?? '');
  if (relative === 'app/portal-layout.tsx') return true;
  if (top !== 'features') return false;
  if (signedInFeatures.includes(second ?? '')) return true;
  return (
    second === 'partners' && portalOnlyPartnerFiles.includes(relative.split('/').slice(2).join('/'))
  );
}

const MARKER_PATTERNS = [
  /\.(?:rpc|from)\(\s*'([a-z][a-z0-9]*_[a-z0-9_]+)'/g,
  /aria-label="([^"{}]{12,})"/g,
  /\btitle="([^"{}]{12,})"/g,
];

function strings(source: string): string[] {
  return MARKER_PATTERNS.flatMap((pattern) =>
    [...source.matchAll(pattern)].map((match) => match[1]!),
  );
}

/** Comments may name anything; only code counts. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

function signedInMarkers(): string[] {
  const files = filesUnder(src);
  const publicSource = files
    // The generated database types name every table and function, but only as types.
    .filter((file) => !isSignedIn(file) && !file.endsWith('.types.ts'))
    .map((file) => withoutComments(readFileSync(file, 'utf8')))
    .join('\n');
  const markers = new Set(
    files.filter(isSignedIn).flatMap((file) => strings(readFileSync(file, 'utf8'))),
  );
  // A string public code also writes is no sign of signed-in code.
  return [...markers].filter((marker) => !publicSource.includes(marker));
}

test('no script the landing page loads holds signed-in code', async ({ page }) => {
  const markers = signedInMarkers();
  // The rule must have something to find: the dashboard's and the admin area's reads at least.
  expect(markers).toEqual(
    expect.arrayContaining(['call_kpis', 'filtered_calls', 'admin_commissions', 'partner_summary']),
  );

  const scripts = new Map<string, Promise<string>>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      scripts.set(new URL(response.url()).pathname, response.text());
  });
  await page.goto('/');
  // Every section's code: each loads as it comes near the viewport.
  for (let step = 0; step < 40; step += 1) {
    await page.mouse.wheel(0, 800);
    await page.waitForTimeout(50);
  }
  await page.waitForLoadState('networkidle');
  await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
  await page.waitForLoadState('networkidle');

  expect(scripts.size).toBeGreaterThan(5);
  const found: string[] = [];
  for (const [file, text] of scripts) {
    const body = await text;
    for (const marker of markers) {
      if (body.includes(marker)) found.push(`${file}: ${marker}`);
    }
  }
  expect(found, 'signed-in code in the landing page').toEqual([]);
});
