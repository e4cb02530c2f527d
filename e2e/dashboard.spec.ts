import { createHmac, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectDashboard, signIn, storedSession } from './auth-pages';
import {
  STRONG_PASSWORD,
  appUrl,
  codeIn,
  createUser,
  serverKeys,
  uniqueEmail,
  waitForMail,
} from './auth-support';
import { axeViolations } from './axe';
import { collectErrors, followPortalLink } from './support';

/**
 * The customer dashboard (issue 15), end to end against the built app and a
 * real server, at a desktop and a phone size: a new account's sample calls
 * and key figures, search and filters (the figures agree with the table), the
 * CSV export of the whole filtered set, a call's recording and its transcript
 * following playback, a call posted by the test with a signed request showing
 * up on an open page without a reload, and clearing the sample data.
 */

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const CALL_LINK = /\/dashboard\/calls\/([0-9a-f-]{36})(?:\?|$)/;
/** The calls page shows this many rows (src/features/calls/model/call-list.ts, PAGE_SIZE). */
const PAGE_SIZE = 25;

interface CallsArgs {
  p_workspace_id: string;
  p_from: string;
  p_to: string;
  p_filters: Record<string, unknown>;
}

// ── Reading the page ────────────────────────────────────────────────────────────────────────

const numberIn = (text: string): number => {
  const match = /\d[\d,]*/.exec(text);
  if (!match) throw new Error(`No number in "${text}"`);
  return Number(match[0].replace(/,/g, ''));
};

/** "240 calls in the last 30 days (matching the filters)" above the table. */
function callsCountLine(page: Page): Locator {
  return page
    .getByRole('main')
    .locator('p[aria-live="polite"]')
    .filter({ hasText: /\d calls? in / });
}

/** A figure of the KPI strip above the table ("Calls", "Answered", …). */
function stripFigure(page: Page, label: string): Locator {
  return page
    .locator('dl[aria-label="Key figures of these calls"] > div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');
}

/** A KPI card of the overview ("Calls answered", …): its value. */
function kpiCard(page: Page, label: string): Locator {
  return page
    .getByRole('region', { name: /^Key figures for / })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: label, exact: true }) })
    .locator('p')
    .first();
}

function callsRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Calls', exact: true });
}

/** The links to the calls listed (the table on wide screens, the cards on phones). */
function callLinks(page: Page): Locator {
  return callsRegion(page).locator('a[href*="/dashboard/calls/"]').filter({ visible: true });
}

async function listedIds(page: Page): Promise<string[]> {
  const hrefs = await callLinks(page).evaluateAll((links) =>
    links.map((link) => link.getAttribute('href') ?? ''),
  );
  return hrefs.map((href) => {
    const id = CALL_LINK.exec(href)?.[1];
    if (!id) throw new Error(`Not a call link: ${href}`);
    return id;
  });
}

/** Waits until nothing on the page is loading or being replaced. */
async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('main').locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(
    page
      .getByRole('main')
      .getByRole('status')
      .filter({ hasText: /Loading/ }),
  ).toHaveCount(0);
}

/**
 * The calls page as the visitor sees it once settled: the count line, the
 * strip's "Calls", and the rows listed. The three must agree.
 */
async function readCallsPage(page: Page) {
  // The calls page is on screen (not the page navigated from) with its rows or its empty state.
  await expect(callsCountLine(page)).toBeVisible();
  await expect(callLinks(page).first().or(callsRegion(page).getByRole('heading'))).toBeVisible();
  await settled(page);
  const countLine = (await callsCountLine(page).textContent()) ?? '';
  const stripCalls = numberIn((await stripFigure(page, 'Calls').textContent()) ?? '');
  const ids = await listedIds(page);
  return { count: numberIn(countLine), countLine, stripCalls, ids };
}

async function expectAgreement(page: Page): Promise<{ count: number; ids: string[] }> {
  const seen = await readCallsPage(page);
  expect(seen.stripCalls, seen.countLine).toBe(seen.count);
  if (seen.count <= PAGE_SIZE) {
    expect(seen.ids).toHaveLength(seen.count);
  } else {
    expect(seen.ids).toHaveLength(PAGE_SIZE);
    await expect(page.getByRole('navigation', { name: 'Pages of calls' })).toContainText(
      `${PAGE_SIZE} of ${seen.count.toLocaleString('en-US')} calls`,
    );
  }
  return seen;
}

