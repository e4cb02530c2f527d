import { expect, test } from '@playwright/test';
import { createUser, uniqueEmail, waitForMail } from './auth-support';
import { signIn } from './auth-pages';
import { SALES_INBOX, allowManySubmissions, rowsFor } from './forms-support';
import { collectErrors, phoneAndDesktop } from './support';

test.beforeAll(allowManySubmissions);

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

    await expect(page.getByRole('heading', { name: 'Application received' })).toBeFocused();
    const [application] = await rowsFor('partner_applications', email);
    expect(application).toMatchObject({
      company: 'Blake CX Consulting',
      website: 'https://blakecx.com',
      partner_type: 'consultancy',
      expected_referrals: 3,
      status: 'pending',
    });
    await waitForMail(email, { subject: /We received your partner application/ });
    await waitForMail(SALES_INBOX, { subject: /Partner application: Blake CX Consulting/ });

    // Applying twice is answered plainly, and nothing is stored twice.
    await page.goto('/partner');
    await page.getByLabel('Full name').fill('Morgan Blake');
    await page.getByLabel('Work email').fill(email);
    await page.getByLabel('Company').fill('Blake CX Consulting');
    await page.getByLabel('What kind of partner are you?').selectOption('consultancy');
    await page.getByLabel('Teams you expect to refer a month').fill('3');
    await page.getByRole('button', { name: 'Apply to the program' }).click();
    await expect(page.getByRole('alert')).toContainText(
      'We already have an application from this email address',
    );
    expect(await rowsFor('partner_applications', email)).toHaveLength(1);
    expect(errors.filter((error) => !/409/.test(error))).toEqual([]);
  });
}

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
  await expect(page.getByRole('heading', { name: 'Application received' })).toBeVisible();

  await page.getByRole('link', { name: 'partner portal', exact: true }).click();
  await expect(page.getByText('Your application is being reviewed')).toBeVisible();
  await expect(page.getByText(/You applied for Ivanova Partners on/)).toBeVisible();
});
