import { expect, test, type Page } from '@playwright/test';
import { signIn } from './auth-pages';
import { adminClient, anonClient, createUser, uniqueEmail } from './auth-support';
import { axeViolations } from './axe';
import { allowManySubmissions } from './forms-support';
import { collectErrors, followPortalLink } from './support';

/**
 * Demo bookings and availability in the admin area (issue 17), at a desktop
 * and a phone size: an admin cancels a demo booked through /demo's function
 * (the visitor's cancelling invite is in the outbox, the change in the audit
 * log), moves another to a real free slot, and adds a day without demos that
 * /demo stops offering at once, then opens it again.
 */

// Bookings and blackout days compete for the same slots: one test at a time.
test.describe.configure({ mode: 'serial' });
test.beforeAll(allowManySubmissions);

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const BUSINESS_ZONE = 'America/New_York';

interface Slot {
  starts_at: string;
  ends_at: string;
}

async function freeSlots(): Promise<Slot[]> {
  const anon = await anonClient();
  const { data, error } = await anon.rpc('get_demo_slots');
  if (error) throw new Error(`get_demo_slots: ${error.message}`);
  return data as Slot[];
}

/** A demo booked as a visitor does (the /demo page's function), in the nth free slot. */
async function bookDemo(company: string, nth = 0) {
  const slot = (await freeSlots())[nth];
  if (!slot) throw new Error('No free slot to book');
  const email = uniqueEmail('visitor');
  const anon = await anonClient();
  const { data, error } = await anon.rpc('book_demo', {
    starts_at: slot.starts_at,
    full_name: 'Avery Chen',
    email,
    company,
    team_size: '21-50',
    time_zone: 'Asia/Tokyo',
    notes: 'We would like to see the hand-off to a CSM.',
  });
  if (error) throw new Error(`book_demo: ${error.message}`);
  return { id: (data as { id: string }).id, email, startsAt: slot.starts_at };
}

/** The outbox emails of a booking with a template, and their invite's text. */
async function teamEmails(bookingId: string, template: string) {
  const service = await adminClient();
  const { data, error } = await service
    .from('outbox_messages')
    .select('recipient, subject, body_text, attachments, template')
    .eq('template', template)
    .eq('metadata->>booking_id', bookingId);
  if (error) throw new Error(`reading the outbox: ${error.message}`);
  return (
    data as {
      recipient: string;
      subject: string;
      body_text: string;
      attachments: { contentBase64: string }[];
    }[]
  ).map((email) => ({
    ...email,
    ics: Buffer.from(email.attachments[0]?.contentBase64 ?? '', 'base64')
      .toString('utf8')
      .replace(/\r\n /g, ''),
  }));
}

async function storedBooking(id: string) {
  const service = await adminClient();
  const { data, error } = await service
    .from('demo_bookings')
    .select('status, starts_at, revision, cancel_reason')
    .eq('id', id)
    .single();
  if (error) throw new Error(`reading the booking: ${error.message}`);
  return data as { status: string; starts_at: string; revision: number; cancel_reason: string };
}

async function openBooking(page: Page, company: string) {
  await page.getByLabel('Search').fill(company);
  await expect(page).toHaveURL(
    new RegExp(`q=${encodeURIComponent(company).replace(/%20/g, '\\+')}`),
  );
  await page.getByRole('link', { name: company }).click();
  await expect(page.getByRole('heading', { level: 1, name: company })).toBeVisible();
}

