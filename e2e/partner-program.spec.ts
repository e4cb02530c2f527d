import { expect, test } from '@playwright/test';
import { anonClient, createUser, uniqueEmail, waitForMail, type Mail } from './auth-support';
import { signIn } from './auth-pages';
import { SALES_INBOX, allowManySubmissions, rowsFor } from './forms-support';
import { collectErrors, phoneAndDesktop } from './support';

test.beforeAll(allowManySubmissions);

const NEUTRAL_ANSWER =
  'Thanks. We have sent a message to that address; follow it to confirm your application.';

/** The link in the email that confirms an application (`/partner?confirm=<token>`), as a path. */
function confirmLinkIn(mail: Mail): string {
  const link = /https?:\/\/\S+\/partner\?confirm=[0-9a-f]{64}/.exec(mail.text)?.[0];
  if (!link) throw new Error(`No confirmation link in "${mail.subject}":\n${mail.text}`);
  return new URL(link).pathname + new URL(link).search;
}

for (const viewport of phoneAndDesktop) {
  test(`a visitor applies to the partner program at ${viewport.name}`, async ({ page }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const errors = collectErrors(page);
    const email = uniqueEmail('partner-applicant');
    await page.goto('/partner');
    await expect(page.getByRole('heading', { name: 'Tiers and commission rates' })).toBeVisible();
    // The estimator answers as the inputs move.
    await page.getByLabel('Teams you refer a month').fill('5');
    await expect(page.getByText(/15 new customers a year puts you in Gold/)).toBeVisible();

    await page.getByRole('button', { name: 'Apply to the program' }).click();
    await expect(page.getByText('Please enter your name.')).toBeVisible();
    await expect(page.getByText('Please choose the kind of partner you are.')).toBeVisible();
    await expect(
      page.getByText('Please tell us how many teams you might refer each month.'),
    ).toBeVisible();

    await page.getByLabel('Full name').fill('Morgan Blake');
    await page.getByLabel('Work email').fill(email);
    await page.getByLabel('Company').fill('Blake CX Consulting');
    await page.getByLabel('Website (optional)').fill('not a website');
    await page.getByLabel('What kind of partner are you?').selectOption('consultancy');
    await page.getByLabel('Teams you expect to refer a month').fill('3');
    await page.getByRole('button', { name: 'Apply to the program' }).click();
    await expect(
      page.getByText('Please enter your website’s address, like https://example.com.'),
    ).toBeVisible();
    await page.getByLabel('Website (optional)').fill('blakecx.com');
    await page.getByRole('button', { name: 'Apply to the program' }).click();

    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeFocused();
    await expect(page.getByText(NEUTRAL_ANSWER)).toBeVisible();
    const [application] = await rowsFor('partner_applications', email);
    expect(application).toMatchObject({
      company: 'Blake CX Consulting',
      website: 'https://blakecx.com',
      partner_type: 'consultancy',
      expected_referrals: 3,
      status: 'unconfirmed',
    });

    // The owner of the address confirms with the emailed link; then the team hears of it.
    const confirmation = await waitForMail(email, { subject: /Confirm your Cervana partner/ });
    await page.goto(confirmLinkIn(confirmation));
    await expect(page.getByRole('heading', { name: 'Application confirmed' })).toBeVisible();
    await expect(page.getByText(/your application is confirmed/)).toBeVisible();
    expect(await rowsFor('partner_applications', email)).toEqual([
      expect.objectContaining({ status: 'pending' }),
    ]);
    await waitForMail(email, { subject: /We received your partner application/ });
    await waitForMail(SALES_INBOX, { subject: /Partner application: Blake CX Consulting/ });

    // The link works once.
    await page.goto(confirmLinkIn(confirmation));
    await expect(page.getByText('This link has already been used')).toBeVisible();

    // Applying twice gets the same answer as ever; the email tells the owner, and nothing is
    // stored twice.
    const beforeSecond = new Date();
    await page.goto('/partner');
    await page.getByLabel('Full name').fill('Morgan Blake');
    await page.getByLabel('Work email').fill(email);
    await page.getByLabel('Company').fill('Blake CX Consulting');
    await page.getByLabel('What kind of partner are you?').selectOption('consultancy');
    await page.getByLabel('Teams you expect to refer a month').fill('3');
    await page.getByRole('button', { name: 'Apply to the program' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeFocused();
    await expect(page.getByText(NEUTRAL_ANSWER)).toBeVisible();
    await waitForMail(email, {
      subject: /About your Cervana partner application/,
      after: beforeSecond,
    });
    expect(await rowsFor('partner_applications', email)).toHaveLength(1);
    expect(errors).toEqual([]);
  });
}

test('a confirmation link that was replaced or expired says so', async ({ page }) => {
  const email = uniqueEmail('partner-replaced');
  const anon = await anonClient();
  const apply = () =>
    anon.rpc('submit_partner_application', {
      full_name: 'Robin Reyes',
      email,
      company: 'Reyes Advisory',
      partner_type: 'agency',
      expected_referrals: 2,
    });
  expect((await apply()).error).toBeNull();
  const first = await waitForMail(email, { subject: /Confirm your Cervana partner/ });
  // A second application from the address replaces the first, whose link stops working.
  expect((await apply()).error).toBeNull();
  await page.goto(confirmLinkIn(first));
  await expect(
    page.getByRole('heading', { name: 'We could not confirm this application' }),
  ).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('does not work any more');
  await expect(page.getByRole('link', { name: 'Apply again' })).toBeVisible();

  await page.goto(`/partner?confirm=${'0'.repeat(63)}`);
  await expect(page.getByRole('alert')).toContainText('This confirmation link is not complete');
});

test('a signed-in applicant follows the application in the partner portal', async ({ page }) => {
  const user = await createUser({ fullName: 'Sasha Ivanova', company: 'Ivanova Partners' });
  await signIn(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/partner-portal');
  await expect(page.getByText('You have not applied yet.')).toBeVisible();
  await page.getByRole('link', { name: 'See the program and apply' }).click();
  await page.getByLabel('Full name').fill('Sasha Ivanova');
  await page.getByLabel('Work email').fill(user.email);
  await page.getByLabel('Company').fill('Ivanova Partners');
  await page.getByLabel('What kind of partner are you?').selectOption('agency');
  await page.getByLabel('Teams you expect to refer a month').fill('2');
  await page.getByRole('button', { name: 'Apply to the program' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();

  await page.getByRole('link', { name: 'partner portal', exact: true }).click();
  await expect(page.getByText('Please confirm your application')).toBeVisible();
  const confirmation = await waitForMail(user.email, { subject: /Confirm your Cervana partner/ });
  await page.goto(confirmLinkIn(confirmation));
  await expect(page.getByRole('heading', { name: 'Application confirmed' })).toBeVisible();
  await page.goto('/partner-portal');
  await expect(page.getByText('Your application is being reviewed')).toBeVisible();
  await expect(page.getByText(/You applied for Ivanova Partners on/)).toBeVisible();
});

for (const viewport of phoneAndDesktop) {
  test(`the landing page and /partner state the same commission terms at ${viewport.name}`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/');
    const cta = page.locator('[data-section="partner-cta"]');
    await cta.scrollIntoViewIfNeeded();
    await expect(
      cta.getByText('Up to 25% of each referred customer’s first-year subscription'),
    ).toBeVisible();
    await expect(cta).not.toContainText(/recurring/i);

    await cta.getByRole('link', { name: 'Explore the partner program' }).click();
    await expect(page.getByRole('heading', { name: 'Tiers and commission rates' })).toBeVisible();
    await expect(page.getByText('15–25% of the first-year subscription')).toBeVisible();
    for (const rate of ['15%', '20%', '25%']) {
      // A table on a laptop, cards on a phone: one of the two shows each rate.
      await expect(
        page
          .getByText(`${rate} of the first-year subscription`, { exact: true })
          .filter({ visible: true }),
      ).toHaveCount(1);
    }
    await expect(page.locator('main')).not.toContainText(/recurring|of year one/i);
  });
}
