import { expect, test } from '@playwright/test';
import { signIn } from './auth-pages';
import { anonClient, createUser, linkIn, uniqueEmail, waitForMail } from './auth-support';
import { axeViolations } from './axe';
import { collectErrors, followPortalLink } from './support';

/**
 * The email log (issue 17, decision 026) at a desktop and a phone size: an
 * admin finds the confirmation a visitor's sales inquiry produced, previews
 * it, resends it and finds the resend in the audit log; a sign-in link's
 * email shows with its link and code hidden, and cannot be resent.
 */

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

for (const size of sizes) {
  test.describe(`email log at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, bypassCSP: true });

    test('an admin previews and resends a form’s email, and sees the resend audited', async ({
      page,
    }) => {
      const errors = collectErrors(page);
      const visitor = uniqueEmail(`emails-visitor-${size.name}`);
      const anon = await anonClient();
      const { error } = await anon.rpc('submit_sales_inquiry', {
        full_name: 'Vera Visitor',
        email: visitor,
        company: 'Visitor Co',
        team_size: '6-20',
        monthly_call_volume: '500-2000',
        consent: true,
      });
      expect(error).toBeNull();

      const admin = await createUser({ fullName: 'Ada Admin', role: 'admin' });
      await signIn(page, admin);
      await expect(page).toHaveURL(/\/admin$/);
      await followPortalLink(page, 'Email log');
      await expect(page.getByRole('heading', { level: 1, name: 'Email log' })).toBeVisible();

      const form = page.getByRole('form', { name: 'Filter the email log' });
      await form.getByLabel('Recipient contains').fill(visitor);
      await form.getByRole('button', { name: 'Search' }).click();
      await expect(page).toHaveURL(/to=/);
      const subject = page.getByRole('link', { name: 'We received your message' }).first();
      await expect(subject).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `test-results/admin-emails-${size.name}.png`, fullPage: true });
      await subject.click();

      await expect(
        page.getByRole('heading', { level: 1, name: 'We received your message' }),
      ).toBeVisible();
      await expect(page.getByText(visitor).first()).toBeVisible();
      const frame = page.getByTitle('The message as HTML');
      await expect(frame).toHaveAttribute('sandbox', '');
      // Sandboxed: no scripts, no same origin (Playwright cannot look inside either, so the source it is given).
      expect(await frame.getAttribute('srcdoc')).toContain('Thanks for getting in touch');
      await expect(page.getByText('Your reference:').first()).toBeVisible();
      await frame.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/admin-email-frame-${size.name}.png` });

      await page.getByRole('button', { name: 'Resend', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Resend this message?' });
      await expect(dialog).toContainText(visitor);
      await dialog.getByRole('button', { name: 'Resend', exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText('A copy is queued to the same recipient.')).toBeVisible();
      const copyLink = page.getByRole('link', { name: 'Open the copy' });
      const copyId = (await copyLink.getAttribute('href'))!.split('/').pop()!;
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `test-results/admin-email-${size.name}.png`, fullPage: true });

      // A second click within minutes is refused with a sentence.
      await page.getByRole('button', { name: 'Resend', exact: true }).click();
      await dialog.getByRole('button', { name: 'Resend', exact: true }).click();
      await expect(page.getByText(/resent less than 5 minutes ago/)).toBeVisible();

      await followPortalLink(page, 'Audit log');
      const filters = page.getByRole('form', { name: 'Filter the audit log' });
      await filters.getByLabel('Record id').fill(copyId);
      await filters.getByRole('button', { name: 'Search' }).click();
      const entries = page.getByRole('list', { name: 'Audit log entries' }).getByRole('listitem');
      await expect(entries).toHaveCount(1);
      await expect(entries.first()).toContainText(`${admin.email} · added emails`);
      await entries
        .first()
        .getByText(/fields$/)
        .click();
      await expect(entries.first()).toContainText(visitor);
      // The refused second resend is the one failed request.
      expect(errors).toEqual([expect.stringContaining('429 (Too Many Requests)')]);
    });

    test('a sign-in link’s email shows with its link and code hidden', async ({ page }) => {
      const errors = collectErrors(page);
      const customer = await createUser({ fullName: 'Cleo Customer' });
      const anon = await anonClient();
      expect((await anon.auth.signInWithOtp({ email: customer.email })).error).toBeNull();
      const mail = await waitForMail(customer.email, { subject: /sign-in link/ });
      const token = new URL(linkIn(mail)).searchParams.get('token')!;
      expect(token.length).toBeGreaterThan(10);

      const admin = await createUser({ fullName: 'Ada Admin', role: 'admin' });
      await signIn(page, admin, `/auth?next=${encodeURIComponent('/admin/emails')}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Email log' })).toBeVisible();
      const form = page.getByRole('form', { name: 'Filter the email log' });
      await form.getByLabel('Recipient contains').fill(customer.email);
      await form.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('link', { name: 'Your Cervana sign-in link' }).first().click();

      await expect(
        page.getByRole('heading', { level: 1, name: 'Your Cervana sign-in link' }),
      ).toBeVisible();
      await expect(page.getByText('Links and codes hidden')).toBeVisible();
      await expect(page.getByText('Your code: [hidden]')).toBeVisible();
      expect(await page.content()).not.toContain(token);
      const srcdoc = await page.getByTitle('The message as HTML').getAttribute('srcdoc');
      expect(srcdoc).toContain('token=[hidden]');
      expect(srcdoc).not.toContain(token);
      await expect(page.getByRole('button', { name: 'Resend', exact: true })).toHaveCount(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({
        path: `test-results/admin-email-secret-${size.name}.png`,
        fullPage: true,
      });
      expect(errors).toEqual([]);
    });
  });
}
