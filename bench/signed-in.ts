// `npm run bench:signed-in`: each signed-in route's first view (issue 20) under
// Lighthouse's mobile throttling, with realistic volumes, on the built server
// (PGlite, then PostgreSQL: BENCH_ENGINES as in bench/support.ts). Prints
// numbers, asserts nothing; a route whose median is over 1.5 s is flagged.
//
// - Data: a customer whose workspace holds 10,000 calls (bench/dashboard-data.ts);
//   for the admin lists 8,000 leads, 5,000 demo bookings (half upcoming), 3,000
//   partner applications, 200 partners and about 4,000 commissions; a partner
//   (Silver) with 300 referred leads, 200 referred bookings, 300 commissions
//   and a year of visits. Inserted set-based in SQL with the server stopped,
//   as the superuser, with row triggers off (session_replication_role).
// - Sessions: each user signs in once through the official client in Node
//   (the admin past a TOTP second factor: aal2, as the admin area asks); the
//   stored session becomes the browser's storage state, and their home page
//   is shown once with it, as after a sign-in (so what the app remembers, the
//   customer's workspace, is there too).
// - Each load: Debian's Chromium through Playwright, 412×823 (Lighthouse's
//   mobile screen), CDP Network.emulateNetworkConditions and
//   Emulation.setCPUThrottlingRate with Lighthouse's mobileSlow4G (latency 150
//   ms, download 1.6 Mbit/s × 0.9, upload 750 kbit/s × 0.9, CPU 4×). Time from
//   navigation start to the frame after the route's data appeared (a
//   MutationObserver installed before the page's scripts; two animation
//   frames later it is painted). Cold: a new context per load (empty cache);
//   warm: one context per user, each route loaded once before. The routes
//   take turns, so drift hits them alike.
// - The limit, measured the same way in the same run: /privacy-policy
//   (prerendered, no data) until its heading shows.
//
// BENCH_RUNS (5) loads per route and cache; BENCH_ROUTES=/admin,/dashboard
// some routes; BENCH_LATENCY (150) ms per request (Lighthouse's DevTools
// throttling would use 562.5, its rtt × 3.75); BENCH_WATERFALL=1 prints
// each route's requests (start–end ms, bytes) from its first cold load.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { createClient, type WebSocketLikeConstructor } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { TOTP, Secret } from 'otpauth';
import { WebSocket } from 'ws';
import { chromiumFlags } from '../playwright.config';
import { literal, seedSql as callsSql } from './dashboard-data';
import {
  freePort,
  loadSchema,
  onEachEngine,
  startBenchServer,
  stopBenchServer,
  waitForHealth,
  shownObserver,
} from './support';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LATENCY_MS = Number(process.env.BENCH_LATENCY ?? 150);
const GOAL_MS = 1500;
const WATERFALL = process.env.BENCH_WATERFALL === '1';
// Lighthouse 12 mobileSlow4G (core/lib/lantern → trace_engine Simulation/Constants.js):
// throughputKbps 1.6 × 1024 and upload 750, each × DEVTOOLS_THROUGHPUT_ADJUSTMENT_FACTOR 0.9.
const DOWNLOAD_BYTES_PER_S = (1.6 * 1024 * 0.9 * 1024) / 8;
const UPLOAD_BYTES_PER_S = (750 * 0.9 * 1024) / 8;
const CPU_SLOWDOWN = 4;
const VIEWPORT = { width: 412, height: 823 };
const PASSWORD = 'a bench passphrase that is long enough';
const CALLS = 10_000;

type Who = 'customer' | 'admin' | 'partner';
const EMAILS: Record<Who, string> = {
  customer: 'bench-customer@example.com',
  admin: 'bench-admin@example.com',
  partner: 'bench-partner@example.com',
};

