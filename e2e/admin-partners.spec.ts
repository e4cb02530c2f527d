import { expect, test, type Page } from '@playwright/test';
import { signIn } from './auth-pages';
import { adminClient, anonClient, createUser, uniqueEmail } from './auth-support';
import { axeViolations } from './axe';
import { allowManySubmissions } from './forms-support';
import { collectErrors, followPortalLink } from './support';

/**
 * Partner applications and partners in the admin area (issue 17) at a desktop
 * and a phone size: a visitor applies and confirms, an admin approves in
 * /admin/partners, the applicant signs in and lands in the partner portal with
 * their referral link, and the approval is in the audit log; another
 * application is rejected with a reason that is emailed through the outbox.
 */

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

test.beforeAll(allowManySubmissions);

/** Applies through the public function and follows the emailed confirmation link's token. */
async function applyAndConfirm(email: string, company: string): Promise<string> {
  const anon = await anonClient();
  const applied = await anon.rpc('submit_partner_application', {
    full_name: 'Noor Haddad',
    email,
    company,
    partner_type: 'consultancy',
    expected_referrals: 4,
    website: 'haddad.example.com',
    message: 'We run CS operations for 30 SaaS teams.',
  });
  expect(applied.error).toBeNull();
  const admin = await adminClient();
  const { data } = await admin
    .from('outbox_messages')
    .select('body_text')
    .eq('recipient', email)
    .eq('template', 'partner_application_confirm')
    .single();
  const token = /\/partner\?confirm=([0-9a-f]{64})/.exec(data?.body_text ?? '')?.[1];
  const confirmed = await anon.rpc('confirm_partner_application', { token });
  expect(confirmed.data).toMatchObject({ status: 'confirmed' });
  const { data: rows } = await admin
    .from('partner_applications')
    .select('id')
    .eq('email', email)
    .single();
  return (rows as { id: string }).id;
}

function applicationCard(page: Page, company: string) {
  return page
    .getByRole('list', { name: 'Partner applications, newest first' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2, name: company }) });
}

/** Waits for the toasts to go: on a phone they sit over the page's lower buttons. */
async function waitForToasts(page: Page) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
}

