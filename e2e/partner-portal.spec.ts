import { mkdir, readFile } from 'node:fs/promises';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { signIn } from './auth-pages';
import { adminClient, createUser, uniqueEmail, type CreatedUser } from './auth-support';
import { axeViolations } from './axe';
import { allowManySubmissions, fillBookingForm, pickFirstSlot } from './forms-support';
import { collectErrors } from './support';

/**
 * The partner portal's home, referrals and assets, and the co-branded demo
 * link, at a laptop and a phone: a partner shares their link, a visitor books
 * a demo through it, and the partner sees the booking; an uploaded asset
 * downloads; a customer opening the portal is shown the way to apply.
 */

// Bookings compete for the same free slots: one size after the other.
test.describe.configure({ mode: 'serial' });
test.beforeAll(allowManySubmissions);

const SHOTS = '/tmp/shots-portal-home';
const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

interface PartnerRow {
  id: string;
  company: string;
  referral_code: string;
}

async function partnerRecord(userId: string): Promise<PartnerRow> {
  const admin = await adminClient();
  const { data, error } = await admin
    .from('partners')
    .select('id, company, referral_code')
    .eq('user_id', userId)
    .single();
  if (error) throw new Error(`reading the partner: ${error.message}`);
  return data;
}

async function uploadAsset(name: string): Promise<void> {
  const admin = await adminClient();
  const image = await readFile('public/og-image.png');
  const { error } = await admin.storage
    .from('partner-assets')
    .upload(`logos/${name}`, image, { contentType: 'image/png', upsert: true });
  if (error) throw new Error(`uploading ${name}: ${error.message}`);
}