/** Resolves with the next call_kpis request whose filters pass `matches`, and its answer. */
function nextKpis(page: Page, matches: (filters: Record<string, unknown>) => boolean) {
  return page
    .waitForResponse((response) => {
      const request = response.request();
      if (!request.url().includes('/rest/v1/rpc/call_kpis')) return false;
      const args = request.postDataJSON() as CallsArgs;
      return matches(args.p_filters ?? {});
    })
    .then(async (response) => ({
      args: response.request().postDataJSON() as CallsArgs,
      kpis: (await response.json()) as { current: { calls: number } },
    }));
}

// ── The data API, as the signed-in user ─────────────────────────────────────────────────────

async function userFetch(page: Page, path: string, init: RequestInit = {}): Promise<Response> {
  const session = await storedSession(page);
  if (!session) throw new Error('No session stored in the page');
  const { anonKey } = await serverKeys();
  return fetch(`${appUrl()}${path}`, {
    ...init,
    headers: {
      apikey: anonKey,
      authorization: `Bearer ${session.accessToken}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
}

/** The ids filtered_calls returns for these arguments, newest first. */
async function filteredIds(page: Page, args: CallsArgs): Promise<string[]> {
  const response = await userFetch(
    page,
    '/rest/v1/rpc/filtered_calls?select=id&order=started_at.desc,id.desc',
    { method: 'POST', body: JSON.stringify(args) },
  );
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { id: string }[]).map((row) => row.id);
}

// ── CSV ─────────────────────────────────────────────────────────────────────────────────────

/** RFC 4180 (quoted fields, doubled quotes, line breaks inside quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Clicks "Export CSV" and returns the downloaded file's rows as objects. */
async function exportCsv(page: Page): Promise<Record<string, string>[]> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /^Export CSV/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(
    /^cervana-calls-\d{4}-\d{2}-\d{2}(-to-\d{4}-\d{2}-\d{2})?\.csv$/,
  );
  const path = await file.path();
  const [header, ...rows] = parseCsv(await readFile(path, 'utf8'));
  expect(header).toContain('id');
  return rows
    .filter((cells) => cells.length > 1 || cells[0] !== '')
    .map((cells) => Object.fromEntries(header!.map((name, index) => [name, cells[index] ?? ''])));
}

// ── Steps ───────────────────────────────────────────────────────────────────────────────────

async function signUp(page: Page, label: string) {
  const account = {
    fullName: 'Ada Lovelace',
    company: `Analytical Engines ${label}`,
    email: uniqueEmail(`dashboard-${label}`),
    password: STRONG_PASSWORD,
  };
  const before = new Date();
  await page.goto('/auth?mode=sign-up');
  await page.getByLabel('Full name').fill(account.fullName);
  await page.getByLabel('Company').fill(account.company);
  await page.getByLabel('Work email or phone number').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  const mail = await waitForMail(account.email, {
    subject: /^Confirm your Cervana account$/,
    after: before,
  });
  await page.getByLabel('Confirmation code').fill(codeIn(mail));
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
  await expectDashboard(page, account);
  return account;
}

/** A confirmed account made through the admin API, signed in through the form. */
async function signedInCustomer(page: Page, label: string) {
  const user = await createUser({
    email: uniqueEmail(`dashboard-${label}`),
    fullName: 'Ada Lovelace',
    company: `Analytical Engines ${label}`,
  });
  await signIn(page, user);
  await expectDashboard(page);
  return user;
}

/** A value the connect panel shows whole, with a copy button (a term and its definition). */
async function copyFieldValue(page: Page, label: string): Promise<string> {
  const value = page.locator(`dt:text-is("${label}") + dd`).locator('span').first();
  await expect(value).toHaveText(/\S/);
  return ((await value.textContent()) ?? '').trim();
}

/** The filters beyond search and sort fold away on phones. */
async function openFilters(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: /^Filters/ });
  if (await toggle.isVisible()) await toggle.click();
}

/** Clicks a link of the portal's navigation (client-side, no reload). */
async function navigate(page: Page, name: string): Promise<void> {
  await followPortalLink(page, name);
}

function sign(secret: string, body: string, at = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${at}.${body}`).digest('hex');
  return `t=${at},v1=${mac}`;
}

// ── Tests ───────────────────────────────────────────────────────────────────────────────────

for (const size of sizes) {
  test.describe(`dashboard at ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    test.setTimeout(60_000);

    test('a new account sees sample calls and KPIs; filters narrow the table, the figures agree, the CSV holds exactly the filtered calls', async ({
      page,
    }) => {
      const errors = collectErrors(page);
      await signUp(page, `sign-up-${size.name}`);

      // The overview: the labelled sample data, the key figures and the chart.
      const banner = page.getByRole('region', { name: 'You’re looking at sample calls' });
      await expect(banner).toBeVisible();
      const sampleCount = numberIn((await banner.locator('p').first().textContent()) ?? '');
      expect(sampleCount).toBeGreaterThanOrEqual(200);
      await expect(kpiCard(page, 'Calls answered')).toHaveText(/^\d[\d,]*$/);
      const answered = numberIn((await kpiCard(page, 'Calls answered').textContent()) ?? '');
      expect(answered).toBeGreaterThan(0);
      await expect(kpiCard(page, 'Resolution rate')).toHaveText(/\d+(\.\d+)?%/);
      await expect(kpiCard(page, 'Estimated savings')).toHaveText(/^\$[\d,]+$/);
      const chart = page.getByRole('figure', { name: 'Calls per day' });
      await expect(chart.locator('svg rect[class*="fill-"]').first()).toBeAttached();

      // The calls page, same period: the same answered calls as the overview's card.
      await navigate(page, 'Calls');
      await expect(page).toHaveURL(/\/dashboard\/calls$/);
      const all = await expectAgreement(page);
      expect(all.count).toBeGreaterThan(0);
      expect(all.count).toBeLessThanOrEqual(sampleCount);
      expect(numberIn((await stripFigure(page, 'Answered').textContent()) ?? '')).toBe(answered);

      // Full-text search (summaries and transcripts) narrows the table and its figures.
      const searched = nextKpis(page, (filters) => filters.q === 'renewal');
      await page.getByRole('searchbox', { name: 'Search calls' }).fill('renewal');
      await page.getByRole('searchbox', { name: 'Search calls' }).press('Enter');
      await expect(page).toHaveURL(/[?&]q=renewal/);
      const search = await searched;
      const afterSearch = await expectAgreement(page);
      expect(afterSearch.count).toBeGreaterThan(0);
      expect(afterSearch.count).toBeLessThan(all.count);
      expect(afterSearch.count).toBe(search.kpis.current.calls);
      await expect(callsCountLine(page)).toContainText('matching the filters');

      // The export holds the whole filtered set (more than a page), exactly.
      expect(afterSearch.count, 'the search must match more than one page').toBeGreaterThan(
        PAGE_SIZE,
      );
      const searchIds = await filteredIds(page, search.args);
      expect(searchIds).toHaveLength(afterSearch.count);
      const exported = await exportCsv(page);
      expect(exported.map((row) => row.id)).toEqual(searchIds);
      expect(exported.every((row) => row.is_sample === 't' || row.is_sample === 'true')).toBe(true);
      expect(searchIds.slice(0, PAGE_SIZE)).toEqual(afterSearch.ids);

      // A sentiment narrows further.
      await openFilters(page);
      const negative = nextKpis(
        page,
        (filters) => filters.q === 'renewal' && String(filters.sentiment) === 'negative',
      );
      // Clicked, not check(): the box follows the URL, which changes a moment after the click.
      await page.getByRole('checkbox', { name: 'Negative' }).click();
      await expect(page.getByRole('checkbox', { name: 'Negative' })).toBeChecked();
      await expect(page).toHaveURL(/[?&]sentiment=negative/);
      await negative;
      const afterSentiment = await expectAgreement(page);
      expect(afterSentiment.count).toBeGreaterThan(0);
      expect(afterSentiment.count).toBeLessThan(afterSearch.count);

      // And a caller's number (typed as shown) down to a handful of calls, all on the page.
      const shown = (await callLinks(page).first().textContent()) ?? '';
      const number = /\+1 \(\d{3}\) \d{3}-\d{4}/.exec(shown)?.[0];
      expect(number, shown).toBeTruthy();
      const e164 = `+${number!.replace(/\D/g, '')}`;
      const byNumber = nextKpis(page, (filters) => filters.number === e164);
      await page.getByRole('textbox', { name: 'Phone number' }).fill(number!);
      await page.getByRole('textbox', { name: 'Phone number' }).press('Enter');
      await expect(page).toHaveURL(
        new RegExp(`[?&]number=${encodeURIComponent(e164).replace(/[+]/g, '\\+')}`),
      );
      const numbered = await byNumber;
      const narrowed = await expectAgreement(page);
      expect(narrowed.count).toBeGreaterThan(0);
      expect(narrowed.count).toBeLessThanOrEqual(afterSentiment.count);
      expect(narrowed.count).toBeLessThanOrEqual(PAGE_SIZE);
      const narrowedIds = await filteredIds(page, numbered.args);
      expect(narrowed.ids).toEqual(narrowedIds);

      const narrowedCsv = await exportCsv(page);
      expect(narrowedCsv.map((row) => row.id)).toEqual(narrowed.ids);
      for (const row of narrowedCsv) {
        expect(row.sentiment).toBe('negative');
        expect([row.from_number, row.to_number]).toContain(e164);
      }

      // The filters live in the URL: a reload shows the same view.
      await page.reload();
      expect((await expectAgreement(page)).ids).toEqual(narrowed.ids);
      expect(errors).toEqual([]);
    });

    test('a call’s recording plays and its transcript follows, and a line clicked seeks there', async ({
      page,
    }) => {
      await signedInCustomer(page, `recording-${size.name}`);
      // A shared view: the calls about the seat invoice (one recorded scenario).
      await page.goto('/dashboard/calls?q=Northwind');
      await settled(page);
      await callLinks(page).first().click();
      await expect(page).toHaveURL(/\/dashboard\/calls\/[0-9a-f-]{36}\?q=Northwind$/);
      await expect(page.getByRole('heading', { level: 1, name: /^Call from / })).toBeVisible();

      const audio = page.locator('audio');
      const play = page.getByRole('button', { name: 'Play the recording' });
      await expect(play).toBeVisible();
      await expect(audio).toHaveAttribute('src', /.+/);
      const lines = page.getByRole('list', { name: 'Transcript lines' }).getByRole('button');
      expect(await lines.count()).toBeGreaterThan(6);

      const currentTime = () => audio.evaluate((element: HTMLAudioElement) => element.currentTime);
      await play.click();
      await expect(page.getByRole('button', { name: 'Pause the recording' })).toBeVisible();
      await expect.poll(currentTime, { timeout: 10_000 }).toBeGreaterThan(0.5);
      // The first line is being spoken (0.25 s to 6.5 s).
      await expect(lines.nth(0)).toHaveAttribute('aria-current', 'true');
      await expect(page.getByTestId('recording-time')).toHaveText(/^0:0\d$/);

      // A later line, clicked: playback jumps there and the highlight moves with it.
      const target = 5;
      const targetStart = await lines
        .nth(target)
        .evaluate((button) => button.textContent ?? '')
        .then((text) => {
          const clock = /(\d+):(\d{2})/.exec(text);
          return clock ? Number(clock[1]) * 60 + Number(clock[2]) : 0;
        });
      expect(targetStart).toBeGreaterThan(10);
      await lines.nth(target).click();
      await expect(lines.nth(target)).toHaveAttribute('aria-current', 'true');
      await expect(lines.nth(0)).not.toHaveAttribute('aria-current', 'true');
      await expect.poll(currentTime).toBeGreaterThanOrEqual(targetStart);
      // Playing on, the highlight follows the recording to the next line by itself.
      await expect(lines.nth(target + 1)).toHaveAttribute('aria-current', 'true', {
        timeout: 15_000,
      });
      await expect(lines.nth(target)).not.toHaveAttribute('aria-current', 'true');
      expect(await currentTime()).toBeGreaterThan(targetStart);

      // The way back keeps the list's filters.
      await page.getByRole('link', { name: 'Back to calls' }).click();
      await expect(page).toHaveURL(/\/dashboard\/calls\?q=Northwind$/);
    });

    test('a signed call posted to call-events appears on the open calls page without a reload, and clearing the samples leaves only it', async ({
      page,
    }) => {
      await signedInCustomer(page, `live-${size.name}`);

      // Connect: the workspace id, and a secret shown once.
      await navigate(page, size.name === 'phone' ? 'Connect' : 'Connect phone system');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Connect your phone system' }),
      ).toBeVisible();
      const workspaceId = await copyFieldValue(page, 'Workspace id');
      expect(workspaceId).toMatch(UUID);
      await page.getByRole('button', { name: 'Create secret' }).click();
      const secret = await copyFieldValue(page, 'Your new signing secret');
      expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
      // The curl example is filled in with this workspace and the secret on screen.
      const curl = page.getByLabel('curl example', { exact: true });
      await expect(curl).toContainText(workspaceId);
      await expect(curl).toContainText(secret);

      // The calls page, open and live.
      await navigate(page, 'Calls');
      await expect(page.getByRole('status').filter({ hasText: /^Live/ })).toBeVisible();
      const before = await expectAgreement(page);
      await page.evaluate(() => {
        (window as unknown as { e2eNoReload: boolean }).e2eNoReload = true;
      });

      const callId = `e2e-${randomBytes(6).toString('hex')}`;
      const body = JSON.stringify({
        call_id: callId,
        direction: 'inbound',
        from: '+14155550199',
        to: '+18005550100',
        started_at: new Date(Date.now() - 60_000).toISOString(),
        duration_seconds: 95,
        outcome: 'resolved',
        sentiment: 'positive',
        summary: 'E2E caller asked to move a renewal meeting; the assistant rebooked it.',
        transcript: [
          { speaker: 'agent', start_ms: 0, end_ms: 2000, text: 'Thanks for calling.' },
          { speaker: 'caller', start_ms: 2100, end_ms: 5000, text: 'Please move my meeting.' },
        ],
        extracted: { topic: 'Scheduling' },
      });
      const response = await fetch(`${appUrl()}/functions/v1/call-events`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-cervana-workspace': workspaceId,
          'x-cervana-signature': sign(secret, body),
        },
        body,
      });
      const answer = (await response.json()) as { id: string; status: string };
      expect(response.status, JSON.stringify(answer)).toBe(201);
      expect(answer.status).toBe('created');
      expect(answer.id).toMatch(UUID);

      // It shows up on its own, first (newest), and the figures count it.
      await expect(callLinks(page).first()).toHaveAttribute('href', new RegExp(answer.id), {
        timeout: 10_000,
      });
      await expect(page.getByText('New call just in')).toBeVisible();
      await expect.poll(async () => (await readCallsPage(page)).stripCalls).toBe(before.count + 1);
      expect((await expectAgreement(page)).count).toBe(before.count + 1);
      expect(
        await page.evaluate(
          () => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload === true,
        ),
      ).toBe(true);

      // The owner clears the sample data: only the ingested call is left.
      await navigate(page, 'Overview');
      const banner = page.getByRole('region', { name: 'You’re looking at sample calls' });
      await banner.getByRole('button', { name: 'Clear sample data' }).click();
      await page
        .getByRole('dialog', { name: 'Clear the sample calls?' })
        .getByRole('button', { name: 'Clear sample data' })
        .click();
      await expect(banner).toBeHidden();
      await expect(kpiCard(page, 'Calls answered')).toHaveText('1');
      await navigate(page, 'Calls');
      const after = await expectAgreement(page);
      expect(after.count).toBe(1);
      expect(after.ids).toEqual([answer.id]);
      const stored = await userFetch(page, '/rest/v1/calls?select=id,is_sample,provider_call_id');
      expect(await stored.json()).toEqual([
        { id: answer.id, is_sample: false, provider_call_id: callId },
      ]);
    });
  });
}

// ── Accessibility ───────────────────────────────────────────────────────────────────────────

for (const size of sizes) {
  test.describe(`dashboard accessibility at ${size.width}×${size.height}`, () => {
    // axe is injected as an inline script, which the site's CSP (rightly) forbids.
    test.use({ viewport: { width: size.width, height: size.height }, bypassCSP: true });
    test.setTimeout(60_000);

    test('axe finds no violations on the overview, the calls, a call and the connect panel', async ({
      page,
    }) => {
      await signedInCustomer(page, `axe-${size.name}`);
      const checked: Record<string, unknown> = {};

      // The overview, loaded (figures, charts, latest calls).
      await expect(kpiCard(page, 'Calls answered')).toHaveText(/^\d/);
      await expect(page.getByRole('figure', { name: 'Calls per day' })).toBeVisible();
      await settled(page);
      checked['/dashboard'] = await axeViolations(page);

      await navigate(page, 'Calls');
      await expect(callLinks(page).first()).toBeVisible();
      await settled(page);
      checked['/dashboard/calls'] = await axeViolations(page);

      await page.goto('/dashboard/calls?q=Northwind');
      await settled(page);
      await callLinks(page).first().click();
      await expect(page.getByRole('button', { name: 'Play the recording' })).toBeVisible();
      await expect(page.getByRole('list', { name: 'Transcript lines' })).toBeVisible();
      await settled(page);
      checked['/dashboard/calls/:id'] = await axeViolations(page);

      await page.goto('/dashboard/connect');
      expect(await copyFieldValue(page, 'Workspace id')).toMatch(UUID);
      await expect(page.getByRole('button', { name: 'Create secret' })).toBeVisible();
      checked['/dashboard/connect'] = await axeViolations(page);

      expect(checked, JSON.stringify(checked, null, 2)).toEqual({
        '/dashboard': [],
        '/dashboard/calls': [],
        '/dashboard/calls/:id': [],
        '/dashboard/connect': [],
      });
    });
  });
}