/** What "the route's data is shown" means, as a DOM condition (JavaScript source), and whose session. */
const ROUTES: Record<string, { who: Who | null; shown: string }> = {
  '/dashboard': {
    who: 'customer',
    shown: `document.querySelectorAll('section[aria-labelledby="key-figures-heading"] li').length === 5
      && document.querySelector('figure[aria-labelledby="calls-per-day-heading"] svg rect[class*="fill-mint"]') !== null`,
  },
  '/dashboard/calls': {
    who: 'customer',
    shown: `document.querySelector('section[aria-label="Calls"] a[href^="/dashboard/calls/"]') !== null`,
  },
  '/admin': {
    who: 'admin',
    shown: `document.querySelectorAll('section[aria-labelledby="admin-overview-heading"] li h3').length >= 4`,
  },
  '/admin/leads': {
    who: 'admin',
    shown: `document.querySelector('main a[href^="/admin/leads/"]') !== null`,
  },
  '/admin/bookings': {
    who: 'admin',
    shown: `document.querySelector('main a[href^="/admin/bookings/"]') !== null`,
  },
  '/admin/partners': {
    who: 'admin',
    shown: `document.querySelector('ul[aria-label="Partner applications, newest first"] li h2') !== null`,
  },
  '/admin/commissions': {
    who: 'admin',
    shown: `document.querySelector('ul[aria-label="Commissions, newest first"] li h2') !== null`,
  },
  '/partner-portal': {
    who: 'partner',
    shown: `document.querySelector('section[aria-labelledby="activity-heading"]') !== null
      && document.querySelector('section[aria-labelledby="commissions-heading"]') !== null`,
  },
  '/partner-portal/referrals': {
    who: 'partner',
    shown: `document.querySelector('ul[aria-label="Your referrals, newest first"] li') !== null`,
  },
  '/partner-portal/commissions': {
    who: 'partner',
    shown: `document.querySelector('[aria-label$=", newest deal first"] li') !== null`,
  },
  '/privacy-policy': { who: null, shown: `document.querySelector('main h1') !== null` },
};
const LIMIT = '/privacy-policy';
const chosen = process.env.BENCH_ROUTES?.split(',');
const routes = Object.keys(ROUTES).filter(
  (route) => route === LIMIT || !chosen || chosen.includes(route),
);

// ---------------------------------------------------------------------------
// Server and data