for (const size of sizes) {
  test.describe(`at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, bypassCSP: true });

    test('an admin cancels and moves visitors’ demos, and the visitor is emailed', async ({
      page,
    }) => {
      test.setTimeout(90_000);
      const errors = collectErrors(page);
      const suffix = Math.random().toString(36).slice(2, 8);
      const cancelCompany = `Lumen CRM ${suffix}`;
      const moveCompany = `Harbour Freight ${suffix}`;
      const toCancel = await bookDemo(cancelCompany);
      const toMove = await bookDemo(moveCompany);
      const admin = await createUser({
        email: uniqueEmail(`bookings-admin-${size.name}`),
        fullName: 'Ada Admin',
        role: 'admin',
      });

      await signIn(page, admin);
      await expect(page).toHaveURL(/\/admin$/);
      await followPortalLink(page, 'Bookings');
      await expect(page.getByRole('heading', { level: 1, name: 'Demo bookings' })).toBeVisible();
      await expect(page.getByRole('link', { name: cancelCompany })).toBeVisible();
      await page.screenshot({
        path: `test-results/admin-bookings-${size.name}-list.png`,
        fullPage: true,
      });
      expect(await axeViolations(page)).toEqual([]);

      // Cancel, with a note to the visitor.
      await openBooking(page, cancelCompany);
      await expect(page.getByText('We would like to see the hand-off to a CSM.')).toBeVisible();
      await expect(page.getByText(/\(Asia\/Tokyo\)/).first()).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await page
        .getByLabel('Note to the visitor (optional)')
        .fill('Our presenter is away that week, sorry.');
      await page.getByRole('button', { name: 'Cancel this demo' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel this demo?' });
      await expect(dialog).toContainText(toCancel.email);
      await dialog.getByRole('button', { name: 'Yes, cancel the demo' }).click();
      await expect(dialog).toBeHidden();
      await expect(
        page.getByText('This demo is cancelled, so there is nothing to change.'),
      ).toBeVisible();
      await expect(
        page.getByText('Our presenter is away that week, sorry.', { exact: true }),
      ).toBeVisible();
      expect(await storedBooking(toCancel.id)).toMatchObject({
        status: 'cancelled',
        revision: 1,
        cancel_reason: 'Our presenter is away that week, sorry.',
      });
      const [cancelMail] = await teamEmails(toCancel.id, 'demo_booking_cancelled_by_team');
      expect(cancelMail!.recipient).toBe(toCancel.email);
      expect(cancelMail!.body_text).toContain('the Cervana team has cancelled your demo');
      expect(cancelMail!.body_text).toContain('Our presenter is away that week, sorry.');
      expect(cancelMail!.ics).toContain('METHOD:CANCEL');
      expect(cancelMail!.ics).toContain('SEQUENCE:1');
      await page.screenshot({
        path: `test-results/admin-bookings-${size.name}-cancelled.png`,
        fullPage: true,
      });

      // The cancellation is in the audit log.
      await page.getByRole('link', { name: 'In the audit log' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
      const entries = page.getByRole('list', { name: 'Audit log entries' }).getByRole('listitem');
      await expect(entries).toHaveCount(1);
      await expect(entries.first()).toContainText(`${admin.email} · changed demo bookings`);

      // The visitor's email is in the email log, with the note and the cancelling invite.
      await followPortalLink(page, 'Email log');
      const mailFilters = page.getByRole('form', { name: 'Filter the email log' });
      await mailFilters.getByLabel('Recipient contains').fill(toCancel.email);
      await mailFilters.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('link', { name: cancelMail!.subject }).first().click();
      await expect(
        page.getByRole('heading', { level: 1, name: cancelMail!.subject }),
      ).toBeVisible();
      await expect(page.getByText('Our presenter is away that week, sorry.').first()).toBeVisible();
      // The invite is listed with its text (folded away until opened).
      await expect(page.locator('pre').filter({ hasText: 'METHOD:CANCEL' })).toHaveCount(1);

      // Move the other to another day's first free time.
      await followPortalLink(page, 'Bookings');
      await openBooking(page, moveCompany);
      await page.getByRole('button', { name: 'Move to another time' }).click();
      const day = page.getByLabel(/^Day \(/);
      await expect(day).toBeVisible();
      const secondDay = await day.locator('option').nth(1).getAttribute('value');
      await day.selectOption(secondDay!);
      const firstTime = page.getByRole('group', { name: 'Time' }).getByRole('button').first();
      const chosen = await firstTime.getAttribute('aria-label');
      await firstTime.click();
      await expect(firstTime).toHaveAttribute('aria-pressed', 'true');
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: /^Move to / }).click();
      await expect(
        page.getByText('Demo moved. The visitor has been emailed the new invite.'),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: 'Move to another time' })).toBeVisible();
      const moved = await storedBooking(toMove.id);
      expect(moved).toMatchObject({ status: 'confirmed', revision: 1 });
      expect(new Date(moved.starts_at).getTime()).not.toBe(new Date(toMove.startsAt).getTime());
      await expect(page.getByRole('list', { name: 'Changes to this booking' })).toContainText(
        'Starts:',
      );
      expect(chosen).toBeTruthy();
      const [movedMail] = await teamEmails(toMove.id, 'demo_booking_rescheduled_by_team');
      expect(movedMail!.subject).toMatch(/^The Cervana team moved your demo to .*\(Asia\/Tokyo\)$/);
      expect(movedMail!.ics).toContain('METHOD:REQUEST');
      expect(movedMail!.ics).toContain('SEQUENCE:1');
      const dtstart = new Date(moved.starts_at)
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, '');
      expect(movedMail!.ics).toContain(`DTSTART:${dtstart}`);
      await page.screenshot({
        path: `test-results/admin-bookings-${size.name}-moved.png`,
        fullPage: true,
      });
      expect(errors).toEqual([]);
    });

    test('a day without demos disappears from /demo at once, and comes back', async ({
      page,
      browser,
    }) => {
      test.setTimeout(90_000);
      const errors = collectErrors(page);
      // The last day with free times (far from the bookings other tests make), in the business's zone.
      const slots = await freeSlots();
      const last = slots.at(-1)!;
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: BUSINESS_ZONE }).format(
        new Date(last.starts_at),
      );
      const shortDay = new Intl.DateTimeFormat('en-GB', {
        timeZone: BUSINESS_ZONE,
        day: 'numeric',
        month: 'short',
      }).format(new Date(last.starts_at));
      const admin = await createUser({
        email: uniqueEmail(`availability-admin-${size.name}`),
        fullName: 'Ada Admin',
        role: 'admin',
      });

      const visitor = await browser.newPage({
        viewport: { width: size.width, height: size.height },
      });
      const demoDays = async () => {
        await visitor.goto('/demo');
        await visitor.getByLabel('Your time zone').selectOption(BUSINESS_ZONE);
        const group = visitor.getByRole('group', { name: 'Days with free times' });
        await expect(group).toBeVisible();
        return group.getByRole('button', { name: new RegExp(`\\b${shortDay}\\b`) });
      };
      await expect(await demoDays()).toHaveCount(1);

      await signIn(page, admin);
      await expect(page).toHaveURL(/\/admin$/);
      await followPortalLink(page, 'Availability');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Demo availability' }),
      ).toBeVisible();
      await expect(page.getByRole('group', { name: 'Monday hours 1' })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);

      // Overlapping hours are refused by SQL, under the range it names; nothing is saved.
      await page.getByRole('button', { name: 'Add hours on Monday' }).click();
      const added = page.getByRole('group', { name: 'Monday hours 2' });
      await added.getByLabel('Until').fill('18:00');
      await page.getByRole('button', { name: 'Save weekly hours' }).click();
      await expect(added).toContainText('This range overlaps 09:00–17:00 on the same day.');
      await expect(added.getByLabel('From')).toHaveAttribute('aria-invalid', 'true');
      await page.screenshot({
        path: `test-results/admin-availability-${size.name}-refused.png`,
        fullPage: true,
      });
      await added.getByRole('button', { name: 'Remove Monday hours 2' }).click();
      await expect(added).toBeHidden();

      const form = page.getByRole('form', { name: 'Add a day without demos' });
      await form.getByLabel('Day').fill(day);
      await form.getByLabel('Reason (optional)').fill('Team off-site');
      await form.getByRole('button', { name: 'Add day' }).click();
      const list = page.getByRole('list', { name: 'Days without demos' });
      await expect(list).toContainText('Team off-site');
      await page.screenshot({
        path: `test-results/admin-availability-${size.name}.png`,
        fullPage: true,
      });

      await expect(await demoDays()).toHaveCount(0);

      // Refused in SQL, shown under the field.
      await form.getByLabel('Day').fill(day);
      await form.getByRole('button', { name: 'Add day' }).click();
      await expect(page.getByText('That day is already without demos.')).toBeVisible();

      const removeButtons = list.getByRole('button', { name: /^Remove / });
      const countBefore = await removeButtons.count();
      await list
        .getByRole('listitem')
        .filter({ hasText: 'Team off-site' })
        .getByRole('button', { name: /^Remove / })
        .click();
      await page
        .getByRole('dialog', { name: 'Open this day for demos again?' })
        .getByRole('button', { name: 'Yes, remove the day' })
        .click();
      await expect(removeButtons).toHaveCount(countBefore - 1);
      await expect(await demoDays()).toHaveCount(1);
      await visitor.close();
      // The browser's only "errors" are the two 400s the refusals above were meant to get.
      expect(errors).toEqual(
        Array(2).fill(
          'Failed to load resource: the server responded with a status of 400 (Bad Request)',
        ),
      );
    });
  });
}