for (const size of sizes) {
  test.describe(`admin partners at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, bypassCSP: true });

    test('an approved applicant signs in to the partner portal, and the approval is audited', async ({
      page,
      browser,
    }) => {
      const errors = collectErrors(page);
      const run = `${size.name}-${Date.now().toString(36)}`;
      const company = `Haddad Partners ${run}`;
      const applicant = await createUser({ email: uniqueEmail(`applicant-${size.name}`) });
      const applicationId = await applyAndConfirm(applicant.email, company);

      const admin = await createUser({ fullName: 'Ada Admin', role: 'admin' });
      await signIn(page, admin, '/auth?next=%2Fadmin');
      await expect(page).toHaveURL('/admin');
      await followPortalLink(page, 'Partners');
      await expect(page).toHaveURL('/admin/partners');
      await expect(page.getByRole('heading', { level: 1, name: 'Partners' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Applications' })).toHaveAttribute(
        'aria-selected',
        'true',
      );

      const item = applicationCard(page, company);
      await expect(item).toContainText(applicant.email);
      await expect(item).toContainText('Consultancy');
      await expect(item).toContainText('Has an account');
      await expect(item).toContainText('We run CS operations for 30 SaaS teams.');
      await expect(item.getByText('Waiting for review')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({
        path: `test-results/admin-partners-applications-${size.name}.png`,
        fullPage: true,
      });

      await item.getByRole('button', { name: 'Approve…' }).click();
      const dialog = page.getByRole('dialog', { name: `Approve ${company}?` });
      await expect(dialog).toContainText('becomes a partner account');
      await dialog.getByRole('button', { name: 'Approve and email' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText(new RegExp(`${company} is a partner now`))).toBeVisible();
      // Approved, it leaves the pending list; under "Approved" it shows its code.
      await expect(item).toHaveCount(0);
      await page.getByLabel('Show').selectOption('approved');
      await expect(page).toHaveURL(/status=approved/);
      await expect(item).toContainText(/Partner with the referral code [A-Z0-9]{4,24}\./);
      const code = /referral code ([A-Z0-9]{4,24})\./.exec((await item.textContent()) ?? '')![1]!;

      // The partners tab: find them, and raise their commission.
      await waitForToasts(page);
      await page.getByRole('tab', { name: 'Partners' }).click();
      await expect(page).toHaveURL(/tab=partners/);
      await page.getByLabel('Company, code or email contains').fill(code);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`q=${code}`));
      const partners = page.getByRole('region', { name: 'Partners' });
      await expect(partners.getByRole('button', { name: `Edit ${company}` })).toHaveCount(1);
      await expect(partners).toContainText('15 %');
      await partners.getByRole('button', { name: `Edit ${company}` }).click();
      const edit = page.getByRole('dialog', { name: company });
      await edit.getByLabel('Commission (%)').fill('51');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expect(edit.getByText('Please enter a commission from 0 % to 50 %.')).toBeVisible();
      await edit.getByLabel('Status').selectOption('suspended');
      await expect(edit.getByText('Suspending stops their referral link.')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `test-results/admin-partners-edit-${size.name}.png` });
      await edit.getByLabel('Status').selectOption('active');
      // A tier proposes its rate; the admin can still type another.
      await edit.getByLabel('Tier').selectOption('silver');
      await expect(edit.getByLabel('Commission (%)')).toHaveValue('20');
      await edit.getByLabel('Commission (%)').fill('17.5');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expect(edit).toBeHidden();
      await expect(partners).toContainText('17.5 %');
      await expect(partners).toContainText('Silver');
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({
        path: `test-results/admin-partners-partners-${size.name}.png`,
        fullPage: true,
      });

      // The applicant signs in (a fresh token carries the role) and lands in the portal.
      const context = await browser.newContext({
        viewport: { width: size.width, height: size.height },
      });
      const applicantPage = await context.newPage();
      await signIn(applicantPage, applicant, '/auth?next=%2Fpartner-portal');
      await expect(applicantPage).toHaveURL('/partner-portal');
      await expect(applicantPage.getByText('Your referral link')).toBeVisible();
      await expect(applicantPage.getByText(new RegExp(`/\\?ref=${code}$`))).toBeVisible();
      await context.close();

      // The welcome email is in the outbox, with the code and the way in.
      const service = await adminClient();
      const { data: welcome } = await service
        .from('outbox_messages')
        .select('body_text')
        .eq('recipient', applicant.email)
        .eq('template', 'partner_application_approved')
        .single();
      expect(welcome?.body_text).toContain(code);
      expect(welcome?.body_text).toContain('/auth?next=%2Fpartner-portal');

      // The approval is in the audit log.
      await waitForToasts(page);
      await followPortalLink(page, 'Audit log');
      const form = page.getByRole('form', { name: 'Filter the audit log' });
      await form.getByLabel('Record id').fill(applicationId);
      await form.getByRole('button', { name: 'Search' }).click();
      const entries = page.getByRole('list', { name: 'Audit log entries' }).getByRole('listitem');
      await expect(entries).toHaveCount(1);
      await expect(entries.first()).toContainText(`${admin.email} · changed partner applications`);
      await entries
        .first()
        .getByText(/fields?$/)
        .click();
      await expect(entries.first()).toContainText('pending → approved');
      expect(errors).toEqual([]);
    });

    test('a rejection needs a reason, which the applicant is emailed', async ({ page }) => {
      const errors = collectErrors(page);
      const run = `${size.name}-${Date.now().toString(36)}`;
      const company = `Declined Co ${run}`;
      const email = uniqueEmail(`declined-${size.name}`);
      await applyAndConfirm(email, company);

      const admin = await createUser({ fullName: 'Ada Admin', role: 'admin' });
      await signIn(page, admin, '/auth?next=%2Fadmin%2Fpartners');
      await expect(page).toHaveURL('/admin/partners');
      const item = applicationCard(page, company);
      await expect(item).toContainText('No account yet');
      await item.getByRole('button', { name: 'Reject…' }).click();
      const dialog = page.getByRole('dialog', { name: `Reject ${company}’s application?` });
      await dialog.getByRole('button', { name: 'Reject and email' }).click();
      await expect(
        dialog.getByText('Please write the reason for the applicant: it is emailed to them.'),
      ).toBeVisible();
      await expect(dialog.getByLabel('Reason for the applicant')).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({
        path: `test-results/admin-partners-reject-${size.name}.png`,
        fullPage: true,
      });
      await dialog
        .getByLabel('Reason for the applicant')
        .fill('We only take consultancies with 50 or more clients for now.');
      await dialog.getByRole('button', { name: 'Reject and email' }).click();
      await expect(dialog).toBeHidden();
      await expect(item).toHaveCount(0);

      await page.getByLabel('Show').selectOption('rejected');
      await expect(item).toContainText(
        'Reason sent: We only take consultancies with 50 or more clients for now.',
      );

      const service = await adminClient();
      const { data } = await service
        .from('outbox_messages')
        .select('subject, body_text')
        .eq('recipient', email)
        .eq('template', 'partner_application_rejected')
        .single();
      expect(data?.subject).toBe('About your Cervana partner application');
      expect(data?.body_text).toContain(
        'We only take consultancies with 50 or more clients for now.',
      );
      expect(errors).toEqual([]);
    });
  });
}
