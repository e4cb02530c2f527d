import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlFromLayout } from '../mail/sender';
import { clientFor, latestMessage, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';
import { SALES_INBOX, application, emailsFor, inquiry, startFormsServer } from './forms-testing';

/**
 * The sales inbox's notifications (issue 13): until the admin area shows leads,
 * bookings and partner applications, they link to none of it
 * (/admin?tab=leads, ?tab=bookings, ?tab=partners showed nothing), and carry in
 * their body everything sales needs to act.
 */

let server: TestServer;
let anon: SupabaseClient;

beforeAll(async () => {
  server = await startFormsServer();
  anon = clientFor(server);
});
afterAll(() => server?.close());

interface Note {
  template: string;
  body_text: string;
  metadata: Record<string, unknown> & { layout?: { action?: unknown; paragraphs?: string[] } };
}

/** The sales inbox's notifications about one lead, booking or application. */
async function notesFor(key: string, id: string): Promise<Note[]> {
  const { rows } = await server.db.query<Note>(
    `select template, body_text, metadata from public.outbox_messages
     where recipient = $1 and metadata ->> $2 = $3 order by created_at, template`,
    [SALES_INBOX, key, id],
  );
  return rows;
}

/** No button, no link to the admin area, in the text or in the HTML drawn from the layout. */
function expectNoAdminLink(note: Note): void {
  expect(note.metadata.layout).toBeDefined();
  expect(note.metadata.layout!.action).toBeUndefined();
  expect(note.body_text).not.toContain('/admin');
  const html = htmlFromLayout(note.metadata)!;
  expect(html).toContain(note.metadata.layout!.paragraphs![0]!.slice(0, 10));
  expect(html).not.toContain('/admin');
  expect(html).not.toContain('Or paste this link');
}

describe('the sales inbox notifications', () => {
  it('of a sales inquiry: no link, every detail and the visitor’s reference', async () => {
    const email = uniqueEmail('lead');
    const result = await anon.rpc('submit_sales_inquiry', inquiry({ email }));
    expect(result.error).toBeNull();
    const { id, reference } = result.data as { id: string; reference: string };

    const [note, ...others] = await notesFor('lead_id', id);
    expect(others).toEqual([]);
    expect(note!.template).toBe('sales_inquiry_notification');
    expectNoAdminLink(note!);
    for (const detail of [
      `Ada Lovelace <${email}>, Head of Customer Success at Analytical Engines.`,
      'Team size: 6-20. Monthly calls: 500-2000. Tools: Zendesk, HubSpot.',
      'Message: We answer 900 calls a month.\nCan you help?',
      'No referral.',
      `Reference: ${reference} (the visitor has it too).`,
    ]) {
      expect(note!.body_text).toContain(detail);
    }
    // The visitor's confirmation still links to the demo page, as before.
    const confirmation = await latestMessage(server.db, email, 'sales_inquiry_confirmation');
    expect(confirmation.body_text).toContain(`Book a demo now: ${server.config.siteUrl}/demo`);
  });

  it('of a demo booked, moved and cancelled: no link, and when it is', async () => {
    const slots = (await anon.rpc('get_demo_slots')).data as { starts_at: string }[];
    expect(slots.length).toBeGreaterThan(2);
    const booked = await anon.rpc('book_demo', {
      starts_at: slots[0]!.starts_at,
      full_name: 'Bo Booker',
      email: uniqueEmail('booker'),
      company: 'Booker & Sons, Inc.',
      team_size: '21-50',
      time_zone: 'Europe/Paris',
      notes: 'Show us hand-offs.',
    });
    expect(booked.error).toBeNull();
    const id = (booked.data as { id: string }).id;
    const visitor = (await emailsFor(server, 'booking_id', id)).find(
      (email) => email.template === 'demo_booking_booked',
    )!;
    const token = /\/demo\?booking=([0-9a-f]{64})\b/.exec(visitor.body_text)![1]!;
    // The visitor's email keeps its manage link.
    expect(visitor.body_text).toContain(`${server.config.siteUrl}/demo?booking=${token}`);

    const moved = await anon.rpc('reschedule_demo_booking', {
      token,
      starts_at: slots[2]!.starts_at,
      time_zone: 'Europe/Paris',
    });
    expect(moved.error).toBeNull();
    const cancelled = await anon.rpc('cancel_demo_booking', { token, reason: 'Found a partner' });
    expect(cancelled.error).toBeNull();

    const notes = await notesFor('booking_id', id);
    expect(notes.map((note) => note.template).sort()).toEqual([
      'demo_booking_booked_notification',
      'demo_booking_cancelled_notification',
      'demo_booking_rescheduled_notification',
    ]);
    for (const note of notes) {
      expectNoAdminLink(note);
      expect(note.body_text).toContain('Bo Booker <');
      expect(note.body_text).toContain('at Booker & Sons, Inc. (team of 21-50).');
      expect(note.body_text).toContain('Notes: Show us hand-offs.');
      expect(note.body_text).toMatch(/^When: .+ \(America\/New_York\)\.$/m);
    }
    expect(notes.find((note) => note.template.includes('cancelled'))!.body_text).toContain(
      'Reason: Found a partner',
    );
  });

  it('of a confirmed partner application: no link, every detail and the reference', async () => {
    const email = uniqueEmail('applicant');
    expect((await anon.rpc('submit_partner_application', application({ email }))).error).toBeNull();
    const message = await latestMessage(server.db, email, 'partner_application_confirm');
    const token = /\/partner\?confirm=([0-9a-f]{64})\b/.exec(message.body_text)![1]!;
    const confirmed = await anon.rpc('confirm_partner_application', { token });
    expect(confirmed.error).toBeNull();
    const { reference } = confirmed.data as { reference: string };
    const { rows } = await server.db.query<{ id: string }>(
      `select id from public.partner_applications where email = $1`,
      [email],
    );

    const [note, ...others] = await notesFor('application_id', rows[0]!.id);
    expect(others).toEqual([]);
    expect(note!.template).toBe('partner_application_notification');
    expectNoAdminLink(note!);
    for (const detail of [
      `Priya Patel <${email}> at Brightpath Advisors (https://brightpath.example.com).`,
      'Type: consultancy. Expected referrals a month: 5.',
      'Message: We advise 40 CS teams.',
      'The applicant confirmed their email address.',
      `Reference: ${reference} (the applicant has it too).`,
    ]) {
      expect(note!.body_text).toContain(detail);
    }
  });

  it('none of the messages queued here links to the admin area', async () => {
    const { rows } = await server.db.query<{ count: number }>(
      `select count(*)::int as count from public.outbox_messages
       where body_text like '%/admin%' or metadata::text like '%/admin%'`,
    );
    expect(rows[0]!.count).toBe(0);
  });
});
