import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SALES_INBOX, startFormsServer } from '../forms/forms-testing';
import { clientFor, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * Security issue 22, "beyond the seven": the sales form mailed a confirmation
 * to an address nobody verified, greeting the visitor by name and repeating
 * their company, so anyone could have Cervana send their words (a link, a
 * "your account is suspended") to anyone. The confirmation now carries
 * nothing the visitor typed and links only to our site; the sales inbox,
 * which is ours, still gets everything.
 */

let server: TestServer;
let anon: SupabaseClient;
let service: SupabaseClient;
let siteUrl: string;

beforeAll(async () => {
  server = await startFormsServer();
  anon = clientFor(server);
  service = clientFor(server, { key: server.serviceRoleKey });
  const { rows } = await server.db.query<{ site_url: string }>(
    `select site_url from public.site_settings`,
  );
  siteUrl = rows[0]!.site_url;
});
afterAll(() => server?.close());

interface OutboxRow {
  recipient: string;
  template: string;
  subject: string | null;
  body_text: string;
  body_html: string | null;
  metadata: Record<string, unknown>;
}

/** What the phisher types: a name, a company, a role and a message full of their own words. */
const HOSTILE = {
  full_name: 'Urgent https://evil.example/login Rivera',
  company: 'Your account is suspended: verify at http://evil.example/v or call +1 555 0100',
  job_role: 'Reply with your password',
  message: 'Click https://evil.example/reset to keep your account.',
};
/** Fragments of HOSTILE that must not reach the visitor's address in any form. */
const FORBIDDEN = [
  'Urgent',
  'Rivera',
  'evil.example',
  'suspended',
  '555 0100',
  'password',
  'Click',
  'keep your account',
];

/** The outbox rows of a lead, read through the API as the service role. */
async function outboxOf(leadId: string): Promise<OutboxRow[]> {
  const { data, error } = await service
    .from('outbox_messages')
    .select('recipient, template, subject, body_text, body_html, metadata')
    .eq('metadata->>lead_id', leadId)
    .order('template');
  expect(error).toBeNull();
  return data as OutboxRow[];
}

describe('the sales form is no mail relay', () => {
  it('mails the visitor none of what they typed, and links only to our site', async () => {
    const email = uniqueEmail('target');
    const result = await anon.rpc('submit_sales_inquiry', {
      ...HOSTILE,
      email,
      team_size: '6-20',
      monthly_call_volume: '500-2000',
      consent: true,
      tools: ['Visit evil.example now'],
      fax: '',
    });
    expect(result.error).toBeNull();
    const lead = result.data as { id: string; reference: string };

    const rows = await outboxOf(lead.id);
    const toVisitor = rows.filter((row) => row.recipient === email);
    expect(toVisitor.map((row) => row.template)).toEqual(['sales_inquiry_confirmation']);
    const confirmation = toVisitor[0]!;
    // Subject, text, HTML and the layout the sender renders the HTML from.
    const everything = JSON.stringify(confirmation);
    for (const fragment of FORBIDDEN) {
      expect(everything.toLowerCase(), fragment).not.toContain(fragment.toLowerCase());
    }
    expect(confirmation.subject).toBe('We received your message');
    expect(confirmation.body_text).toContain(`Your reference: ${lead.reference}.`);
    const links = everything.match(/\b(?:https?:\/\/|www\.)[^\s"'<>\\]+/gi) ?? [];
    expect(links.length).toBeGreaterThan(0);
    for (const link of links.map((found) => found.replace(/[.,;:!?)]+$/, ''))) {
      expect(link === siteUrl || link.startsWith(`${siteUrl}/`), link).toBe(true);
    }

    // The notification goes to our own inbox and keeps what the visitor said.
    const toSales = rows.find((row) => row.recipient === SALES_INBOX);
    expect(toSales?.template).toBe('sales_inquiry_notification');
    expect(toSales?.body_text).toContain(HOSTILE.company);
    expect(toSales?.body_text).toContain(HOSTILE.full_name);
    expect(toSales?.body_text).toContain(HOSTILE.message);
  });

  it('sends a plain name no differently: the greeting is the same for everyone', async () => {
    const email = uniqueEmail('plain');
    const result = await anon.rpc('submit_sales_inquiry', {
      full_name: 'Jordan Rivera',
      email,
      company: 'Northwind Logistics',
      team_size: '21-50',
      monthly_call_volume: '2000-10000',
      consent: true,
      fax: '',
    });
    expect(result.error).toBeNull();
    const [confirmation] = (await outboxOf((result.data as { id: string }).id)).filter(
      (row) => row.recipient === email,
    );
    expect(confirmation?.subject).toBe('We received your message');
    expect(JSON.stringify(confirmation)).not.toMatch(/Jordan|Rivera|Northwind/);
  });

  it('mails a partner applicant, whose address is not yet confirmed, none of what they typed', async () => {
    const email = uniqueEmail('partner-target');
    const result = await anon.rpc('submit_partner_application', {
      full_name: HOSTILE.full_name,
      email,
      company: HOSTILE.company,
      partner_type: 'consultancy',
      expected_referrals: 5,
      website: 'evil.example',
      message: HOSTILE.message,
      fax: null,
    });
    expect(result.error).toBeNull();
    const { data, error } = await service
      .from('outbox_messages')
      .select('recipient, template, subject, body_text, body_html, metadata')
      .eq('recipient', email);
    expect(error).toBeNull();
    const rows = data as OutboxRow[];
    expect(rows.map((row) => row.template)).toEqual(['partner_application_confirm']);
    const everything = JSON.stringify(rows[0]).toLowerCase();
    for (const fragment of FORBIDDEN)
      expect(everything, fragment).not.toContain(fragment.toLowerCase());
  });
});
