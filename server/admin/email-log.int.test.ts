import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  application,
  expectRefusal,
  inquiry,
  signedInClient,
  snapshot,
  startFormsServer,
  type SignedIn,
} from '../forms/forms-testing';
import {
  delay,
  Inbox,
  signedInRealtimeClient,
  subscribe,
  uniqueTopic,
} from '../realtime/realtime-testing';
import { clientFor, codeIn, latestMessage, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * The admin email log (issue 17, decision 026): admins read the outbox only
 * through functions that hide every link and code granting access, preview a
 * message, resend a copy (audited, refused for secrets and repeated clicks)
 * and retry a delivery (audited). Customers, partners and anonymous callers
 * get none of it, and the table stays closed to every API role and to
 * realtime.
 */

let server: TestServer;
let admin: SignedIn;
let customer: SignedIn;
let partner: SignedIn;
let anon: SupabaseClient;
const realtime: SupabaseClient[] = [];

interface ListedEmail {
  id: string;
  recipient: string;
  subject: string | null;
  template: string;
  status: string;
  created_at: string;
  is_secret: boolean;
  resent_from: string | null;
}

async function salesEmail(): Promise<{ id: string; recipient: string }> {
  const email = uniqueEmail('visitor');
  const submitted = await anon.rpc('submit_sales_inquiry', inquiry({ email }));
  expect(submitted.error).toBeNull();
  const message = await latestMessage(server.db, email, 'sales_inquiry_confirmation');
  return { id: message.id, recipient: email };
}

/** Waits until the test server's sender has delivered a message (to the log), so it cannot overwrite a test's change. */
async function delivered(id: string): Promise<void> {
  for (let tries = 0; tries < 100; tries += 1) {
    const { rows } = await server.db.query<{ status: string }>(
      `select status from public.outbox_messages where id = $1`,
      [id],
    );
    if (rows[0]?.status !== 'pending') break;
    await delay(50);
  }
}

async function auditFor(id: string) {
  const { rows } = await server.db.query<{
    actor_id: string;
    action: string;
    target_table: string;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  }>(
    `select actor_id, action, target_table, before, after
     from public.admin_audit_log where target_id = $1 order by id`,
    [id],
  );
  return rows;
}

beforeAll(async () => {
  server = await startFormsServer();
  admin = await signedInClient(server, { fullName: 'Ada Admin', role: 'admin' });
  customer = await signedInClient(server, { fullName: 'Cal Customer', company: 'Cal Co' });
  partner = await signedInClient(server, { fullName: 'Pia Partner', role: 'partner' });
  anon = clientFor(server);
});
afterAll(async () => {
  await Promise.all(realtime.map((client) => client.removeAllChannels()));
  await server?.close();
});

describe('who may use the email log', () => {
  it('refuses customers, partners and anonymous callers every function, storing nothing', async () => {
    const { id } = await salesEmail();
    const before = await snapshot(server, ['public.outbox_messages', 'public.admin_audit_log']);
    const calls = [
      ['admin_list_emails', {}],
      ['admin_email_templates', {}],
      ['admin_failed_email_count', {}],
      ['admin_get_email', { p_message_id: id }],
      ['resend_outbox_message', { p_message_id: id }],
      ['retry_outbox_message', { p_message_id: id }],
    ] as const;
    for (const [name, args] of calls) {
      for (const caller of [customer.client, partner.client]) {
        const result = await caller.rpc(name, args);
        expect(result.status, name).toBe(403);
        expect(result.data).toBeNull();
        expect(result.error?.message).toMatch(/^Only Cervana admins can .+\.$/);
      }
      const result = await anon.rpc(name, args);
      expect(result.status, name).toBe(401);
      expect(result.data).toBeNull();
    }
    expect(await snapshot(server, ['public.outbox_messages', 'public.admin_audit_log'])).toEqual(
      before,
    );
  });

  it('keeps the table itself closed to every API role, admins included', async () => {
    await salesEmail();
    for (const caller of [anon, customer.client, partner.client, admin.client]) {
      const read = await caller.from('outbox_messages').select('id, body_text');
      expect(read.data ?? []).toEqual([]);
      const write = await caller
        .from('outbox_messages')
        .insert({ channel: 'email', recipient: 'x@example.com', body_text: 'x', template: 'x' });
      expect(write.error).not.toBeNull();
      const change = await caller
        .from('outbox_messages')
        .update({ status: 'sent' })
        .neq('status', 'none')
        .select('id');
      expect(change.data ?? []).toEqual([]);
    }
  });

  it('sends no outbox change to anyone over realtime', async () => {
    const customerLive = await signedInRealtimeClient(server, { fullName: 'Cy Live' });
    const adminLive = await signedInRealtimeClient(server, { role: 'admin', fullName: 'Al Live' });
    realtime.push(customerLive.client, adminLive.client);
    const seen = new Inbox<unknown>();
    for (const client of [customerLive.client, adminLive.client]) {
      await subscribe(
        client
          .channel(uniqueTopic('outbox'))
          .on(
            'postgres_changes',
            { event: '*', schema: 'public', table: 'outbox_messages' },
            (change) => seen.push(change),
          ),
      );
    }
    await salesEmail();
    await delay(1000);
    expect(seen.items).toEqual([]);
  });
});

describe('admin_list_emails', () => {
  it('lists the newest first with what each row needs, and filters by state, kind, channel and recipient', async () => {
    const { id, recipient } = await salesEmail();
    const all = await admin.client.rpc('admin_list_emails', { p_limit: 5 });
    expect(all.error).toBeNull();
    const rows = all.data as ListedEmail[];
    expect(rows.length).toBe(5);
    const times = rows.map((row) => Date.parse(row.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const found = await admin.client.rpc('admin_list_emails', {
      p_recipient: recipient.slice(0, 20).toUpperCase(),
      p_template: 'sales_inquiry_confirmation',
      p_channel: 'email',
    });
    expect(found.data).toEqual([
      expect.objectContaining({
        id,
        recipient,
        template: 'sales_inquiry_confirmation',
        is_secret: false,
        resent_from: null,
        attempts: expect.any(Number),
        next_attempt_at: expect.any(String),
      }),
    ]);
    const wildcard = await admin.client.rpc('admin_list_emails', { p_recipient: '%_%' });
    expect(wildcard.data).toEqual([]);

    const templates = await admin.client.rpc('admin_email_templates');
    expect(templates.data).toEqual(
      expect.arrayContaining(['sales_inquiry_confirmation', 'sales_inquiry_notification']),
    );

    await delivered(id);
    await server.db.query(`update public.outbox_messages set status = 'failed' where id = $1`, [
      id,
    ]);
    const count = await admin.client.rpc('admin_failed_email_count');
    const { rows: counted } = await server.db.query<{ count: number }>(
      `select count(*)::int as count from public.outbox_messages
       where status = 'failed' and created_at >= now() - interval '7 days'`,
    );
    expect(count.data).toBe(counted[0]!.count);
    expect(count.data).toBeGreaterThanOrEqual(1);
    const failed = await admin.client.rpc('admin_list_emails', { p_status: 'failed' });
    expect((failed.data as ListedEmail[]).map((row) => row.id)).toContain(id);
    expect((failed.data as ListedEmail[]).every((row) => row.status === 'failed')).toBe(true);
  });

  it('refuses bad filters with a sentence naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ p_status: 'bounced' }, 'status'],
      [{ p_channel: 'fax' }, 'channel'],
      [{ p_template: 'x'.repeat(101) }, 'template'],
      [{ p_recipient: 'x'.repeat(321) }, 'recipient'],
      [{ p_after_created_at: new Date().toISOString() }, 'cursor'],
      [{ p_limit: 0 }, 'limit'],
      [{ p_limit: 201 }, 'limit'],
    ];
    for (const [args, field] of cases) {
      expectRefusal(await admin.client.rpc('admin_list_emails', args), 400, field);
    }
  });

  it('pages by cursor through rows that share created_at, every row once', async () => {
    const template = `test.paging_${Date.now()}`;
    await server.db.query(
      `insert into public.outbox_messages (channel, recipient, subject, body_text, template, created_at, status)
       select 'email', 'page' || n || '@example.com', 'Page ' || n, 'Body', $1,
              '2026-01-01T00:00:00Z'::timestamptz + ((n / 7) || ' seconds')::interval, 'logged'
       from generate_series(1, 53) n`,
      [template],
    );
    const seen: string[] = [];
    let cursor: { p_after_created_at?: string; p_after_id?: string } = {};
    for (let page = 0; page < 20; page += 1) {
      const result = await admin.client.rpc('admin_list_emails', {
        p_template: template,
        p_limit: 10,
        ...cursor,
      });
      expect(result.error).toBeNull();
      const rows = result.data as ListedEmail[];
      seen.push(...rows.map((row) => row.id));
      if (rows.length < 10) break;
      const last = rows.at(-1)!;
      cursor = { p_after_created_at: last.created_at, p_after_id: last.id };
    }
    expect(seen.length).toBe(53);
    expect(new Set(seen).size).toBe(53);
  });
});

describe('secrets stay hidden', () => {
  it('shows a magic-link email without its link token or code anywhere an admin can read', async () => {
    // Another admin's account: the worst case of a sign-in link in the log.
    const { email } = await signedInClient(server, { fullName: 'Vic Victim', role: 'admin' });
    const sent = await clientFor(server).auth.signInWithOtp({ email });
    expect(sent.error).toBeNull();
    const raw = await latestMessage(server.db, email, 'auth.magic_link');
    const token = new URL(raw.metadata.link!).searchParams.get('token')!;
    const code = codeIn(raw);
    expect(token.length).toBeGreaterThan(10);
    expect(raw.body_html).toContain(token);

    const listed = await admin.client.rpc('admin_list_emails', { p_recipient: email });
    const preview = await admin.client.rpc('admin_get_email', { p_message_id: raw.id });
    expect(preview.error).toBeNull();
    const everything = JSON.stringify([listed.data, preview.data]);
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(code);
    expect(everything).toContain('[hidden]');
    const shown = preview.data as { body_text: string; body_html: string; is_secret: boolean };
    expect(shown.is_secret).toBe(true);
    expect(shown.body_text).toContain('/auth/v1/verify?token=[hidden]&type=magiclink');
    expect(shown.body_text).toContain('Your code: [hidden]');
    expect(shown.body_html).toContain('token=[hidden]&amp;type=magiclink');

    const resend = await admin.client.rpc('resend_outbox_message', { p_message_id: raw.id });
    expectRefusal(resend, 400, 'message_id');
    expect(resend.error!.message).toMatch(/sign-in link or a one-time code/);
  });

  it('hides a booking’s manage token in the text, the layout and the .ics invite', async () => {
    const email = uniqueEmail('booker');
    const slots = await anon.rpc('get_demo_slots');
    const booked = await anon.rpc('book_demo', {
      starts_at: (slots.data as { starts_at: string }[])[0]!.starts_at,
      full_name: 'Bea Booker',
      email,
      company: 'Booker Co',
      team_size: '6-20',
      time_zone: 'America/Chicago',
    });
    expect(booked.error).toBeNull();
    const raw = await latestMessage(server.db, email, 'demo_booking_booked');
    const token = /booking=([^\s&]+)/.exec(raw.body_text)![1]!;
    const preview = await admin.client.rpc('admin_get_email', { p_message_id: raw.id });
    expect(preview.error).toBeNull();
    expect(JSON.stringify(preview.data)).not.toContain(token);
    const shown = preview.data as {
      attachments: { filename: string; content_type: string; size: number; text: string }[];
    };
    expect(shown.attachments).toEqual([
      expect.objectContaining({
        filename: 'cervana-demo.ics',
        content_type: expect.stringMatching(/^text\/calendar/),
        size: expect.any(Number),
        text: expect.stringContaining('booking=[hidden]'),
      }),
    ]);
    expect(shown.attachments[0]!.text).toContain('BEGIN:VCALENDAR');
  });

  it('hides a partner application’s confirmation token', async () => {
    const email = uniqueEmail('applicant');
    expect((await anon.rpc('submit_partner_application', application({ email }))).error).toBeNull();
    const raw = await latestMessage(server.db, email, 'partner_application_confirm');
    const token = /confirm=([^\s&]+)/.exec(raw.body_text)![1]!;
    const preview = await admin.client.rpc('admin_get_email', { p_message_id: raw.id });
    expect(JSON.stringify(preview.data)).not.toContain(token);
    expect(JSON.stringify(preview.data)).toContain('confirm=[hidden]');
  });
});

describe('admin_get_email', () => {
  it('previews a message with its text, layout, metadata and delivery', async () => {
    const { id, recipient } = await salesEmail();
    const preview = await admin.client.rpc('admin_get_email', { p_message_id: id });
    expect(preview.error).toBeNull();
    expect(preview.data).toMatchObject({
      id,
      recipient,
      channel: 'email',
      template: 'sales_inquiry_confirmation',
      body_text: expect.stringContaining('Cervana'),
      layout: expect.objectContaining({ heading: expect.any(String) }),
      metadata: expect.objectContaining({ lead_id: expect.any(String) }),
      attachments: [],
      resends: [],
      attempts: expect.any(Number),
    });
    expect(preview.data).not.toHaveProperty('metadata.layout');
  });

  it('answers 404 for an unknown message and 400 for none', async () => {
    const missing = await admin.client.rpc('admin_get_email', {
      p_message_id: '00000000-0000-4000-8000-000000000000',
    });
    expectRefusal(missing, 404, 'message_id');
    expectRefusal(
      await admin.client.rpc('admin_get_email', { p_message_id: null }),
      400,
      'message_id',
    );
    const malformed = await admin.client.rpc('admin_get_email', { p_message_id: 'not-a-uuid' });
    expect(malformed.status).toBe(400);
  });
});

describe('resend_outbox_message', () => {
  it('queues a copy to the same recipient, keeps the original, and logs who resent it', async () => {
    const { id, recipient } = await salesEmail();
    const before = await server.db.query(`select * from public.outbox_messages where id = $1`, [
      id,
    ]);
    const resent = await admin.client.rpc('resend_outbox_message', { p_message_id: id });
    expect(resent.error).toBeNull();
    const copyId = (resent.data as { id: string }).id;
    expect(copyId).not.toBe(id);

    const { rows } = await server.db.query<{
      recipient: string;
      subject: string;
      body_text: string;
      template: string;
      metadata: Record<string, unknown>;
    }>(
      `select recipient, subject, body_text, template, metadata from public.outbox_messages where id = $1`,
      [copyId],
    );
    const original = before.rows[0] as { subject: string; body_text: string };
    expect(rows[0]).toMatchObject({
      recipient,
      subject: original.subject,
      body_text: original.body_text,
      template: 'sales_inquiry_confirmation',
      metadata: expect.objectContaining({
        resent_from: id,
        resent_by: admin.id,
        resent_by_email: admin.email,
      }),
    });
    const after = await server.db.query(`select * from public.outbox_messages where id = $1`, [id]);
    expect(after.rows[0]).toMatchObject({
      subject: original.subject,
      body_text: original.body_text,
    });

    expect(await auditFor(copyId)).toEqual([
      {
        actor_id: admin.id,
        action: 'insert',
        target_table: 'outbox_messages',
        before: null,
        after: expect.objectContaining({ resent_from: id, recipient }),
      },
    ]);
    const preview = await admin.client.rpc('admin_get_email', { p_message_id: id });
    expect((preview.data as { resends: { id: string }[] }).resends).toEqual([
      expect.objectContaining({ id: copyId, resent_by_email: admin.email }),
    ]);
    const listed = await admin.client.rpc('admin_list_emails', { p_recipient: recipient });
    expect(listed.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: copyId, resent_from: id })]),
    );
  });

  it('refuses a second click within 5 minutes, storing nothing', async () => {
    const { id } = await salesEmail();
    const clicks = await Promise.all([
      admin.client.rpc('resend_outbox_message', { p_message_id: id }),
      admin.client.rpc('resend_outbox_message', { p_message_id: id }),
    ]);
    expect(clicks.map((click) => click.status).sort()).toEqual([200, 429]);
    const before = await snapshot(server, ['public.outbox_messages', 'public.admin_audit_log']);
    const again = await admin.client.rpc('resend_outbox_message', { p_message_id: id });
    expectRefusal(again, 429, 'message_id');
    expect(await snapshot(server, ['public.outbox_messages', 'public.admin_audit_log'])).toEqual(
      before,
    );
  });

  it('refuses team invitations, SMS codes, unknown and missing ids', async () => {
    const { rows } = await server.db.query<{ id: string; template: string }>(
      `insert into public.outbox_messages (channel, recipient, subject, body_text, template)
       values ('email', 'team@example.com', 'Join', 'Join', 'team.invitation'),
              ('sms', '+15555550100', null, 'Your Cervana code is 123456.', 'auth.sms_otp')
       returning id, template`,
    );
    for (const row of rows) {
      expectRefusal(
        await admin.client.rpc('resend_outbox_message', { p_message_id: row.id }),
        400,
        'message_id',
      );
    }
    const sms = await admin.client.rpc('admin_get_email', {
      p_message_id: rows.find((row) => row.template === 'auth.sms_otp')!.id,
    });
    expect(JSON.stringify(sms.data)).not.toContain('123456');
    expectRefusal(
      await admin.client.rpc('resend_outbox_message', {
        p_message_id: '00000000-0000-4000-8000-000000000000',
      }),
      404,
      'message_id',
    );
    expectRefusal(
      await admin.client.rpc('resend_outbox_message', { p_message_id: null }),
      400,
      'message_id',
    );
  });
});

describe('retry_outbox_message', () => {
  it('makes a failed message due again, logged, and leaves delivered ones alone', async () => {
    const { id } = await salesEmail();
    await delivered(id);
    await server.db.query(
      `update public.outbox_messages
       set status = 'failed', attempts = 10, last_error = '550 no such mailbox',
           next_attempt_at = now() + interval '1 day'
       where id = $1`,
      [id],
    );
    const retried = await admin.client.rpc('retry_outbox_message', { p_message_id: id });
    expect(retried.error).toBeNull();
    expect(retried.data).toMatchObject({ id, changed: true });
    expect(await auditFor(id)).toEqual([
      {
        actor_id: admin.id,
        action: 'update',
        target_table: 'outbox_messages',
        before: expect.objectContaining({ status: 'failed' }),
        after: expect.objectContaining({ status: 'pending' }),
      },
    ]);

    await server.db.query(
      `update public.outbox_messages set status = 'logged', attempts = 11 where id = $1`,
      [id],
    );
    const refused = await admin.client.rpc('retry_outbox_message', { p_message_id: id });
    expectRefusal(refused, 400, 'message_id');
    expect(await auditFor(id)).toHaveLength(1);
  });
});
