import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import { syncSiteSettings } from '../db/site-settings';
import { PASSWORD, createSignedInUser, passSecondFactor } from '../schema/test-world';
import { clientFor, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Shared by the public forms' integration tests (server/forms/*.int.test.ts):
 * signed-in clients, the shape of a refusal, counting what was stored, and
 * reading the outbox rows a form queued.
 */

export const SALES_INBOX = 'sales-team@example.com';

/** The limits that every test request (one network, one domain) would otherwise hit. */
export const ALLOW_MANY_SUBMISSIONS = `update public.site_settings set
  submissions_per_ip_per_hour = 100000, submissions_per_form_per_hour = 1000000,
  demo_bookings_per_domain = 10000, demo_bookings_per_network = 10000`;

/**
 * The test server of a forms test file. Its settings are written to
 * site_settings as server/main.ts does at start (the harness does not), with a
 * sales inbox of ours; the per-IP limit, the global hourly caps and the demo
 * caps are out of the way (every test request comes from 127.0.0.1, and most
 * test addresses are at example.com).
 */
export async function startFormsServer(env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer({ env: { SALES_INBOX, ...env } });
  await syncSiteSettings(server.db, server.config);
  await server.db.query(ALLOW_MANY_SUBMISSIONS);
  return server;
}

export interface SignedIn {
  id: string;
  email: string;
  client: SupabaseClient;
}

/** A confirmed user made through the auth API, with a client holding their session. */
export async function signedInClient(
  server: TestServer,
  spec: { fullName: string; company?: string; role?: 'partner' | 'admin' },
): Promise<SignedIn> {
  const user = await createSignedInUser(server, spec);
  const client = clientFor(server);
  const { error } = await client.auth.signInWithPassword({ email: user.email, password: PASSWORD });
  if (error) throw error;
  // An admin's data needs aal2: sign in as the app makes them, with the code.
  if (user.factor) await passSecondFactor(client, user.factor);
  return { id: user.id, email: user.email, client };
}

interface ApiResult {
  data: unknown;
  error: { code: string; message: string; details: string | null } | null;
  status: number;
}

/** A refusal as the visitor sees it: the status, the field (details) and a sentence. */
export function expectRefusal(result: ApiResult, status: number, details: string): void {
  expect(
    { status: result.status, details: result.error?.details, data: result.data },
    result.error?.message,
  ).toEqual({ status, details, data: null });
  // A sentence for people, not a code or a stack: capital first, full stop last.
  expect(result.error!.message).toMatch(/^["A-Z][^\n]{10,}[.!?]$/);
}

/** Rows in a table (as the superuser, outside RLS). */
export async function countRows(server: TestServer, table: string): Promise<number> {
  const { rows } = await server.db.query<{ count: number }>(
    `select count(*)::int as count from ${table}`,
  );
  return rows[0]!.count;
}

/** The number of rows in each table, to show a refused call stored nothing. */
export async function snapshot(
  server: TestServer,
  tables: string[],
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = await countRows(server, table);
  return counts;
}

export interface QueuedEmail {
  recipient: string;
  template: string;
  subject: string;
  body_text: string;
  attachments: { filename: string; contentType: string; contentBase64: string }[];
  created_at: string;
}

/** The outbox rows whose metadata names `key` = `id` (lead_id, booking_id, application_id). */
export async function emailsFor(
  server: TestServer,
  key: string,
  id: string,
): Promise<QueuedEmail[]> {
  const { rows } = await server.db.query<QueuedEmail>(
    `select recipient, template, subject, body_text, attachments, created_at::text as created_at
     from public.outbox_messages where metadata ->> $1 = $2 order by created_at, template`,
    [key, id],
  );
  return rows;
}

/** The .ics of an email's first attachment, lines unfolded. */
export function inviteOf(email: QueuedEmail): string {
  const attachment = email.attachments[0];
  if (!attachment) throw new Error(`${email.template} has no attachment`);
  return Buffer.from(attachment.contentBase64, 'base64').toString('utf8').replace(/\r\n /g, '');
}

/** One property of an .ics ("UID", "SEQUENCE", …). */
export function icsProperty(ics: string, name: string): string | undefined {
  const line = ics.split('\r\n').find((candidate) => candidate.startsWith(`${name}:`));
  return line?.slice(name.length + 1);
}

/** The arguments of submit_sales_inquiry for a sound inquiry, with `overrides`. */
export function inquiry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    full_name: 'Ada Lovelace',
    email: uniqueEmail('lead'),
    company: 'Analytical Engines',
    team_size: '6-20',
    monthly_call_volume: '500-2000',
    consent: true,
    job_role: 'Head of Customer Success',
    tools: ['Zendesk', 'HubSpot'],
    message: 'We answer 900 calls a month.\nCan you help?',
    fax: '',
    ...overrides,
  };
}

/** The arguments of submit_partner_application for a sound application, with `overrides`. */
export function application(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    full_name: 'Priya Patel',
    email: uniqueEmail('applicant'),
    company: 'Brightpath Advisors',
    partner_type: 'consultancy',
    expected_referrals: 5,
    website: 'brightpath.example.com',
    message: 'We advise 40 CS teams.',
    fax: null,
    ...overrides,
  };
}
