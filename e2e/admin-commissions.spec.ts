import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './auth-pages';
import { adminClient, createUser, signedInClient, uniqueEmail } from './auth-support';
import { axeViolations } from './axe';
import { collectErrors, followPortalLink } from './support';

/**
 * Partner commissions in the admin area (issue 18) at a desktop and a phone
 * size: a partner's leads marked won (through the service role) give pending
 * commissions; an admin approves one and declines the other with a reason
 * (both emailed to the partner), pays the approved one through a payout with
 * a reference, accepts the partner's deal registration into a lead attributed
 * to them, uploads a partner asset, and finds the decision in the audit log.
 */

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const SHOTS = '/tmp/shots-admin-money';
mkdirSync(SHOTS, { recursive: true });

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Waits for the toasts to go: on a phone they sit over the page's lower buttons. */
async function waitForToasts(page: Page) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
}

async function outboxTemplates(recipient: string): Promise<string[]> {
  const admin = await adminClient();
  const { data } = await admin
    .from('outbox_messages')
    .select('template')
    .eq('recipient', recipient);
  return ((data ?? []) as { template: string }[]).map((row) => row.template);
}

/** A won lead of the partner's: the commission trigger writes its pending commission. */
async function wonLead(partnerId: string, company: string, dealValueCents: number) {
  const admin = await adminClient();
  const inserted = await admin
    .from('leads')
    .insert({
      full_name: 'Rosa Diaz',
      email: uniqueEmail('lead'),
      company,
      team_size: '21-50',
      monthly_call_volume: '500-2000',
      consent_at: new Date().toISOString(),
      source: 'admin',
      partner_id: partnerId,
    })
    .select('id')
    .single();
  expect(inserted.error).toBeNull();
  const leadId = (inserted.data as { id: string }).id;
  const won = await admin
    .from('leads')
    .update({ status: 'won', deal_value_cents: dealValueCents, currency: 'USD' })
    .eq('id', leadId);
  expect(won.error).toBeNull();
  const { data } = await admin.from('commissions').select('id').eq('lead_id', leadId).single();
  return { leadId, commissionId: (data as { id: string }).id };
}

