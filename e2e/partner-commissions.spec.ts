import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './auth-pages';
import { adminClient, createUser, uniqueEmail } from './auth-support';
import { axeViolations } from './axe';
import { collectErrors } from './support';

/**
 * The partner portal's money pages (issue 18) at a desktop and a phone size.
 * Commissions: a partner whose referred leads were won sees each state (a
 * decline with its reason, a payout with its reference), filters by state in
 * the URL and downloads the month's statement. Deal registration: a Silver
 * partner registers a prospect and sees it pending; the same company again, or
 * a company already a lead, is refused with the database's sentence; a
 * Registered partner is told why there is no form. Data is set up with the
 * service role, which writes the tables directly (the decision functions are
 * for admins, and refuse it).
 */

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const SHOTS = '/tmp/shots-portal-money';
mkdirSync(SHOTS, { recursive: true });

interface Partner {
  email: string;
  password: string;
  partnerId: string;
  referralCode: string;
  company: string;
}

async function createPartner(label: string, company: string): Promise<Partner> {
  const user = await createUser({
    email: uniqueEmail(label),
    role: 'partner',
    fullName: 'Pat Okafor',
    company,
  });
  const admin = await adminClient();
  const { data, error } = await admin
    .from('partners')
    .select('id, referral_code, company')
    .eq('user_id', user.id)
    .single();
  if (error) throw new Error(`reading the partner: ${error.message}`);
  const row = data as { id: string; referral_code: string; company: string };
  return {
    email: user.email,
    password: user.password,
    partnerId: row.id,
    referralCode: row.referral_code,
    company: row.company,
  };
}

/** A lead referred by the partner, then won at a value (the trigger writes its pending commission). */
async function wonLead(partnerId: string, company: string, dealValueCents: number) {
  const admin = await adminClient();
  const { data: lead, error } = await admin
    .from('leads')
    .insert({
      full_name: 'Sam Rivera',
      email: uniqueEmail('referred'),
      company,
      team_size: '21-50',
      monthly_call_volume: '2000-10000',
      consent_at: new Date().toISOString(),
      partner_id: partnerId,
    })
    .select('id')
    .single();
  if (error) throw new Error(`inserting a lead: ${error.message}`);
  const leadId = (lead as { id: string }).id;
  const won = await admin
    .from('leads')
    .update({ status: 'won', deal_value_cents: dealValueCents })
    .eq('id', leadId);
  if (won.error) throw new Error(`winning the lead: ${won.error.message}`);
  const { data: commission } = await admin
    .from('commissions')
    .select('id, amount_cents')
    .eq('lead_id', leadId)
    .single();
  return commission as { id: string; amount_cents: number };
}

async function update(table: string, id: string, changes: Record<string, unknown>) {
  const admin = await adminClient();
  const { error } = await admin.from(table).update(changes).eq('id', id);
  if (error) throw new Error(`updating ${table}: ${error.message}`);
}

/** The current UTC month, as a commission's period and the statement's name have it. */
const thisMonth = () => new Date().toISOString().slice(0, 7);

async function download(page: Page): Promise<{ name: string; text: string }> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download statement (CSV)' }).click();
  const file = await downloading;
  let text = '';
  for await (const chunk of await file.createReadStream()) text += String(chunk);
  return { name: file.suggestedFilename(), text };
}