async function newContext(browser: Browser, size: (typeof sizes)[number]) {
  return browser.newContext({
    viewport: { width: size.width, height: size.height },
    bypassCSP: true,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
}

async function expectAccessible(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** The page has no horizontal scroll (nothing overflows a phone's width). */
async function expectNoOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const size of sizes) {
  test.describe(`at ${size.name} (${size.width}×${size.height})`, () => {
    let partnerContext: BrowserContext;
    let partner: CreatedUser;
    let record: PartnerRow;
    const referred = `Referred Co ${size.name} ${Date.now().toString(36)}`;
    let headingTopWithBanner = 0;
    const asset = `partner-logo-${size.name}-${Date.now().toString(36)}.png`;

    test.beforeAll(async ({ browser }) => {
      await mkdir(SHOTS, { recursive: true });
      partner = await createUser({
        role: 'partner',
        fullName: 'Noor Haddad',
        company: `Haddad Success Partners ${size.name}`,
      });
      record = await partnerRecord(partner.id);
      partnerContext = await newContext(browser, size);
    });

    test.afterAll(async () => {
      await partnerContext.close();
    });

    test('the partner sees and copies their links', async () => {
      const page = await partnerContext.newPage();
      const errors = collectErrors(page);
      await signIn(page, partner, '/auth?next=%2Fpartner-portal');
      await expect(page).toHaveURL('/partner-portal');
      const origin = new URL(page.url()).origin;
      const link = `${origin}/?ref=${record.referral_code}`;
      const links = page.getByRole('group', { name: 'Your referral link' });
      await expect(links.getByText(link, { exact: true })).toBeVisible();
      await expect(
        page
          .getByRole('group', { name: 'Your co-branded demo link' })
          .getByText(`${origin}/demo?ref=${record.referral_code}`, { exact: true }),
      ).toBeVisible();
      await expect(
        page
          .getByRole('group', { name: 'Your referral code' })
          .getByText(record.referral_code, { exact: true }),
      ).toBeVisible();

      await links.getByRole('button', { name: 'Copy' }).click();
      await expect(links.getByRole('button', { name: 'Copied' })).toBeVisible();
      await expect(links.getByRole('status')).toHaveText('Copied the referral link.');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

      // A new partner: nothing yet, and the way to Silver.
      await expect(page.getByText('No commissions yet.', { exact: false })).toBeVisible();
      await expect(page.getByRole('progressbar', { name: /On the way to Silver/ })).toHaveAttribute(
        'aria-valuemax',
        '5',
      );
      await expect(
        page.getByText('5 more won deals to reach Silver.', { exact: false }),
      ).toBeVisible();
      await expectNoOverflow(page);
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/home-${size.name}.png`, fullPage: true });

      // No referrals yet: how they arrive, with the link at hand.
      await page.goto('/partner-portal/referrals');
      await expect(page.getByRole('heading', { name: 'No referrals yet' })).toBeVisible();
      await expect(
        page.getByRole('group', { name: 'Your referral link' }).getByText(link, { exact: true }),
      ).toBeVisible();
      await expectNoOverflow(page);
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/referrals-empty-${size.name}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await page.close();
    });

    test('a visitor books through the co-branded link and the partner sees it', async ({
      browser,
    }) => {
      const visitorContext = await newContext(browser, size);
      const visitor = await visitorContext.newPage();
      const visitorErrors = collectErrors(visitor);
      await visitor.goto(`/demo?ref=${record.referral_code}`);
      const banner = visitor.getByText(`Recommended by ${record.company}`);
      await expect(banner).toBeVisible();
      // The banner sits in the space above the heading: it covers nothing and moves nothing.
      const bannerBox = await banner.boundingBox();
      const eyebrowBox = await visitor
        .getByRole('main')
        .getByText('Book a demo', { exact: true })
        .boundingBox();
      expect(bannerBox!.y + bannerBox!.height).toBeLessThanOrEqual(eyebrowBox!.y);
      headingTopWithBanner = (await visitor.getByRole('heading', { level: 1 }).boundingBox())!.y;
      await expectNoOverflow(visitor);
      await visitor.screenshot({ path: `${SHOTS}/demo-ref-${size.name}.png` });
      await pickFirstSlot(visitor);
      await fillBookingForm(visitor, {
        fullName: 'Avery Chen',
        email: uniqueEmail('referred'),
        company: referred,
      });
      await visitor.getByRole('button', { name: 'Book this demo' }).click();
      await expect(visitor.getByRole('heading', { name: 'You are booked' })).toBeVisible();
      expect(visitorErrors).toEqual([]);
      await visitorContext.close();

      const page = await partnerContext.newPage();
      const errors = collectErrors(page);
      await page.goto('/partner-portal/referrals');
      const list = page.getByRole('region', { name: 'Referrals' });
      const row =
        size.width >= 1024
          ? list.getByRole('row', { name: new RegExp(referred) })
          : list.getByRole('listitem').filter({ hasText: referred });
      await expect(row).toBeVisible();
      await expect(row.getByText('Demo upcoming')).toBeVisible();
      await expect(row.getByText('Demo booking')).toBeVisible();
      await expectNoOverflow(page);
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/referrals-${size.name}.png`, fullPage: true });

      // The kind filter is asked of the database and kept in the URL.
      await page.getByRole('button', { name: 'Leads', exact: true }).click();
      await expect(page).toHaveURL('/partner-portal/referrals?kind=lead');
      await expect(page.getByText('No leads referred yet.')).toBeVisible();
      await page.getByRole('button', { name: 'Demo bookings', exact: true }).click();
      await expect(page).toHaveURL('/partner-portal/referrals?kind=booking');
      await expect(row).toBeVisible();
      await page.getByRole('button', { name: 'All', exact: true }).click();
      await expect(page).toHaveURL('/partner-portal/referrals');

      await page.goto('/partner-portal');
      await expect(
        page.locator('dt', { hasText: 'Demo bookings' }).locator('xpath=following-sibling::dd[1]'),
      ).toHaveText('1');
      // Another period keeps the URL and still counts it.
      await page.getByRole('button', { name: 'Last 12 months' }).click();
      await expect(page).toHaveURL('/partner-portal?period=365');
      await expect(page.getByText('over the last 12 months')).toBeVisible();
      await expect(
        page.locator('dt', { hasText: 'Demo bookings' }).locator('xpath=following-sibling::dd[1]'),
      ).toHaveText('1');
      expect(errors).toEqual([]);
      await page.close();
    });

    test('a referred lead that is won shows its commission', async () => {
      const admin = await adminClient();
      const won = `Won Co ${size.name} ${Date.now().toString(36)}`;
      const { error } = await admin.from('leads').insert({
        full_name: 'Jordan Blake',
        email: uniqueEmail('won'),
        company: won,
        team_size: '21-50',
        monthly_call_volume: '2000-10000',
        consent_at: new Date().toISOString(),
        source: 'admin',
        partner_id: record.id,
        status: 'won',
        deal_value_cents: 1_200_000,
        currency: 'USD',
      });
      if (error) throw new Error(`inserting a won lead: ${error.message}`);

      const page = await partnerContext.newPage();
      const errors = collectErrors(page);
      await page.goto('/partner-portal');
      // 15% of $12,000.00 at the Registered tier.
      const commissions = page.getByRole('region', { name: 'Commissions' });
      await expect(
        commissions.locator('dt', { hasText: 'Pending' }).locator('xpath=following-sibling::dd[1]'),
      ).toHaveText('$1,800.00');
      await expect(
        page.locator('dt', { hasText: 'Won deals' }).locator('xpath=following-sibling::dd[1]'),
      ).toHaveText('1');
      await expect(page.getByRole('progressbar', { name: /On the way to Silver/ })).toHaveAttribute(
        'aria-valuenow',
        '1',
      );
      await expect(
        page.getByText('4 more won deals to reach Silver.', { exact: false }),
      ).toBeVisible();
      await expectNoOverflow(page);
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/home-earning-${size.name}.png`, fullPage: true });

      await page.goto('/partner-portal/referrals');
      const list = page.getByRole('region', { name: 'Referrals' });
      const row =
        size.width >= 1024
          ? list.getByRole('row', { name: new RegExp(won) })
          : list.getByRole('listitem').filter({ hasText: won });
      await expect(row.getByText('Won', { exact: true })).toBeVisible();
      await expect(row.getByText('Commission pending')).toBeVisible();
      // Not a registration of theirs: the contact stays with Cervana.
      await expect(row.getByText('Jordan Blake')).toHaveCount(0);
      expect(errors).toEqual([]);
      await page.close();
    });

    test('an unknown code shows no banner and no error', async ({ browser }) => {
      const context = await newContext(browser, size);
      const page = await context.newPage();
      const errors = collectErrors(page);
      const answered = page.waitForResponse(/\/rest\/v1\/rpc\/referral_partner/);
      await page.goto('/demo?ref=NOSUCHCODE');
      await answered;
      await expect(
        page.getByRole('heading', { name: 'See Cervana answer a real customer call' }),
      ).toBeVisible();
      await expect(page.getByText(/Recommended by/)).toHaveCount(0);
      const headingTop = (await page.getByRole('heading', { level: 1 }).boundingBox())!.y;
      expect(headingTop).toBe(headingTopWithBanner);
      expect(errors).toEqual([]);
      await context.close();
    });

    test('an uploaded asset shows with a working download', async () => {
      await uploadAsset(asset);
      const page = await partnerContext.newPage();
      const errors = collectErrors(page);
      await page.goto('/partner-portal/assets');
      const card = page.getByRole('listitem').filter({ hasText: asset });
      await expect(card).toBeVisible();
      await expect(card.getByText(/Image · \d+(\.\d)? KB · logos/)).toBeVisible();
      const preview = card.locator('img');
      await expect(preview).toHaveJSProperty('complete', true);
      expect(
        await preview.evaluate((image: HTMLImageElement) => image.naturalWidth),
      ).toBeGreaterThan(0);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        card.getByRole('link', { name: `Download ${asset}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(asset);
      expect(await download.failure()).toBeNull();
      await expectNoOverflow(page);
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/assets-${size.name}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await page.close();
    });

    test('a customer opening the referrals page is shown the way to apply', async ({ browser }) => {
      const customer = await createUser({ fullName: 'Sam Ortiz', company: 'Ortiz Support' });
      const context = await newContext(browser, size);
      const page = await context.newPage();
      await signIn(page, customer);
      await expect(page).toHaveURL(/\/dashboard/);
      await page.goto('/partner-portal/referrals');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Join the Cervana partner program' }),
      ).toBeVisible();
      await expect(page.getByText('You have not applied yet.')).toBeVisible();
      await context.close();
    });

    test('an admin opening the portal is told it is the partners’ view', async ({ browser }) => {
      const admin = await createUser({ role: 'admin' });
      const context = await newContext(browser, size);
      const page = await context.newPage();
      const errors = collectErrors(page);
      await signIn(page, admin, '/auth?next=%2Fpartner-portal');
      await expect(page).toHaveURL('/partner-portal');
      await expect(page.getByText('This is the partners’ view')).toBeVisible();
      await expect(page.getByRole('alert')).toHaveCount(0);
      await page.goto('/partner-portal/referrals');
      await expect(page.getByText('This is the partners’ view')).toBeVisible();
      // The database's 403 for someone without a partner record is the answer the page
      // reads; the browser logs any 403 it receives, and nothing else may be logged.
      expect(errors.filter((error) => !/status of 403/.test(error))).toEqual([]);
      await context.close();
    });
  });
}
