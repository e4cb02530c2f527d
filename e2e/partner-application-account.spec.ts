import { expect, test } from '@playwright/test';
import { STRONG_PASSWORD, linkIn, uniqueEmail, waitForMail, type Mail } from './auth-support';
import { signInUrlFor } from './auth-pages';
import { allowManySubmissions, rowsFor } from './forms-support';
import { collectErrors } from './support';

/**
 * Issue 13: the applicant who does what the form's answer says (apply signed
 * out, then create an account with the same email to follow the application)
 * finds the application in the partner portal once the account's address is
 * confirmed.
 */

test.beforeAll(allowManySubmissions);

/** The link in the email that confirms an application (`/partner?confirm=<token>`), as a path. */
function applicationLinkIn(mail: Mail): string {
  const link = /https?:\/\/\S+\/partner\?confirm=[0-9a-f]{64}/.exec(mail.text)?.[0];
  if (!link) throw new Error(`No confirmation link in "${mail.subject}":\n${mail.text}`);
  return new URL(link).pathname + new URL(link).search;
}

test('an applicant who applied signed out follows the application with a new account', async ({
  page,
}) => {
  const errors = collectErrors(page);
  const email = uniqueEmail('partner-then-account');

  // Apply signed out.
  await page.goto('/partner');
  await page.getByLabel('Full name').fill('Noor Haddad');
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('Company').fill('Haddad Success Partners');
  await page.getByLabel('What kind of partner are you?').selectOption('consultancy');
  await page.getByLabel('Teams you expect to refer a month').fill('4');
  await page.getByRole('button', { name: 'Apply to the program' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeFocused();
  await expect(
    page.getByText('Sign in or create an account with that email to follow your application'),
  ).toBeVisible();
  expect(await rowsFor('partner_applications', email)).toEqual([
    expect.objectContaining({ status: 'unconfirmed', user_id: null }),
  ]);

  // Do what it says: open the partner portal, and create an account with that email there.
  await page.getByRole('link', { name: 'partner portal', exact: true }).click();
  await expect(page).toHaveURL(signInUrlFor('/partner-portal'));
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Create your Cervana account' }),
  ).toBeVisible();
  await page.getByLabel('Full name').fill('Noor Haddad');
  await page.getByLabel('Company').fill('Haddad Success Partners');
  await page.getByLabel('Work email or phone number').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your email' })).toBeVisible();
  // The account's address is not confirmed yet: the application is not linked to it.
  const [unlinked] = await rowsFor('partner_applications', email);
  expect(unlinked).toMatchObject({ user_id: null });

  // Confirm the account through the emailed link: signed in, back to the partner portal.
  const accountMail = await waitForMail(email, { subject: /^Confirm your Cervana account$/ });
  await page.goto(linkIn(accountMail));
  await expect(page).toHaveURL(/\/partner-portal$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Join the Cervana partner program' }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your partner application' })).toBeVisible();
  await expect(page.getByText('Please confirm your application')).toBeVisible();
  // Until it is confirmed, nothing the applicant typed is shown: they may not own the address.
  await expect(page.getByText(/An application was made with your email address on/)).toBeVisible();
  await expect(page.getByText(/Haddad Success Partners/)).toHaveCount(0);
  await expect(page.getByText('You have not applied yet.')).toHaveCount(0);

  // The application's own link still confirms it; the portal then shows it under review.
  const applicationMail = await waitForMail(email, { subject: /Confirm your Cervana partner/ });
  await page.goto(applicationLinkIn(applicationMail));
  await expect(page.getByRole('heading', { name: 'Application confirmed' })).toBeVisible();
  await page.goto('/partner-portal');
  await expect(page.getByText('Your application is being reviewed')).toBeVisible();
  await expect(page.getByText(/You applied for Haddad Success Partners on/)).toBeVisible();
  expect(errors).toEqual([]);
});
