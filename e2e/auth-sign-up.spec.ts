import { expect, test, type Page } from '@playwright/test';
import { STRONG_PASSWORD, codeIn, linkIn, uniqueEmail, waitForMail } from './auth-support';
import { accountMenu, expectDashboard, storedSession } from './auth-pages';
import { collectErrors, phoneAndDesktop } from './support';

/**
 * Creating an account: the form, the confirmation email the server really
 * sent, and the first landing on the dashboard with the name and company given.
 */

const CONFIRM_SUBJECT = /^Confirm your Cervana account$/;

interface SignUp {
  fullName: string;
  company: string;
  email: string;
  password: string;
}

async function fillSignUp(page: Page, values: SignUp): Promise<void> {
  await expect(
    page.getByRole('heading', { level: 1, name: 'Create your Cervana account' }),
  ).toBeVisible();
  await page.getByLabel('Full name').fill(values.fullName);
  await page.getByLabel('Company').fill(values.company);
  await page.getByLabel('Work email or phone number').fill(values.email);
  await page.getByLabel('Password', { exact: true }).fill(values.password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

function newAccount(label: string): SignUp {
  return {
    fullName: 'Grace Hopper',
    company: `Harbour Analytics ${label}`,
    email: uniqueEmail(`sign-up-${label}`),
    password: STRONG_PASSWORD,
  };
}

for (const viewport of phoneAndDesktop) {
  test.describe(`sign-up at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('the emailed link confirms the account and lands on the dashboard with name and company', async ({
      page,
    }) => {
      const errors = collectErrors(page);
      const account = newAccount(`link-${viewport.name}`);
      const before = new Date();
      await page.goto('/auth');
      await page.getByRole('link', { name: 'Create an account' }).click();
      await expect(page).toHaveURL(/\/auth\?mode=sign-up$/);
      await fillSignUp(page, account);

      await expect(
        page.getByRole('heading', { level: 1, name: 'Confirm your email' }),
      ).toBeVisible();
      await expect(page.getByText(account.email)).toBeVisible();
      // Not signed in until the address is confirmed.
      expect(await storedSession(page)).toBeNull();

      const mail = await waitForMail(account.email, { subject: CONFIRM_SUBJECT, after: before });
      await page.goto(linkIn(mail));
      // The link lands on the site root with the session in the fragment; the app forwards.
      await expectDashboard(page, account);
      await expect(accountMenu(page, account.fullName)).toBeVisible();
      expect(new URL(page.url()).hash).toBe('');
      expect((await storedSession(page))?.claims.email).toBe(account.email);
      expect(errors).toEqual([]);
    });

    test('the emailed code confirms the account and lands on the dashboard with name and company', async ({
      page,
    }) => {
      const account = newAccount(`code-${viewport.name}`);
      const before = new Date();
      await page.goto('/auth?mode=sign-up');
      await fillSignUp(page, account);
      await expect(
        page.getByRole('heading', { level: 1, name: 'Confirm your email' }),
      ).toBeVisible();

      const mail = await waitForMail(account.email, { subject: CONFIRM_SUBJECT, after: before });
      await page.getByLabel('Confirmation code').fill(codeIn(mail));
      await page.getByRole('button', { name: 'Confirm and continue' }).click();
      await expectDashboard(page, account);
      await expect(accountMenu(page, account.fullName)).toBeVisible();
    });
  });
}

test.describe('sign-up form', () => {
  test('a common password is refused by the server, with the reason as a sentence', async ({
    page,
  }) => {
    const account = { ...newAccount('weak'), password: 'password123' };
    await page.goto('/auth?mode=sign-up');
    const signUpResponse = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/auth/v1/signup',
    );
    await fillSignUp(page, account);
    // The server's check, not the form's: 8 characters and more pass the form.
    expect((await signUpResponse).status()).toBe(422);
    const password = page.getByLabel('Password', { exact: true });
    await expect(
      page.getByText('Choose a stronger password: it is one of the most commonly used passwords.'),
    ).toBeVisible();
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await expect(password).toBeFocused();
    // Still on the form: no account, no confirmation step.
    await expect(
      page.getByRole('heading', { level: 1, name: 'Create your Cervana account' }),
    ).toBeVisible();
  });

  test('a password that is too short is caught before anything is sent', async ({ page }) => {
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/auth/v1/')) requests.push(request.url());
    });
    await page.goto('/auth?mode=sign-up');
    await fillSignUp(page, { ...newAccount('short'), password: 'Ab1!xyz' });
    await expect(page.getByText('Use at least 8 characters.')).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(requests.filter((url) => new URL(url).pathname === '/auth/v1/signup')).toEqual([]);
  });

  test('without an email or phone number the spec’s sentence says what is missing', async ({
    page,
  }) => {
    await page.goto('/auth?mode=sign-up');
    await fillSignUp(page, { ...newAccount('empty'), email: '' });
    await expect(
      page.getByText('You must provide either an email or phone number and a password'),
    ).toBeVisible();
    await expect(page.getByLabel('Work email or phone number')).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });
});
