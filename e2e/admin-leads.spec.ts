import { expect, test, type Page } from '@playwright/test';
import { anonClient, createUser, uniqueEmail } from './auth-support';
import { signIn } from './auth-pages';
import { collectErrors } from './support';

/**
 * The leads pipeline: a lead sent through the sales form's function reaches an
 * open leads table without a reload; an admin works it (status, note, won with
 * a value) while a second admin, whose page is older, is told their save is stale.
 */

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

async function submitInquiry(company: string, fullName: string) {
  const anon = await anonClient();
  const { error } = await anon.rpc('submit_sales_inquiry', {
    full_name: fullName,
    email: uniqueEmail('lead'),
    company,
    team_size: '21-50',
    monthly_call_volume: '2000-10000',
    consent: true,
    job_role: 'VP Customer Success',
    tools: ['Zendesk'],
    message: 'We would like the agent to answer our after-hours calls.',
  });
  if (error) throw new Error(`submit_sales_inquiry: ${error.message}`);
}

async function save(page: Page) {
  await page.getByRole('button', { name: 'Save changes' }).click();
}

for (const size of sizes) {
  test(`an admin works a live lead while another admin's page goes stale (${size.name})`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(60_000);
    const errors = collectErrors(page);
    await page.setViewportSize({ width: size.width, height: size.height });
    const suffix = Math.random().toString(36).slice(2, 8);
    const company = `Harbour Freight ${suffix}`;
    const first = await createUser({
      email: uniqueEmail(`leads-admin-${size.name}`),
      fullName: 'Ada Admin',
      role: 'admin',
    });
    const second = await createUser({
      email: uniqueEmail(`leads-admin2-${size.name}`),
      fullName: 'Bea Admin',
      role: 'admin',
    });

    await signIn(page, first);
    await expect(page).toHaveURL('/admin');
    await page.goto('/admin/leads');
    await expect(page.getByRole('heading', { level: 1, name: 'Leads' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Live' })).toHaveText('Live');

    // Live: the lead appears without a reload, with a toast.
    await submitInquiry(company, 'Grace Hopper');
    await expect(page.getByText(`New lead: ${company}`)).toBeVisible();
    const row = page.getByRole('link', { name: company });
    await expect(row).toBeVisible();
    await page.screenshot({
      path: `test-results/admin-leads-${size.name}-table.png`,
      fullPage: true,
    });

    // The filters narrow it down and stay in the URL.
    await page.getByLabel('Search').fill(suffix);
    await expect(page).toHaveURL(new RegExp(`q=${suffix}`));
    await expect(page.getByRole('link', { name: company })).toBeVisible();
    await page.getByRole('link', { name: company }).click();
    await expect(page.getByRole('heading', { level: 1, name: company })).toBeVisible();
    const leadUrl = page.url();
    expect(leadUrl).toMatch(/\/admin\/leads\/[0-9a-f-]{36}\?q=/);

    // A second admin opens the same lead before any change.
    const otherContext = await browser.newContext({
      viewport: { width: size.width, height: size.height },
    });
    const other = await otherContext.newPage();
    await signIn(other, second);
    await expect(other).toHaveURL('/admin');
    await other.goto(leadUrl);
    await expect(other.getByRole('heading', { level: 1, name: company })).toBeVisible();

    // Contacted, then a note.
    await page.getByLabel('Status').selectOption('contacted');
    await save(page);
    await expect(page.getByText(`${company} saved.`)).toBeVisible();
    await expect(page.getByRole('main').getByText('Contacted').first()).toBeVisible();
    // On a phone the toast sits over the note's button: let it go, as a person would.
    await expect(page.getByText(`${company} saved.`)).toBeHidden();
    await page.getByLabel('Add a note').fill('Called Grace: wants a demo next week.');
    await page.getByRole('button', { name: 'Add note' }).click();
    const notes = page.getByRole('list', { name: 'Notes, oldest first' });
    await expect(notes.getByText('Called Grace: wants a demo next week.')).toBeVisible();
    await expect(notes.getByText('Ada Admin')).toBeVisible();

    // Won needs a value; with one it saves, stored as cents and shown as money.
    await page.getByLabel('Status').selectOption('won');
    await save(page);
    await expect(
      page.getByText('Please enter the deal’s value to mark the lead won.'),
    ).toBeVisible();
    await page.getByLabel(/Deal value/).fill('12,500.50');
    await page.getByLabel('Currency').selectOption('EUR');
    await save(page);
    await expect(page.getByText('€12,500.50')).toBeVisible();
    await expect(page.getByLabel('Status')).toHaveValue('won');
    await page.screenshot({
      path: `test-results/admin-leads-${size.name}-lead.png`,
      fullPage: true,
    });

    // The second admin's page is from before: their save is refused with a sentence.
    await other.getByLabel('Owner').selectOption({ label: 'Bea Admin (me)' });
    await other.getByRole('button', { name: 'Save changes' }).click();
    await expect(
      other.getByText('Someone else changed this lead since you opened it.'),
    ).toBeVisible();
    await other.screenshot({
      path: `test-results/admin-leads-${size.name}-stale.png`,
      fullPage: true,
    });
    await other.getByRole('button', { name: 'Load the latest' }).click();
    await expect(other.getByLabel('Status')).toHaveValue('won');
    await expect(other.getByLabel(/Deal value/)).toHaveValue('12500.50');
    await other.getByLabel('Owner').selectOption({ label: 'Bea Admin (me)' });
    await other.getByRole('button', { name: 'Save changes' }).click();
    await expect(other.getByText(`${company} saved.`)).toBeVisible();
    await otherContext.close();

    // Back to the list with its filters; the row shows the new status.
    await page.getByRole('link', { name: 'Back to leads' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/leads\\?q=${suffix}$`));
    await expect(page.getByLabel('Search')).toHaveValue(suffix);
    const wonRow =
      size.width >= 1024
        ? page.getByRole('row').filter({ hasText: company })
        : page.getByRole('listitem').filter({ hasText: company });
    await expect(wonRow.getByText('Won')).toBeVisible();
    expect(errors).toEqual([]);
  });
}

test('the board moves a lead between columns, and the filtered set exports as CSV', async ({
  page,
}) => {
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  const suffix = Math.random().toString(36).slice(2, 8);
  const company = `=Board Test ${suffix}`;
  const admin = await createUser({
    email: uniqueEmail('leads-board'),
    fullName: 'Cy Admin',
    role: 'admin',
  });
  await submitInquiry(company, 'Alan Kay');
  await signIn(page, admin);
  await expect(page).toHaveURL('/admin');
  await page.goto(`/admin/leads?q=${suffix}`);
  await page.getByRole('button', { name: 'Board' }).click();
  await expect(page).toHaveURL(/view=board/);

  const column = (name: string) => page.getByRole('region', { name: new RegExp(`^${name}`) });
  await expect(column('New').getByRole('link', { name: company })).toBeVisible();
  await column('New').getByLabel(`Move ${company} to`).selectOption('qualified');
  await expect(page.getByText(`${company} moved to Qualified.`)).toBeVisible();
  await expect(column('Qualified').getByRole('link', { name: company })).toBeVisible();
  await expect(column('New').getByRole('link', { name: company })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/admin-leads-board.png', fullPage: true });

  // Won needs a value: the database's sentence, and the card stays where it was.
  await column('Qualified').getByLabel(`Move ${company} to`).selectOption('won');
  await expect(page.getByText("Please enter the deal's value to mark the lead won.")).toBeVisible();
  await expect(column('Qualified').getByRole('link', { name: company })).toBeVisible();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^cervana-leads-\d{4}-\d{2}-\d{2}\.csv$/);
  const stream = await download.createReadStream();
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  const lines = text.trim().split('\r\n');
  expect(lines[0]).toMatch(/^id,created_at,company,full_name,email,/);
  expect(lines).toHaveLength(2);
  // A company name that would start a formula is defused.
  expect(lines[1]).toContain(`,'${company},Alan Kay,`);
  expect(lines[1]).toContain(',qualified,');
  // The one refusal above (won without a value) is the browser's only logged error.
  expect(errors).toEqual([
    'Failed to load resource: the server responded with a status of 400 (Bad Request)',
  ]);
});
