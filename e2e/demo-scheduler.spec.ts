import { expect, test, type Page } from '@playwright/test';
import { adminClient, createUser, uniqueEmail, waitForMail, type Mail } from './auth-support';
import {
  SALES_INBOX,
  allowManySubmissions,
  fillBookingForm,
  pickFirstSlot,
  rowsFor,
} from './forms-support';
import { collectErrors, phoneAndDesktop } from './support';

// Bookings compete for the same free slots: this file's tests run one after another.
test.describe.configure({ mode: 'serial' });
test.beforeAll(allowManySubmissions);

/** The link in the email that manages the booking (`/demo?booking=<token>`). */
function manageLinkIn(mail: Mail): string {
  const link = /https?:\/\/\S+\/demo\?booking=[0-9a-f]{64}/.exec(mail.text)?.[0];
  if (!link) throw new Error(`No manage link in "${mail.subject}":\n${mail.text}`);
  return new URL(link).pathname + new URL(link).search;
}

function invite(mail: Mail): string {
  const ics = mail.attachments.find((attachment) => attachment.filename.endsWith('.ics'));
  if (!ics) throw new Error(`No .ics attached to "${mail.subject}"`);
  expect(ics.contentType).toBe('text/calendar');
  return ics.content;
}

async function book(page: Page, email: string): Promise<string> {
  const label = await pickFirstSlot(page);
  await fillBookingForm(page, { fullName: 'Avery Chen', email, company: 'Lumen CRM' });
  await page.getByRole('button', { name: 'Book this demo' }).click();
  await expect(page.getByRole('heading', { name: 'You are booked' })).toBeVisible();
  return label;
}