for (const size of sizes) {
  test.describe(`partner money pages at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, bypassCSP: true });

    test('a partner follows each commission to its payout and downloads the statement', async ({
      page,
    }) => {
      const errors = collectErrors(page);
      const run = `${size.name} ${Date.now().toString(36)}`;
      const partner = await createPartner(`ledger-${size.name}`, `Brightpath Advisors ${run}`);

      // Four won deals: one stays pending, one approved, one declined, one paid.
      const pending = await wonLead(partner.partnerId, `Northwind ${run}`, 1_200_000);
      const approved = await wonLead(partner.partnerId, `Contoso ${run}`, 800_000);
      const declined = await wonLead(partner.partnerId, `=Formula Labs ${run}`, 500_000);
      const paid = await wonLead(partner.partnerId, `Fabrikam ${run}`, 2_000_000);
      expect(pending.amount_cents).toBe(180_000); // 15 %, the Registered tier's rate
      const now = new Date().toISOString();
      await update('commissions', approved.id, { status: 'approved', approved_at: now });
      await update('commissions', declined.id, {
        status: 'declined',
        declined_at: now,
        decline_reason: 'The customer cancelled within their first 30 days.',
      });
      const admin = await adminClient();
      const reference = `WIRE-${run.replace(/\W+/g, '-').toUpperCase()}`;
      const { data: payout, error } = await admin
        .from('payouts')
        .insert({
          partner_id: partner.partnerId,
          currency: 'USD',
          amount_cents: paid.amount_cents,
          commission_count: 1,
          status: 'paid',
          reference,
          paid_on: now.slice(0, 10),
          paid_at: now,
        })
        .select('id')
        .single();
      if (error) throw new Error(`inserting the payout: ${error.message}`);
      await update('commissions', paid.id, {
        status: 'paid',
        approved_at: now,
        payout_id: (payout as { id: string }).id,
        paid_at: now,
      });

      await signIn(page, partner, '/auth?next=%2Fpartner-portal%2Fcommissions');
      await expect(page).toHaveURL('/partner-portal/commissions');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Commissions and payouts' }),
      ).toBeVisible();

      // Totals per state: 15 % of each deal.
      const totals = page.getByRole('region', { name: 'Totals in USD' });
      await expect(totals).toContainText('Pending review$1,800.00');
      await expect(totals).toContainText('Approved, to be paid$1,200.00');
      await expect(totals).toContainText('Paid to you$3,000.00');
      await expect(totals).toContainText('Declined1 commission');

      // The ledger: the table on a desktop, cards on a phone; either shows each state.
      const ledger = page
        .getByRole(size.name === 'desktop' ? 'table' : 'list', {
          name: 'Your commissions, newest deal first',
        })
        .first();
      await expect(ledger).toContainText(`Northwind ${run}`);
      await expect(ledger).toContainText('Pending');
      await expect(ledger).toContainText('Approved');
      await expect(ledger).toContainText(
        'Reason: The customer cancelled within their first 30 days.',
      );
      await expect(ledger).toContainText(reference);
      await expect(ledger).toContainText('$20,000.00');

      // Payouts.
      const payouts = page.getByRole('region', { name: 'Payouts' });
      await expect(payouts).toContainText(/Paid on \w{3} \d{1,2}, \d{4}/);
      await expect(payouts).toContainText(reference);
      await expect(payouts).toContainText('$3,000.00');

      expect(await axeViolations(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${SHOTS}/commissions-${size.name}.png`, fullPage: true });

      // The state filter lives in the URL.
      await page.getByLabel('Show').selectOption('declined');
      await expect(page).toHaveURL(/\?state=declined$/);
      const declinedLedger = page
        .getByRole(size.name === 'desktop' ? 'table' : 'list', {
          name: 'Your declined commissions, newest deal first',
        })
        .first();
      await expect(declinedLedger).toContainText(`=Formula Labs ${run}`);
      await expect(declinedLedger).not.toContainText(`Northwind ${run}`);
      await page.reload();
      await expect(page.getByLabel('Show')).toHaveValue('declined');
      await expect(page.getByText('Not payable, with the reason.')).toBeVisible();

      // The month's statement.
      const month = thisMonth();
      await expect(page.getByLabel('Statement month', { exact: true })).toHaveValue(month);
      const statement = await download(page);
      expect(statement.name).toBe(`Cervana partner statement ${month}.csv`);
      const lines = statement.text.split('\r\n');
      expect(lines[0]).toBe('\uFEFFCervana partner statement');
      expect(lines[1]).toBe(`Partner,${partner.company}`);
      expect(lines[2]).toBe(`Referral code,${partner.referralCode}`);
      expect(lines).toContainEqual(
        expect.stringMatching(`Northwind ${run},12000.00,15%,1800.00,USD,Pending,,,$`),
      );
      expect(lines).toContainEqual(
        expect.stringMatching(`Contoso ${run},8000.00,15%,1200.00,USD,Approved,,,$`),
      );
      // A company that would start a formula is defused.
      expect(lines).toContainEqual(
        expect.stringContaining(
          `,'=Formula Labs ${run},5000.00,15%,750.00,USD,Declined,The customer cancelled within their first 30 days.,,`,
        ),
      );
      expect(lines).toContainEqual(
        expect.stringContaining(
          `Fabrikam ${run},20000.00,15%,3000.00,USD,Paid,,${reference},${now.slice(0, 10)}`,
        ),
      );
      expect(lines).toContain(`${now.slice(0, 10)},${reference},3000.00,USD,1`);
      expect(lines).toContain('USD,6000.00,1800.00,1200.00,3000.00,750.00,3000.00');
      expect(errors).toEqual([]);
    });

    test('a Silver partner registers a deal; conflicts are refused with the reason', async ({
      page,
    }) => {
      const errors = collectErrors(page);
      const run = `${size.name} ${Date.now().toString(36)}`;
      const slug = run.replace(/\W+/g, '-');
      const partner = await createPartner(`silver-${size.name}`, `Lumen Partners ${run}`);
      await update('partners', partner.partnerId, { tier: 'silver', commission_rate: 0.2 });
      // A prospect already in the pipeline, and a registration rejected earlier.
      await wonLead(partner.partnerId, `Globex ${run}`, 100_000);
      const admin = await adminClient();
      const rejected = await admin.from('deal_registrations').insert({
        partner_id: partner.partnerId,
        company: `Initech ${run}`,
        company_key: `initech${slug.replace(/-/g, '')}`,
        contact_name: 'Bill Lumbergh',
        contact_email: `bill@initech-${slug}.test`,
        team_size: '6-20',
        monthly_call_volume: 'under-500',
        status: 'rejected',
        decision_reason: 'They signed with us directly last month.',
        decided_at: new Date().toISOString(),
      });
      expect(rejected.error).toBeNull();

      await signIn(page, partner, '/auth?next=%2Fpartner-portal%2Fregistrations');
      await expect(page).toHaveURL('/partner-portal/registrations');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Deal registration' }),
      ).toBeVisible();
      const list = page.getByRole('region', { name: 'Your registrations' });
      await expect(list).toContainText('Reason: They signed with us directly last month.');

      // The browser checks first, and moves to the first mistake.
      await page.getByRole('button', { name: 'Register this deal' }).click();
      await expect(page.getByLabel('Prospect’s company')).toBeFocused();
      await expect(page.getByText('Please enter the prospect’s company.')).toBeVisible();
      await expect(page.getByText('Please choose the size of their team.')).toBeVisible();

      const fill = async (company: string, email: string) => {
        await page.getByLabel('Prospect’s company').fill(company);
        await page.getByLabel('Contact’s name').fill('Ada Byron');
        await page.getByLabel('Contact’s work email').fill(email);
        await page.getByLabel('Their team’s size').selectOption('21-50');
        await page.getByLabel('Their calls a month').selectOption('2000-10000');
        await page
          .getByLabel('Notes for our sales team (optional)')
          .fill('Demo booked for Tuesday.');
      };
      await fill(`Northwind ${run}`, `ada@northwind-${slug}.test`);
      await page.getByRole('button', { name: 'Register this deal' }).click();
      await expect(page.getByText(`Northwind ${run} is registered`)).toBeVisible();
      await expect(page.getByLabel('Prospect’s company')).toHaveValue('');
      await expect(list).toContainText(`Northwind ${run}`);
      await expect(list).toContainText('Pending review');

      // The same company again: the database's sentence, and the answers stay.
      await fill(`Northwind ${run}`, `grace@northwind-${slug}.test`);
      await page.getByRole('button', { name: 'Register this deal' }).click();
      await expect(page.getByRole('alert')).toContainText(
        new RegExp(
          `You registered Northwind ${run} on \\w+ \\d{1,2}, \\d{4}; that registration is pending\\.`,
        ),
      );
      await expect(page.getByLabel('Contact’s work email')).toHaveValue(
        `grace@northwind-${slug}.test`,
      );

      // A company already in the pipeline.
      await fill(`Globex ${run}`, `hank@globex-${slug}.test`);
      await page.getByRole('button', { name: 'Register this deal' }).click();
      await expect(page.getByRole('alert')).toContainText(
        "This prospect is already in Cervana's sales pipeline, so it cannot be registered.",
      );
      await expect(page.getByLabel('Prospect’s company')).toHaveValue(`Globex ${run}`);

      expect(await axeViolations(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${SHOTS}/registrations-${size.name}.png`, fullPage: true });
      // The two refusals are the only errors the browser logged.
      expect(errors).toEqual([
        'Failed to load resource: the server responded with a status of 409 (Conflict)',
        'Failed to load resource: the server responded with a status of 409 (Conflict)',
      ]);
    });

    test('a Registered partner is told why there is no form, and how far Silver is', async ({
      page,
    }) => {
      const errors = collectErrors(page);
      const run = `${size.name} ${Date.now().toString(36)}`;
      const partner = await createPartner(`registered-${size.name}`, `Starter Partners ${run}`);
      await wonLead(partner.partnerId, `Umbrella ${run}`, 300_000);
      await wonLead(partner.partnerId, `Hooli ${run}`, 300_000);

      await signIn(page, partner, '/auth?next=%2Fpartner-portal%2Fregistrations');
      await expect(page).toHaveURL('/partner-portal/registrations');
      await expect(page.getByText('Deal registration opens at the Silver tier')).toBeVisible();
      await expect(page.getByText(/You are a Registered partner\./)).toBeVisible();
      await expect(
        page.getByText(/You have won 2 deals in the last twelve months: 3 more to go/),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: 'Register this deal' })).toHaveCount(0);
      await expect(page.getByText('You have not registered a deal yet.')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${SHOTS}/registered-${size.name}.png`, fullPage: true });

      // With no commissions yet the ledger says how they arise.
      const fresh = await createPartner(`empty-${size.name}`, `Fresh Partners ${run}`);
      await page.context().clearCookies();
      await page.evaluate(() => window.localStorage.clear());
      await signIn(page, fresh, '/auth?next=%2Fpartner-portal%2Fcommissions');
      await expect(page.getByText('No commissions yet')).toBeVisible();
      await expect(page.getByText('No payouts yet.')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${SHOTS}/empty-${size.name}.png`, fullPage: true });
      expect(errors).toEqual([]);
    });
  });
}