async function signUp(base: string, anonKey: string, who: Who): Promise<string> {
  const response = await fetch(`${base}/auth/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: anonKey },
    body: JSON.stringify({
      email: EMAILS[who],
      password: PASSWORD,
      data: { full_name: `Bench ${who}`, company: `Bench ${who} Inc.` },
    }),
  });
  if (!response.ok) throw new Error(`sign-up ${who}: ${response.status} ${await response.text()}`);
  const { access_token: token } = (await response.json()) as { access_token: string };
  return token;
}

async function workspaceOf(base: string, anonKey: string, token: string): Promise<string> {
  const response = await fetch(`${base}/rest/v1/workspace_members?select=workspace_id`, {
    headers: { apikey: anonKey, authorization: `Bearer ${token}` },
  });
  const rows = (await response.json()) as { workspace_id: string }[];
  if (!rows[0]) throw new Error('the customer has no workspace');
  return rows[0].workspace_id;
}

/** The admin lists' and the partner's rows (the customer's calls come from dashboard-data). */
function listsSql(adminId: string, partnerId: string): string {
  const partner = `(select id from public.partners where user_id = ${literal(partnerId)}::uuid)`;
  return `
set session_replication_role = replica;
update auth.users set raw_app_meta_data = raw_app_meta_data || '{"role":"admin"}' where id = ${literal(adminId)};
update auth.users set raw_app_meta_data = raw_app_meta_data || '{"role":"partner"}' where id = ${literal(partnerId)};
insert into public.partners (user_id, company, referral_code, tier, commission_rate, created_at)
values (${literal(partnerId)}, 'Bench Partners LLC', 'BENCHPARTNER', 'silver', 0.200, now() - interval '400 days');
insert into public.partners (company, referral_code, tier, commission_rate, created_at)
select 'Partner ' || n, 'BENCHP' || n, (array['registered','silver','gold'])[1 + n % 3], 0.150,
  now() - n * interval '1 day'
from generate_series(1, 200) n;
insert into public.referral_clicks (partner_id, day, clicks)
select ${partner}, current_date - n, 5 + n % 17 from generate_series(0, 364) n;
-- Leads: one every 40 minutes back from now; the first 300 referred by the bench partner,
-- every other one after that by one of the 200 others.
insert into public.leads (full_name, email, company, team_size, monthly_call_volume, consent_at,
  status, message, partner_id, deal_value_cents, created_at, updated_at)
select 'Lead ' || n, 'lead' || n || '@example.com', 'Company ' || n,
  (array['1-5','6-20','21-50','51-200','200+'])[1 + n % 5],
  (array['under-500','500-2000','2000-10000','10000+'])[1 + n % 4],
  now() - n * interval '40 minutes',
  (array['new','contacted','qualified','won','lost'])[1 + n % 5],
  'We answer about ' || n % 900 || ' calls a month.',
  case when n <= 300 then ${partner}
       when n % 2 = 0 then (select id from public.partners where referral_code = 'BENCHP' || (1 + n % 200)) end,
  case when n % 5 = 3 then 1200000 + n * 100 end,
  now() - n * interval '40 minutes', now() - n * interval '40 minutes'
from generate_series(1, 8000) n;
-- A commission per referred lead (the trigger that writes them is off here).
insert into public.commissions (partner_id, lead_id, company, deal_value_cents, currency, tier, rate,
  amount_cents, status, won_at, period, approved_at, declined_at, decline_reason, created_at, updated_at)
select l.partner_id, l.id, l.company, 1200000 + x.n * 100, 'USD', 'silver', 0.200,
  (1200000 + x.n * 100) / 5,
  (array['pending','approved','declined'])[1 + x.n % 3], l.created_at,
  date_trunc('month', l.created_at at time zone 'UTC')::date,
  case when x.n % 3 = 1 then l.created_at end,
  case when x.n % 3 = 2 then l.created_at end,
  case when x.n % 3 = 2 then 'The customer cancelled within the trial.' end,
  l.created_at, l.created_at
from public.leads l
cross join lateral (select substring(l.full_name from 6)::int as n) x
where l.partner_id is not null;
-- Demo bookings: one an hour, half upcoming; every 25th referred by the bench partner.
insert into public.demo_bookings (starts_at, ends_at, full_name, email, company, team_size,
  time_zone, manage_token_hash, partner_id, created_at, updated_at)
select date_trunc('hour', now()) + (n - 2500) * interval '1 hour',
  date_trunc('hour', now()) + (n - 2500) * interval '1 hour' + interval '30 minutes',
  'Booker ' || n, 'booker' || n || '@example.com', 'Booked Company ' || n, '6-20', 'UTC',
  sha256(convert_to('bench-' || n, 'UTF8')), case when n % 25 = 0 then ${partner} end,
  least(now(), date_trunc('hour', now()) + (n - 2600) * interval '1 hour'),
  least(now(), date_trunc('hour', now()) + (n - 2600) * interval '1 hour')
from generate_series(1, 5000) n;
insert into public.partner_applications (full_name, email, company, website, partner_type,
  expected_referrals, message, status, decision_reason, created_at, updated_at)
select 'Applicant ' || n, 'applicant' || n || '@example.com', 'Agency ' || n, 'https://agency' || n || '.example',
  (array['consultancy','agency','reseller','technology','other'])[1 + n % 5], n % 50,
  'We advise about ' || n % 90 || ' support teams a year.',
  (array['pending','approved','rejected'])[1 + n % 3],
  case when n % 3 = 2 then 'Not a fit for the program yet.' end,
  now() - n * interval '2 hours', now() - n * interval '2 hours'
from generate_series(1, 3000) n;
set session_replication_role = origin;
analyze;
`;
}

// ---------------------------------------------------------------------------
// Sessions: one sign-in each, kept as the browser's storage state

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

async function sessionState(
  base: string,
  config: { url: string; anonKey: string },
  who: Who,
): Promise<StorageState> {
  const stored = new Map<string, string>();
  const client = createClient(config.url, config.anonKey, {
    realtime: { transport: WebSocket as unknown as WebSocketLikeConstructor },
    auth: {
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storage: {
        getItem: (key) => stored.get(key) ?? null,
        setItem: (key, value) => void stored.set(key, value),
        removeItem: (key) => void stored.delete(key),
      },
    },
  });
  const signedIn = await client.auth.signInWithPassword({ email: EMAILS[who], password: PASSWORD });
  if (signedIn.error) throw new Error(`sign-in ${who}: ${signedIn.error.message}`);
  if (who === 'admin') {
    // Every admin has an authenticator app; the admin area's data needs an aal2 session.
    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
    if (enrolled.error) throw new Error(`enrol: ${enrolled.error.message}`);
    const code = new TOTP({
      secret: Secret.fromBase32(enrolled.data.totp.secret),
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    }).generate();
    const verified = await client.auth.mfa.challengeAndVerify({
      factorId: enrolled.data.id,
      code,
    });
    if (verified.error) throw new Error(`verify: ${verified.error.message}`);
    const { data } = await client.auth.getSession();
    if (decodeJwt(data.session!.access_token).aal !== 'aal2') throw new Error('admin not aal2');
  }
  return {
    cookies: [],
    origins: [
      { origin: base, localStorage: [...stored].map(([name, value]) => ({ name, value })) },
    ],
  };
}

// ---------------------------------------------------------------------------
// Loads

/** Installed before the page's own scripts: notes when the condition first holds, then when that frame is painted. */
const OBSERVER = shownObserver(
  Object.fromEntries(Object.entries(ROUTES).map(([pathname, { shown }]) => [pathname, shown])),
);

/** The storage after the user's home page has shown once, as after signing in (what it remembers, say the workspace). */
async function afterHome(
  browser: Browser,
  base: string,
  state: StorageState,
  home: string,
): Promise<StorageState> {
  const context = await browser.newContext({ viewport: VIEWPORT, storageState: state });
  try {
    await context.addInitScript(OBSERVER);
    const page = await context.newPage();
    await page.goto(`${base}${home}`);
    await page.waitForFunction(
      () => (window as unknown as { __shown: unknown }).__shown,
      undefined,
      {
        timeout: 60_000,
      },
    );
    return await context.storageState();
  } finally {
    await context.close();
  }
}

interface Load {
  painted: number;
  requests: { name: string; start: number; end: number; bytes: number }[];
}

async function timeShown(context: BrowserContext, url: string): Promise<Load> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: LATENCY_MS,
      downloadThroughput: DOWNLOAD_BYTES_PER_S,
      uploadThroughput: UPLOAD_BYTES_PER_S,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(url, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(
      () => (window as unknown as { __shown: { painted: number } | null }).__shown,
      undefined,
      { timeout: 60_000, polling: 100 },
    );
    const { painted } = (await handle.jsonValue()) as { painted: number };
    const requests = WATERFALL
      ? await page.evaluate(() =>
          (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
            (entry) => ({
              name: entry.name.replace(location.origin, ''),
              start: entry.startTime,
              end: entry.responseEnd,
              bytes: entry.transferSize,
            }),
          ),
        )
      : [];
    if (new URL(page.url()).pathname !== new URL(url).pathname)
      throw new Error(`${url} went to ${page.url()}`);
    return { painted, requests };
  } finally {
    await page.close();
  }
}

interface Results {
  cold: Map<string, number[]>;
  warm: Map<string, number[]>;
  waterfalls: Map<string, Load['requests']>;
}

async function measure(
  browser: Browser,
  base: string,
  states: Record<Who, StorageState>,
): Promise<Results> {
  const results: Results = { cold: new Map(), warm: new Map(), waterfalls: new Map() };
  const newContext = async (route: string) => {
    const who = ROUTES[route]!.who;
    const context = await browser.newContext({
      viewport: VIEWPORT,
      isMobile: true,
      hasTouch: true,
      ...(who ? { storageState: states[who] } : {}),
    });
    await context.addInitScript(OBSERVER);
    return context;
  };
  for (let run = 0; run < RUNS; run += 1) {
    for (const route of routes) {
      const context = await newContext(route);
      try {
        const load = await timeShown(context, `${base}${route}`);
        if (run === 0) results.waterfalls.set(route, load.requests);
        results.cold.set(route, [...(results.cold.get(route) ?? []), load.painted]);
      } finally {
        await context.close();
      }
    }
  }
  // Warm: one context per route (its user's session), the route loaded once before the runs.
  const contexts = new Map<string, BrowserContext>();
  try {
    for (const route of routes) {
      const context = await newContext(route);
      contexts.set(route, context);
      await timeShown(context, `${base}${route}`);
    }
    for (let run = 0; run < RUNS; run += 1) {
      for (const route of routes) {
        const load = await timeShown(contexts.get(route)!, `${base}${route}`);
        results.warm.set(route, [...(results.warm.get(route) ?? []), load.painted]);
      }
    }
  } finally {
    for (const context of contexts.values()) await context.close();
  }
  return results;
}

// ---------------------------------------------------------------------------
// Output

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const spread = (values: number[]) =>
  `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;

function row(cells: string[], widths: number[]) {
  console.log(
    `  ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 10)).join(' ')}`.trimEnd(),
  );
}

function print(results: Results) {
  const widths = [30, 20, 24, 7, 8];
  console.log(
    `\n  Time until the route's data is shown, ms from navigation start, median (min–max) of ${RUNS};` +
      ` ${VIEWPORT.width}×${VIEWPORT.height}, latency ${LATENCY_MS} ms, ↓${((DOWNLOAD_BYTES_PER_S * 8) / 1024).toFixed(0)} kbit/s,` +
      ` ↑${((UPLOAD_BYTES_PER_S * 8) / 1024).toFixed(0)} kbit/s, CPU ${CPU_SLOWDOWN}×`,
  );
  for (const cache of ['cold', 'warm'] as const) {
    console.log(`\n  ${cache} cache`);
    row(['route', 'shown', `limit: ${LIMIT}`, 'ratio', `≤ ${GOAL_MS}`], widths);
    const limit = results[cache].get(LIMIT)!;
    for (const route of routes) {
      if (route === LIMIT) continue;
      const times = results[cache].get(route)!;
      row(
        [
          route,
          spread(times),
          spread(limit),
          `${(median(times) / median(limit)).toFixed(1)}×`,
          median(times) <= GOAL_MS ? 'met' : 'OVER',
        ],
        widths,
      );
    }
  }
  if (!WATERFALL) return;
  for (const [route, requests] of results.waterfalls) {
    console.log(`\n  ${route}: requests of the first cold load (start–end ms, bytes)`);
    for (const request of requests.sort((a, b) => a.start - b.start)) {
      console.log(
        `    ${request.start.toFixed(0).padStart(5)}–${request.end.toFixed(0).padEnd(5)} ${String(request.bytes).padStart(7)}  ${request.name.slice(0, 110)}`,
      );
    }
  }
}

// ---------------------------------------------------------------------------
// Runs

console.log(
  `signed-in first view benchmark, node ${process.version}: ${CALLS.toLocaleString('en-US')} calls, 8,000 leads, 5,000 bookings, 3,000 applications, ~4,000 commissions`,
);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: chromiumFlags,
});
try {
  await onEachEngine(async (engine, databaseUrl) => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-bench-signed-in-'));
    let server = startBenchServer(port, dataDir, databaseUrl, {
      SITE_URL: `http://127.0.0.1:${port}`,
    });
    try {
      await waitForHealth(base, server);
      const config = (await (await fetch(`${base}/config.json`)).json()) as {
        url: string;
        anonKey: string;
      };
      const customerToken = await signUp(base, config.anonKey, 'customer');
      const workspaceId = await workspaceOf(base, config.anonKey, customerToken);
      const adminId = String(decodeJwt(await signUp(base, config.anonKey, 'admin')).sub);
      const partnerId = String(decodeJwt(await signUp(base, config.anonKey, 'partner')).sub);
      await stopBenchServer(server);
      const seeding = performance.now();
      await loadSchema(
        `${callsSql(workspaceId, CALLS)}\n${listsSql(adminId, partnerId)}`,
        dataDir,
        databaseUrl,
      );
      const seeded = ((performance.now() - seeding) / 1000).toFixed(1);
      server = startBenchServer(port, dataDir, databaseUrl, {
        SITE_URL: `http://127.0.0.1:${port}`,
      });
      await waitForHealth(base, server);
      const states = {
        customer: await afterHome(
          browser,
          base,
          await sessionState(base, config, 'customer'),
          '/dashboard',
        ),
        admin: await afterHome(browser, base, await sessionState(base, config, 'admin'), '/admin'),
        partner: await afterHome(
          browser,
          base,
          await sessionState(base, config, 'partner'),
          '/partner-portal',
        ),
      };
      const results = await measure(browser, base, states);
      await stopBenchServer(server);
      console.log(`\n${engine} (data inserted in ${seeded} s)`);
      print(results);
    } finally {
      await stopBenchServer(server);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
} finally {
  await browser.close();
}