for (const size of sizes) {
  test.describe(`admin commissions at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, bypassCSP: true });

    test('an admin approves, declines and pays commissions, accepts a registration and uploads an asset', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const errors = collectErrors(page);
      const run = `${size.name}-${Date.now().toString(36)}`;
      const partnerCompany = `Northwind Advisors ${run}`;
      const service = await adminClient();

      // A partner (a trigger makes their record) with two won leads.
      const partner = await createUser({
        email: uniqueEmail(`partner-${size.name}`),
        fullName: 'Pia Partner',
        role: 'partner',
      });
      const { data: partnerRow } = await service
        .from('partners')
        .select('id')
        .eq('user_id', partner.id)
        .single();
      const partnerId = (partnerRow as { id: string }).id;
      expect(
        (await service.from('partners').update({ company: partnerCompany }).eq('id', partnerId))
          .error,
      ).toBeNull();
      const approved = await wonLead(partnerId, `Acme Support ${run}`, 1_000_000);
      const declined = await wonLead(partnerId, `Globex Care ${run}`, 2_000_000);

      // Silver may register deals: the partner registers a prospect from their own client.
      expect(
        (await service.from('partners').update({ tier: 'silver' }).eq('id', partnerId)).error,
      ).toBeNull();
      const prospect = `Initech Helpdesk ${run}`;
      const partnerClient = await signedInClient(partner);
      const registered = await partnerClient.rpc('register_deal', {
        company: prospect,
        contact_name: 'Bill Lumbergh',
        contact_email: `bill@initech-${run}.example.com`,
        team_size: '51-200',
        monthly_call_volume: '2000-10000',
        notes: 'Met them at SupportConf; evaluating AI phone agents this quarter.',
      });
      expect(registered.error).toBeNull();

      const admin = await createUser({ fullName: 'Ada Admin', role: 'admin' });
      await signIn(page, admin, '/auth?next=%2Fadmin');
      await expect(page).toHaveURL('/admin');
      await expect(page.getByText(/\d+ partner commissions waiting for approval\./)).toBeVisible();
      await expect(page.getByRole('link', { name: 'Review commissions' })).toHaveAttribute(
        'href',
        '/admin/commissions',
      );
      await page.screenshot({ path: `${SHOTS}/overview-${size.name}.png` });
      await followPortalLink(page, 'Commissions');
      await expect(page).toHaveURL('/admin/commissions');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Commissions and payouts' }),
      ).toBeVisible();
      await expect(page.getByRole('tab', { name: /Commissions/ })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      await expect(page.getByRole('tab', { name: /waiting for approval/ })).toBeVisible();

      // Only this partner's, pending by default.
      await page.getByLabel('Partner').selectOption({ label: partnerCompany });
      await expect(page).toHaveURL(new RegExp(`partner=${partnerId}`));
      const list = page.getByRole('list', { name: 'Commissions, newest first' });
      const card = (company: string) =>
        list
          .getByRole('listitem')
          .filter({ has: page.getByRole('heading', { level: 2, name: company }) });
      const acme = card(`Acme Support ${run}`);
      const globex = card(`Globex Care ${run}`);
      await expect(acme).toContainText('$1,500.00');
      await expect(acme).toContainText('$10,000.00');
      await expect(acme).toContainText('Registered · 15%');
      await expect(globex).toContainText('$3,000.00');
      await expect(acme.getByRole('link', { name: /Open the lead/ })).toHaveAttribute(
        'href',
        `/admin/leads/${approved.leadId}`,
      );
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/commissions-${size.name}.png`, fullPage: true });

      // Approve one, behind a confirmation.
      await acme.getByRole('button', { name: /^Approve/ }).click();
      const approveDialog = page.getByRole('dialog', {
        name: `Approve $1,500.00 for ${partnerCompany}?`,
      });
      await approveDialog.getByRole('button', { name: 'Approve and email' }).click();
      await expect(approveDialog).toBeHidden();
      await expect(acme).toHaveCount(0);

      // Decline the other: a reason is required.
      await globex.getByRole('button', { name: /^Decline/ }).click();
      const declineDialog = page.getByRole('dialog', {
        name: `Decline $3,000.00 for ${partnerCompany}?`,
      });
      await declineDialog.getByRole('button', { name: 'Decline and email' }).click();
      await expect(declineDialog.getByText(/Please write the reason/)).toBeVisible();
      await declineDialog
        .getByLabel('Reason for the partner')
        .fill('Globex signed before your referral reached us.');
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/decline-${size.name}.png` });
      await declineDialog.getByRole('button', { name: 'Decline and email' }).click();
      await expect(declineDialog).toBeHidden();
      await expect(globex).toHaveCount(0);

      await page.getByLabel('Show').selectOption('declined');
      await expect(globex).toContainText(
        'Reason sent to the partner: Globex signed before your referral',
      );
      await expect
        .poll(() => outboxTemplates(partner.email))
        .toEqual(
          expect.arrayContaining(['partner_commission_approved', 'partner_commission_declined']),
        );

      // Pay it: a payout gathers the approved commission, then is marked paid.
      await waitForToasts(page);
      await page.getByRole('tab', { name: 'Payouts' }).click();
      await expect(page).toHaveURL(/tab=payouts/);
      const owed = page
        .getByRole('list', { name: 'Owed to partners' })
        .getByRole('listitem')
        .filter({ hasText: partnerCompany });
      await expect(owed).toContainText('$1,500.00');
      await expect(owed).toContainText('1 approved commission');
      await owed.getByRole('button', { name: /^Create payout/ }).click();
      await page
        .getByRole('dialog', { name: `Create a payout of $1,500.00 to ${partnerCompany}?` })
        .getByRole('button', { name: 'Create payout' })
        .click();
      await expect(owed).toHaveCount(0);
      const pending = page
        .getByRole('list', { name: 'Payouts being prepared' })
        .getByRole('listitem')
        .filter({ hasText: partnerCompany });
      await expect(pending).toContainText('$1,500.00');
      await pending.getByRole('button', { name: /^Mark paid/ }).click();
      const paidDialog = page.getByRole('dialog', {
        name: `Mark $1,500.00 to ${partnerCompany} paid`,
      });
      await paidDialog.getByRole('button', { name: 'Mark paid and email' }).click();
      await expect(paidDialog.getByText(/Please enter the payment’s reference/)).toBeVisible();
      const reference = `WIRE-${run}`.toUpperCase();
      await paidDialog.getByLabel('Payment reference').fill(reference);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/mark-paid-${size.name}.png` });
      await paidDialog.getByRole('button', { name: 'Mark paid and email' }).click();
      await expect(paidDialog).toBeHidden();
      await expect(pending).toHaveCount(0);
      // A table from a tablet up, cards on a phone.
      const paidRow = (
        size.name === 'phone'
          ? page.getByRole('list', { name: 'Paid payouts, newest first' }).getByRole('listitem')
          : page.getByRole('row')
      ).filter({ hasText: reference });
      await expect(paidRow).toContainText(partnerCompany);
      await expect(paidRow).toContainText('$1,500.00');
      await waitForToasts(page);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/payouts-${size.name}.png`, fullPage: true });
      const { data: paid } = await service
        .from('commissions')
        .select('status')
        .eq('id', approved.commissionId)
        .single();
      expect(paid).toEqual({ status: 'paid' });
      await expect
        .poll(() => outboxTemplates(partner.email))
        .toEqual(expect.arrayContaining(['partner_payout_paid']));

      // The lead page shows its commission.
      await page.goto(`/admin/leads/${approved.leadId}`);
      const leadCommission = page.getByRole('region', { name: 'Partner commission' });
      await expect(leadCommission).toContainText('$1,500.00');
      await expect(leadCommission).toContainText('Paid');
      // A paid commission holds its lead at won: the database's sentence shows as it is.
      await page.getByLabel('Status').selectOption('lost');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(
        page.getByText(/This lead's commission is already paid, so the lead stays won/),
      ).toBeVisible();
      await expect(page.getByText('Someone else changed this lead')).toHaveCount(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/lead-${size.name}.png`, fullPage: true });

      // Accept the deal registration: it becomes a lead attributed to the partner.
      await page.goto('/admin/partners?tab=registrations');
      const registration = page
        .getByRole('list', { name: 'Deal registrations, newest first' })
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { level: 2, name: prospect }) });
      await expect(registration).toContainText('Bill Lumbergh');
      await expect(registration).toContainText('51–200 people');
      await expect(registration).toContainText('Met them at SupportConf');
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/registrations-${size.name}.png`, fullPage: true });
      await registration.getByRole('button', { name: /^Accept/ }).click();
      await page
        .getByRole('dialog', { name: `Accept ${prospect}?` })
        .getByRole('button', { name: 'Accept and email' })
        .click();
      await expect(registration).toHaveCount(0);
      await page.getByLabel('Show').selectOption('accepted');
      const leadLink = registration.getByRole('link', { name: /open the lead/ });
      await expect(leadLink).toBeVisible();
      const { data: lead } = await service
        .from('leads')
        .select('id, partner_id, source')
        .eq('company', prospect)
        .single();
      expect(lead).toMatchObject({ partner_id: partnerId, source: 'partner_registration' });
      await expect(leadLink).toHaveAttribute('href', `/admin/leads/${(lead as { id: string }).id}`);
      // Its page says what marking it won does.
      await leadLink.click();
      await expect(page.getByRole('heading', { level: 1, name: prospect })).toBeVisible();
      await page.getByLabel('Status').selectOption('won');
      await expect(
        page.getByText(`Marking this lead won creates a pending commission for ${partnerCompany}`, {
          exact: false,
        }),
      ).toBeVisible();
      await page.goto('/admin/partners?tab=registrations');

      // Upload an asset into Logos.
      await waitForToasts(page);
      await page.getByRole('tab', { name: 'Assets' }).click();
      await expect(page).toHaveURL(/tab=assets/);
      const fileName = `logo-${run}.png`;
      await page.getByLabel('Folder').selectOption('logos');
      await page
        .getByLabel('File', { exact: true })
        .setInputFiles({ name: fileName, mimeType: 'image/png', buffer: PNG });
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      const logos = page.getByRole('list', { name: 'Logos files' });
      await expect(logos.getByRole('link', { name: fileName })).toBeVisible();
      // A type the bucket refuses is refused before uploading.
      await page
        .getByLabel('File', { exact: true })
        .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
      await expect(page.getByText(/notes.txt is not a type partners can use here/)).toBeVisible();
      await waitForToasts(page);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/assets-${size.name}.png`, fullPage: true });

      // The decision is in the audit log.
      await followPortalLink(page, 'Audit log');
      const form = page.getByRole('form', { name: 'Filter the audit log' });
      await form.getByLabel('Records').selectOption('commissions');
      await form.getByLabel('Record id').fill(declined.commissionId);
      await form.getByRole('button', { name: 'Search' }).click();
      const entries = page.getByRole('list', { name: 'Audit log entries' }).getByRole('listitem');
      await expect(
        entries.filter({ hasText: `${admin.email} · changed partner commissions` }),
      ).toHaveCount(1);
      // The one refusal the test asks for (a paid commission's lead moved out of won).
      expect(errors.filter((error) => !error.includes('status of 409 (Conflict)'))).toEqual([]);
      expect(errors.filter((error) => error.includes('409'))).toHaveLength(1);
    });
  });
}
