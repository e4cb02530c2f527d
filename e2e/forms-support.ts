import { expect, type Page } from '@playwright/test';
import { adminClient } from './auth-support';

/**
 * Helpers for the public forms' specs: rows are read with the service role
 * (what an admin would see), and the per-network limit, the global hourly caps
 * and the demo caps are raised because every spec submits from 127.0.0.1, at
 * example.com addresses.
 */

export const SALES_INBOX = 'sales@cervana.ai';

export async function allowManySubmissions(): Promise<void> {
  const admin = await adminClient();
  const { error } = await admin
    .from('site_settings')
    .update({
      submissions_per_ip_per_hour: 100000,
      submissions_per_form_per_hour: 1000000,
      demo_bookings_per_domain: 10000,
      demo_bookings_per_network: 10000,
    })
    .eq('id', true);
  if (error) throw new Error(`raising the submission limits: ${error.message}`);
}

/** The rows of a table whose `email` is this address. */
export async function rowsFor(table: string, email: string): Promise<Record<string, unknown>[]> {
  const admin = await adminClient();
  const { data, error } = await admin.from(table).select('*').eq('email', email);
  if (error) throw new Error(`reading ${table}: ${error.message}`);
  return data;
}

/** The outbox rows queued for an address, oldest first. */
export async function outboxFor(
  recipient: string,
): Promise<{ template: string; subject: string }[]> {
  const admin = await adminClient();
  const { data, error } = await admin
    .from('outbox_messages')
    .select('template, subject, created_at')
    .eq('recipient', recipient)
    .order('created_at');
  if (error) throw new Error(`reading the outbox: ${error.message}`);
  return data;
}

/** The first free slot on the page's first day with slots; returns its label. */
export async function pickFirstSlot(page: Page, index = 0): Promise<string> {
  const slots = page.getByRole('group', { name: 'Days with free times' });
  await expect(slots).toBeVisible();
  const slot = page.locator('fieldset button[aria-pressed]').nth(index);
  const label = (await slot.getAttribute('aria-label')) ?? '';
  await slot.click();
  return label;
}

export async function fillBookingForm(
  page: Page,
  details: { fullName: string; email: string; company: string; teamSize?: string },
): Promise<void> {
  await page.getByLabel('Full name').fill(details.fullName);
  await page.getByLabel('Work email').fill(details.email);
  await page.getByLabel('Company').fill(details.company);
  await page.getByLabel('Customer success team size').selectOption(details.teamSize ?? '6-20');
}
