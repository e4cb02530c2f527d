import { expect, test } from '@playwright/test';
import { phoneAndDesktop, collectErrors } from './support';
import { uniqueEmail, waitForMail } from './auth-support';
import { SALES_INBOX, allowManySubmissions, outboxFor, rowsFor } from './forms-support';

test.beforeAll(allowManySubmissions);

for (const viewport of phoneAndDesktop) {
  test.describe(`talk to sales at ${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('an inquiry is stored, confirmed to the visitor and sent to the sales inbox', async ({
      page,
    }) => {
      const errors = collectErrors(page);
      const email = uniqueEmail('sales');
      const company = `Northwind Logistics ${email.split('@')[0]!.slice(-8)}`;
      await page.goto('/talk-to-sales');
      await page.getByLabel('Full name').fill('Jordan Rivera');
      await page.getByLabel('Work email').fill(email);
      await page.getByLabel('Company').fill(company);
      await page.getByLabel('Your role (optional)').fill('VP Customer Success');
      await page.getByLabel('Customer success team size').selectOption('21-50');
      await page.getByLabel('Inbound calls a month').selectOption('2000-10000');
      await page.getByLabel('Zendesk').check();
      await page.getByLabel('Gainsight').check();
      await page.getByLabel(/What would you like Cervana to handle/).fill('Renewal check-ins.');
      await page.getByRole('checkbox', { name: /may contact me/ }).check();
      await page.getByRole('button', { name: 'Send to Sales' }).click();

      await expect(
        page.getByRole('heading', { name: 'Thanks, Jordan. Your message is with our sales team.' }),
      ).toBeFocused();
      await expect(page.getByText(`We sent a confirmation to ${email}.`)).toBeVisible();

      const [lead] = await rowsFor('leads', email);
      expect(lead).toMatchObject({
        full_name: 'Jordan Rivera',
        company,
        job_role: 'VP Customer Success',
        team_size: '21-50',
        monthly_call_volume: '2000-10000',
        tools: ['Zendesk', 'Gainsight'],
        message: 'Renewal check-ins.',
        status: 'new',
      });
      expect((await outboxFor(email)).map((row) => row.template)).toEqual([
        'sales_inquiry_confirmation',
      ]);
      const toSales = await waitForMail(SALES_INBOX, {
        subject: new RegExp(`New lead: ${company}`),
      });
      expect(toSales.text).toContain(email);
      const confirmation = await waitForMail(email, {
        subject: /^We received your message$/,
      });
      expect(confirmation.html).toContain('Book a demo now');
      // Nothing the visitor typed goes back to an address nobody has verified.
      expect(confirmation.text).not.toContain(company);
      expect(confirmation.text).not.toContain('Jordan');

      // "Book right away": the booking form starts with what the visitor already typed.
      await page.getByRole('link', { name: 'Book a demo slot now' }).click();
      await expect(page).toHaveURL(/\/demo$/);
      await page.locator('fieldset button[aria-pressed]').first().click();
      await expect(page.getByLabel('Work email')).toHaveValue(email);
      await expect(page.getByLabel('Company')).toHaveValue(company);
      expect(errors).toEqual([]);
    });
  });
}

test('every field says what is wrong, in the browser and from the database', async ({ page }) => {
  await page.goto('/talk-to-sales');
  await page.getByRole('button', { name: 'Send to Sales' }).click();
  for (const message of [
    'Please enter your name.',
    'Please enter your work email.',
    'Please enter your company.',
    'Please choose your team size.',
    'Please choose your monthly call volume.',
    'Please agree to be contacted about your inquiry.',
  ]) {
    await expect(page.getByText(message)).toBeVisible();
  }
  await expect(page.getByLabel('Full name')).toBeFocused();

  await page.getByLabel('Full name').fill('Jordan Rivera');
  await page.getByLabel('Work email').fill('jordan@northwind');
  await page.getByLabel('Company').fill('N'.repeat(121));
  await page.getByLabel('Customer success team size').selectOption('6-20');
  await page.getByLabel('Inbound calls a month').selectOption('under-500');
  await page.getByLabel(/What would you like Cervana to handle/).fill('x'.repeat(2001));
  await page.getByRole('checkbox', { name: /may contact me/ }).check();
  await page.getByRole('button', { name: 'Send to Sales' }).click();
  await expect(
    page.getByText('Please enter a valid email address, like jane@company.com.'),
  ).toBeVisible();
  await expect(page.getByText('Please keep your company under 121 characters.')).toBeVisible();
  await expect(page.getByText('Please keep your message under 2,001 characters.')).toBeVisible();
  await expect(page.getByText('2,001 of 2,000 characters')).toBeVisible();

  // The database has the last word: a filled honeypot (a bot) is refused, plainly, and nothing is kept.
  const email = uniqueEmail('bot');
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('Company').fill('Northwind');
  await page.getByLabel(/What would you like Cervana to handle/).fill('');
  await page.locator('#sales-fax').fill('http://spam.example', { force: true });
  await page.getByRole('button', { name: 'Send to Sales' }).click();
  await expect(page.getByRole('alert')).toContainText('blocked because it looks automated');
  expect(await rowsFor('leads', email)).toEqual([]);
});