for (const viewport of phoneAndDesktop) {
  test(`book, get the invite, reschedule and cancel by the emailed link at ${viewport.name}`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const errors = collectErrors(page);
    const email = uniqueEmail('demo');
    await page.goto('/demo');
    await page.getByLabel('Your time zone').selectOption('Asia/Tokyo');
    const label = await book(page, email);
    await expect(page.getByText(`We sent a calendar invite to ${email}`)).toBeVisible();
    // The link to reschedule or cancel is in the email only (security issue 24, finding 6).
    await expect(
      page.getByText('That email holds your link to reschedule or cancel at any time'),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Reschedule or cancel' })).toHaveCount(0);
    expect(await page.content()).not.toMatch(/booking=[0-9a-f]{64}/);

    const [booking] = await rowsFor('demo_bookings', email);
    expect(booking).toMatchObject({ status: 'confirmed', time_zone: 'Asia/Tokyo', revision: 0 });
    expect(label).toContain(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Asia/Tokyo',
        hour: '2-digit',
        minute: '2-digit',
        hour12: false,
      }).format(new Date(String(booking!.starts_at))),
    );

    const booked = await waitForMail(email, { subject: /Your Cervana demo is booked/ });
    expect(booked.subject).toContain('(Asia/Tokyo)');
    const ics = invite(booked);
    expect(ics).toContain('METHOD:REQUEST');
    expect(ics).toContain('SEQUENCE:0');
    expect(ics).toContain(`UID:demo-${String(booking!.id)}@cervana.ai`);
    await waitForMail(SALES_INBOX, { subject: /Demo booked: Lumen CRM/ });

    // Reschedule through the email's link, in a fresh page as if from the inbox.
    await page.goto(manageLinkIn(booked));
    await expect(page.getByRole('heading', { name: 'Your demo', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Pick a new time' }).click();
    // Another day than the first (late in the day, the booked day may have no other time left),
    // then its first time.
    await page
      .getByRole('group', { name: 'Days with free times' })
      .getByRole('button')
      .nth(1)
      .click();
    await page.locator('fieldset button[aria-pressed]').first().click();
    await page.getByRole('button', { name: /Move my demo to/ }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Your demo now takes place on' }),
    ).toBeVisible();
    const [moved] = await rowsFor('demo_bookings', email);
    expect(moved).toMatchObject({ status: 'confirmed', revision: 1 });
    expect(moved!.starts_at).not.toBe(booking!.starts_at);
    const rescheduled = await waitForMail(email, { subject: /has moved to/ });
    expect(invite(rescheduled)).toContain('SEQUENCE:1');

    // Cancel through the latest email's link.
    await page.goto(manageLinkIn(rescheduled));
    await page.getByRole('button', { name: 'Cancel this demo' }).click();
    await page
      .getByLabel('Would you tell us why? (optional)')
      .fill('We picked a date with our VP.');
    await page.getByRole('button', { name: 'Yes, cancel my demo' }).click();
    await expect(page.getByRole('heading', { name: 'Cancelled demo' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Book a new time' })).toBeVisible();
    const [cancelled] = await rowsFor('demo_bookings', email);
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'We picked a date with our VP.',
    });
    const cancelMail = await waitForMail(email, { subject: /is cancelled/ });
    expect(invite(cancelMail)).toContain('METHOD:CANCEL');
    expect(errors).toEqual([]);
  });
}

test('two visitors racing for one slot: one books it, the other is offered the next ones', async ({
  browser,
}) => {
  const visitors = await Promise.all([browser.newContext(), browser.newContext()]);
  const pages = await Promise.all(visitors.map((context) => context.newPage()));
  const emails = [uniqueEmail('race-a'), uniqueEmail('race-b')];
  for (const [index, page] of pages.entries()) {
    await page.goto('/demo');
    await pickFirstSlot(page);
    await fillBookingForm(page, {
      fullName: `Racer ${index + 1}`,
      email: emails[index]!,
      company: 'Race Co',
    });
  }
  await Promise.all(
    pages.map((page) => page.getByRole('button', { name: 'Book this demo' }).click()),
  );

  const outcomes = await Promise.all(
    pages.map(async (page) => {
      const booked = page.getByRole('heading', { name: 'You are booked' });
      const taken = page.getByText(
        'Sorry, someone has just booked that time. Please pick another one.',
      );
      await expect(booked.or(taken)).toBeVisible();
      return (await booked.isVisible()) ? 'booked' : 'taken';
    }),
  );
  expect([...outcomes].sort()).toEqual(['booked', 'taken']);
  const loser = pages[outcomes.indexOf('taken')]!;
  await expect(loser.getByText('The next free times:')).toBeVisible();

  const rows = [
    ...(await rowsFor('demo_bookings', emails[0]!)),
    ...(await rowsFor('demo_bookings', emails[1]!)),
  ];
  expect(rows).toHaveLength(1);

  // The loser takes one of the offered slots.
  await loser.getByRole('alert').getByRole('button').first().click();
  await loser.getByRole('button', { name: 'Book this demo' }).click();
  await expect(loser.getByRole('heading', { name: 'You are booked' })).toBeVisible();
  await Promise.all(visitors.map((context) => context.close()));
});

test('a visit through a partner’s ?ref= link credits the booking to that partner', async ({
  page,
}) => {
  const partner = await createUser({
    role: 'partner',
    fullName: 'Pat Okafor',
    company: 'Brightpath Advisors',
  });
  const admin = await adminClient();
  const { data: record } = await admin
    .from('partners')
    .select('id, referral_code')
    .eq('user_id', partner.id)
    .single();
  const { referral_code: code, id: partnerId } = record as { referral_code: string; id: string };

  await page.goto(`/?ref=${code.toLowerCase()}`);
  await expect
    .poll(async () => {
      const { data } = await admin
        .from('referral_clicks')
        .select('clicks')
        .eq('partner_id', partnerId);
      return (data ?? []).reduce((sum, row) => sum + (row as { clicks: number }).clicks, 0);
    })
    .toBe(1);
  // Later, on another page, without the parameter.
  await page.goto('/demo');
  const email = uniqueEmail('referred');
  await book(page, email);
  const [booking] = await rowsFor('demo_bookings', email);
  expect(booking!.partner_id).toBe(partnerId);
});

for (const viewport of phoneAndDesktop) {
  test(`before a time is picked, the details step points to step 1 at ${viewport.name}`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/demo');
    await expect(page.getByRole('heading', { name: '1. Pick a time' })).toBeVisible();
    const details = page.getByRole('region', { name: '2. Your details' });
    await expect(details).toContainText('Once you pick a time in step 1');
    await expect(details).not.toContainText(/\b(left|right|above|below)\b/);
  });
}
