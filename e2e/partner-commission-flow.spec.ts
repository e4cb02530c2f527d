import { mkdirSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { signIn } from './auth-pages';
import { adminClient, createUser, uniqueEmail } from './auth-support';
import { axeViolations } from './axe';
import { allowManySubmissions, fillBookingForm, pickFirstSlot } from './forms-support';
import { collectErrors } from './support';

/**
 * The whole commission flow of issue 18, as the people in it live it, at a
 * desktop and a phone size: a partner copies their co-branded demo link; a
 * visitor opens it, sees "Recommended by <partner>" and books a demo; the
 * partner sees the booking among their referrals; after the demo an admin adds
 * the booking's lead, marks it won with its deal value and approves the
 * commission; the partner sees it approved; the admin pays it through a
 * payout; the partner downloads the month's statement, which lists it as paid
 * with the payout's reference. Nothing is set up behind the pages' backs but
 * the two accounts.
 */

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const SHOTS = 'test-results/partner-commission-flow';
mkdirSync(SHOTS, { recursive: true });

test.beforeAll(allowManySubmissions);

async function newPage(browser: Browser, size: (typeof sizes)[number]): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    bypassCSP: true,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  return context.newPage();
}

async function noToasts(page: Page) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
}

function thisMonth(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

for (const size of sizes) {
  test(`a referred demo becomes a paid commission the partner's statement lists (${size.name})`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const run = `${size.name} ${Date.now().toString(36)}`;
    const partnerCompany = `Brightpath Advisors ${run}`;
    const prospect = `Lumen Health ${run}`;
    const partnerUser = await createUser({
      email: uniqueEmail(`flow-partner-${size.name}`),
      role: 'partner',
      fullName: 'Parker Quinn',
      company: partnerCompany,
    });
    const adminUser = await createUser({
      email: uniqueEmail(`flow-admin-${size.name}`),
      role: 'admin',
      fullName: 'Ada Admin',
    });

    // 1. The partner copies their co-branded demo link.
    const partner = await newPage(browser, size);
    const partnerErrors = collectErrors(partner);
    await signIn(partner, partnerUser, '/auth?next=%2Fpartner-portal');
    await expect(partner).toHaveURL('/partner-portal');
    const demoLink = partner.getByRole('group', { name: 'Your co-branded demo link' });
    await demoLink.getByRole('button', { name: 'Copy' }).click();
    await expect(demoLink.getByRole('button', { name: 'Copied' })).toBeVisible();
    const copied = await partner.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/\/demo\?ref=[A-Z0-9]{4,24}$/);
    await partner.screenshot({ path: `${SHOTS}/1-partner-home-${size.name}.png`, fullPage: true });

    // 2. A visitor opens it, sees who recommended Cervana, and books a demo.
    const visitor = await newPage(browser, size);
    const visitorErrors = collectErrors(visitor);
    await visitor.goto(copied);
    await expect(visitor.getByText(`Recommended by ${partnerCompany}`)).toBeVisible();
    await pickFirstSlot(visitor);
    await fillBookingForm(visitor, {
      fullName: 'Mira Santos',
      email: uniqueEmail('flow-visitor'),
      company: prospect,
      teamSize: '51-200',
    });
    await visitor.screenshot({ path: `${SHOTS}/2-visitor-demo-${size.name}.png` });
    await visitor.getByRole('button', { name: 'Book this demo' }).click();
    await expect(visitor.getByRole('heading', { name: 'You are booked' })).toBeVisible();
    expect(visitorErrors).toEqual([]);
    await visitor.context().close();

    // 3. The partner sees the booking among their referrals.
    await partner.goto('/partner-portal/referrals');
    const referrals = partner.getByRole('region', { name: 'Referrals' });
    const referral = (
      size.name === 'desktop' ? referrals.getByRole('row') : referrals.getByRole('listitem')
    ).filter({ hasText: prospect });
    await expect(referral).toBeVisible();
    await expect(referral.getByText('Demo upcoming')).toBeVisible();
    expect(await axeViolations(partner)).toEqual([]);
    await partner.screenshot({ path: `${SHOTS}/3-partner-referrals-${size.name}.png` });

    // 4. After the demo the admin adds the booking's lead and marks it won.
    const admin = await newPage(browser, size);
    const adminErrors = collectErrors(admin);
    await signIn(admin, adminUser, '/auth?next=%2Fadmin%2Fbookings');
    await expect(admin).toHaveURL('/admin/bookings');
    await admin.getByLabel('Search').fill(prospect);
    // The search applies after a pause in typing; open the result once it has.
    await expect(admin).toHaveURL(/[?&]q=/);
    await admin.getByRole('link', { name: prospect }).click();
    await expect(admin.getByRole('heading', { level: 1, name: prospect })).toBeVisible();
    await expect(admin.getByText(`${partnerCompany} (`)).toBeVisible();
    await admin.getByLabel('Monthly calls').selectOption('2000-10000');
    await admin.getByRole('button', { name: 'Add as a lead' }).click();
    await expect(admin).toHaveURL(/\/admin\/leads\/[0-9a-f-]{36}$/);
    await expect(admin.getByRole('heading', { level: 1, name: prospect })).toBeVisible();
    await admin.getByLabel('Status').selectOption('won');
    await admin.getByLabel(/Deal value/).fill('24,000');
    await admin.getByRole('button', { name: 'Save changes' }).click();
    // 15 % of the first-year value, pending the team's review.
    const leadCommission = admin.getByRole('region', { name: 'Partner commission' });
    await expect(leadCommission).toContainText('$3,600.00');
    await expect(leadCommission).toContainText('Waiting for approval');
    await admin.screenshot({ path: `${SHOTS}/4-admin-lead-won-${size.name}.png`, fullPage: true });

    // 5. The admin approves the commission.
    await noToasts(admin);
    await admin.goto('/admin/commissions');
    const commission = admin
      .getByRole('list', { name: 'Commissions, newest first' })
      .getByRole('listitem')
      .filter({ has: admin.getByRole('heading', { level: 2, name: prospect }) });
    await expect(commission).toContainText('$3,600.00');
    await expect(commission).toContainText(partnerCompany);
    await commission.getByRole('button', { name: /^Approve/ }).click();
    await admin
      .getByRole('dialog', { name: `Approve $3,600.00 for ${partnerCompany}?` })
      .getByRole('button', { name: 'Approve and email' })
      .click();
    await expect(commission).toHaveCount(0);

    // 6. The partner sees it approved.
    await partner.goto('/partner-portal/commissions');
    const totals = partner.getByRole('region', { name: 'Totals in USD' });
    await expect(totals).toContainText('Approved, to be paid$3,600.00');
    const ledger = partner
      .getByRole(size.name === 'desktop' ? 'table' : 'list', {
        name: 'Your commissions, newest deal first',
      })
      .first();
    await expect(ledger).toContainText(prospect);
    await expect(ledger).toContainText('Approved');
    await partner.screenshot({ path: `${SHOTS}/6-partner-approved-${size.name}.png` });

    // 7. The admin pays it through a payout.
    await noToasts(admin);
    await admin.goto('/admin/commissions?tab=payouts');
    const owed = admin
      .getByRole('list', { name: 'Owed to partners' })
      .getByRole('listitem')
      .filter({ hasText: partnerCompany });
    await expect(owed).toContainText('$3,600.00');
    await owed.getByRole('button', { name: /^Create payout/ }).click();
    await admin
      .getByRole('dialog', { name: `Create a payout of $3,600.00 to ${partnerCompany}?` })
      .getByRole('button', { name: 'Create payout' })
      .click();
    const preparing = admin
      .getByRole('list', { name: 'Payouts being prepared' })
      .getByRole('listitem')
      .filter({ hasText: partnerCompany });
    await preparing.getByRole('button', { name: /^Mark paid/ }).click();
    const reference = `WIRE-${run}`.replace(/\W+/g, '-').toUpperCase();
    const paidDialog = admin.getByRole('dialog', {
      name: `Mark $3,600.00 to ${partnerCompany} paid`,
    });
    await paidDialog.getByLabel('Payment reference').fill(reference);
    await paidDialog.getByRole('button', { name: 'Mark paid and email' }).click();
    await expect(paidDialog).toBeHidden();
    await expect(preparing).toHaveCount(0);
    await noToasts(admin);
    expect(await axeViolations(admin)).toEqual([]);
    await admin.screenshot({ path: `${SHOTS}/7-admin-paid-${size.name}.png`, fullPage: true });
    expect(adminErrors).toEqual([]);

    // 8. The partner sees it paid and downloads the month's statement, which lists it.
    await partner.reload();
    await expect(totals).toContainText('Paid to you$3,600.00');
    await expect(partner.getByRole('region', { name: 'Payouts' })).toContainText(reference);
    const month = thisMonth();
    await expect(partner.getByLabel('Statement month', { exact: true })).toHaveValue(month);
    const downloading = partner.waitForEvent('download');
    await partner.getByRole('button', { name: 'Download statement (CSV)' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe(`Cervana partner statement ${month}.csv`);
    let statement = '';
    for await (const chunk of await file.createReadStream()) statement += String(chunk);
    const lines = statement.split('\r\n');
    expect(lines).toContain(`Partner,${partnerCompany}`);
    expect(lines).toContainEqual(
      expect.stringContaining(`${prospect},24000.00,15%,3600.00,USD,Paid,,${reference},`),
    );
    expect(lines).toContainEqual(expect.stringContaining(`,${reference},3600.00,USD,1`));
    expect(await axeViolations(partner)).toEqual([]);
    await partner.screenshot({ path: `${SHOTS}/8-partner-paid-${size.name}.png`, fullPage: true });
    expect(partnerErrors).toEqual([]);

    // The partner was emailed at each decision.
    const service = await adminClient();
    const { data: mails } = await service
      .from('outbox_messages')
      .select('template')
      .eq('recipient', partnerUser.email);
    expect((mails as { template: string }[]).map((mail) => mail.template)).toEqual(
      expect.arrayContaining(['partner_commission_approved', 'partner_payout_paid']),
    );
  });
}
