import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emailsFor,
  expectRefusal,
  icsProperty,
  inviteOf,
  SALES_INBOX,
  signedInClient,
  snapshot,
  startFormsServer,
  type SignedIn,
} from '../forms/forms-testing';
import {
  delay,
  Inbox,
  signedInRealtimeClient,
  subscribed,
  uniqueTopic,
} from '../realtime/realtime-testing';
import { clientFor, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * Demo bookings and availability in the admin area (issue 17): an admin
 * moves or cancels a visitor's demo from the version they saw, the visitor
 * gets the updated invite through the outbox, the audit log records who did
 * it; the weekly availability, blackout days and settings are validated in
 * SQL and change the free slots at once. Customers, partners and anonymous
 * callers get none of it.
 */

let server: TestServer;
let admin: SignedIn;
let customer: SignedIn;
let partner: SignedIn;
let anon: SupabaseClient;
const realtime: SupabaseClient[] = [];

const CHANGE_TABLES = ['public.demo_bookings', 'public.outbox_messages', 'public.admin_audit_log'];
const iso = (value: string | number | Date) => new Date(value).toISOString();

interface Slot {
  starts_at: string;
  ends_at: string;
}

interface Booking {
  id: string;
  starts_at: string;
  version: number;
  revision: number;
  email: string;
}

async function freeSlots(): Promise<Slot[]> {
  const result = await anon.rpc('get_demo_slots');
  expect(result.error).toBeNull();
  return (result.data as Slot[]).map((slot) => ({
    starts_at: iso(slot.starts_at),
    ends_at: iso(slot.ends_at),
  }));
}

/** A demo booked by a visitor through book_demo in the first free slot (or the nth). */
async function book(company: string, nth = 0): Promise<Booking> {
  const slot = (await freeSlots())[nth]!;
  const email = uniqueEmail('visitor');
  const result = await anon.rpc('book_demo', {
    starts_at: slot.starts_at,
    full_name: 'Vera Visitor',
    email,
    company,
    team_size: '21-50',
    time_zone: 'Europe/Paris',
    notes: 'We answer 3,000 calls a month.',
  });
  expect(result.error).toBeNull();
  return stored((result.data as { id: string }).id);
}

async function stored(id: string): Promise<Booking> {
  const { rows } = await server.db.query<Booking>(
    `select id, starts_at, version, revision, email, status from public.demo_bookings where id = $1`,
    [id],
  );
  const row = rows[0]!;
  return { ...row, starts_at: iso(row.starts_at) };
}

async function auditFor(table: string, id: string) {
  const { rows } = await server.db.query<{
    actor_id: string;
    actor_email: string;
    action: string;
    before: Record<string, unknown>;
    after: Record<string, unknown>;
  }>(
    `select actor_id, actor_email, action, before, after from public.admin_audit_log
     where target_table = $1 and target_id = $2 order by id`,
    [table, id],
  );
  return rows;
}

function icsTime(instant: string): string {
  return iso(instant)
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
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

describe('admin_reschedule_booking', () => {
  it('moves a demo to a free slot, sends the updated invite and logs who did it', async () => {
    const booking = await book('Moved Co');
    const target = (await freeSlots())[3]!;
    const result = await admin.client.rpc('admin_reschedule_booking', {
      p_booking_id: booking.id,
      p_starts_at: target.starts_at,
      p_expected_version: booking.version,
      p_reason: 'Our presenter is ill that day.',
    });
    expect(result.error).toBeNull();
    expect(result.data).toMatchObject({ id: booking.id, status: 'confirmed', revision: 1 });
    const after = await stored(booking.id);
    expect(after).toMatchObject({ starts_at: target.starts_at, revision: 1 });
    expect(after.version).toBe(booking.version + 1);

    const emails = await emailsFor(server, 'booking_id', booking.id);
    const visitor = emails.find((email) => email.template === 'demo_booking_rescheduled_by_team')!;
    expect(visitor.recipient).toBe(booking.email);
    expect(visitor.subject).toMatch(/^The Cervana team moved your demo to .*\(Europe\/Paris\)$/);
    expect(visitor.body_text).toContain('the Cervana team has moved your 30-minute demo');
    expect(visitor.body_text).toContain('Our presenter is ill that day.');
    const ics = inviteOf(visitor);
    expect(icsProperty(ics, 'METHOD')).toBe('REQUEST');
    expect(icsProperty(ics, 'SEQUENCE')).toBe('1');
    expect(icsProperty(ics, 'UID')).toBe(`demo-${booking.id}@cervana.ai`);
    expect(icsProperty(ics, 'DTSTART')).toBe(icsTime(target.starts_at));
    expect(icsProperty(ics, 'DTEND')).toBe(icsTime(target.ends_at));
    expect(visitor.attachments[0]!.contentType).toContain('method=REQUEST');
    const note = emails.find(
      (email) => email.template === 'demo_booking_rescheduled_by_team_notification',
    )!;
    expect(note.recipient).toBe(SALES_INBOX);
    expect(note.body_text).toContain(`Done by: ${admin.email}.`);

    const [entry] = await auditFor('demo_bookings', booking.id);
    expect(entry).toMatchObject({
      actor_id: admin.id,
      actor_email: admin.email,
      action: 'update',
      before: { starts_at: expect.any(String), revision: 0 },
      after: { starts_at: expect.any(String), revision: 1 },
    });
    expect(iso(entry!.before.starts_at as string)).toBe(booking.starts_at);
    expect(iso(entry!.after.starts_at as string)).toBe(target.starts_at);

    // The old time is free again for visitors, the new one is not.
    const slots = (await freeSlots()).map((slot) => slot.starts_at);
    expect(slots).toContain(booking.starts_at);
    expect(slots).not.toContain(target.starts_at);
  });

  it('offers the booking’s free times, its own time counted free', async () => {
    const booking = await book('Slots Co');
    const result = await admin.client.rpc('admin_demo_slots', { p_booking_id: booking.id });
    expect(result.error).toBeNull();
    const slots = (result.data as Slot[]).map((slot) => iso(slot.starts_at));
    expect(slots).toContain(booking.starts_at);
    expect((await freeSlots()).map((slot) => slot.starts_at)).not.toContain(booking.starts_at);
  });

  it('refuses a taken slot, a past or unavailable time, a stale view and bad input, storing nothing', async () => {
    const booking = await book('Refused Co');
    const other = await book('Other Co');
    const cases: [string, Record<string, unknown>, number, string][] = [
      ['taken', { p_starts_at: other.starts_at }, 409, 'slot_taken'],
      [
        'past',
        { p_starts_at: iso(Date.parse(booking.starts_at) - 14 * 86_400_000) },
        400,
        'p_starts_at',
      ],
      [
        'outside availability',
        { p_starts_at: iso(Date.parse(booking.starts_at) + 13 * 3_600_000) },
        400,
        'p_starts_at',
      ],
      [
        'off the slot grid',
        { p_starts_at: iso(Date.parse(other.starts_at) + 7 * 60_000) },
        400,
        'p_starts_at',
      ],
      ['its own time', { p_starts_at: booking.starts_at }, 400, 'p_starts_at'],
      ['no time', { p_starts_at: null }, 400, 'p_starts_at'],
      ['stale', { p_expected_version: booking.version - 1 }, 409, 'version'],
      ['no version', { p_expected_version: null }, 409, 'version'],
      ['oversized reason', { p_reason: 'x'.repeat(501) }, 400, 'p_reason'],
      ['control characters', { p_reason: 'Hi\u0007' }, 400, 'p_reason'],
    ];
    const free = (await freeSlots()).at(-1)!;
    for (const [label, overrides, status, details] of cases) {
      const before = await snapshot(server, CHANGE_TABLES);
      const result = await admin.client.rpc('admin_reschedule_booking', {
        p_booking_id: booking.id,
        p_starts_at: free.starts_at,
        p_expected_version: booking.version,
        ...overrides,
      });
      expect({ label, status: result.status, details: result.error?.details }).toEqual({
        label,
        status,
        details,
      });
      expect(result.error!.message).toMatch(/^[A-Z][^\n]{10,}[.!?]$/);
      expect(await snapshot(server, CHANGE_TABLES), label).toEqual(before);
    }
    expect(await stored(booking.id)).toEqual(booking);

    const missing = await admin.client.rpc('admin_reschedule_booking', {
      p_booking_id: crypto.randomUUID(),
      p_starts_at: free.starts_at,
      p_expected_version: 1,
    });
    expectRefusal(missing, 404, 'booking_id');
    const notUuid = await admin.client.rpc('admin_reschedule_booking', {
      p_booking_id: 'not-a-uuid',
      p_starts_at: free.starts_at,
      p_expected_version: 1,
    });
    expect(notUuid.status).toBe(400);
  });
});

describe('admin_cancel_booking', () => {
  it('cancels a demo, sends the cancelling invite with the reason and logs who did it', async () => {
    const booking = await book('Cancelled Co');
    const result = await admin.client.rpc('admin_cancel_booking', {
      p_booking_id: booking.id,
      p_reason: 'They asked us by phone.',
      p_expected_version: booking.version,
    });
    expect(result.error).toBeNull();
    expect(result.data).toMatchObject({ status: 'cancelled', revision: 1 });

    const emails = await emailsFor(server, 'booking_id', booking.id);
    const visitor = emails.find((email) => email.template === 'demo_booking_cancelled_by_team')!;
    expect(visitor.recipient).toBe(booking.email);
    expect(visitor.subject).toBe('The Cervana team cancelled your demo');
    expect(visitor.body_text).toContain('the Cervana team has cancelled your demo');
    expect(visitor.body_text).toContain('They asked us by phone.');
    const ics = inviteOf(visitor);
    expect(icsProperty(ics, 'METHOD')).toBe('CANCEL');
    expect(icsProperty(ics, 'STATUS')).toBe('CANCELLED');
    expect(icsProperty(ics, 'SEQUENCE')).toBe('1');
    expect(icsProperty(ics, 'DTSTART')).toBe(icsTime(booking.starts_at));
    expect(visitor.attachments[0]!.contentType).toContain('method=CANCEL');

    const [entry] = await auditFor('demo_bookings', booking.id);
    expect(entry).toMatchObject({
      actor_id: admin.id,
      action: 'update',
      before: { status: 'confirmed', cancel_reason: null, revision: 0 },
      after: { status: 'cancelled', cancel_reason: 'They asked us by phone.', revision: 1 },
    });
    // Its time is free for visitors again.
    expect((await freeSlots()).map((slot) => slot.starts_at)).toContain(booking.starts_at);
  });

  it('refuses a cancelled demo, a stale view and bad input, storing nothing', async () => {
    const booking = await book('Twice Co');
    const before = await snapshot(server, CHANGE_TABLES);
    expectRefusal(
      await admin.client.rpc('admin_cancel_booking', {
        p_booking_id: booking.id,
        p_reason: 'y'.repeat(501),
        p_expected_version: booking.version,
      }),
      400,
      'p_reason',
    );
    expectRefusal(
      await admin.client.rpc('admin_cancel_booking', {
        p_booking_id: booking.id,
        p_reason: null,
        p_expected_version: booking.version + 1,
      }),
      409,
      'version',
    );
    expect(await snapshot(server, CHANGE_TABLES)).toEqual(before);
    const first = await admin.client.rpc('admin_cancel_booking', {
      p_booking_id: booking.id,
      p_reason: null,
      p_expected_version: booking.version,
    });
    expect(first.error).toBeNull();
    const cancelled = await stored(booking.id);
    const afterFirst = await snapshot(server, CHANGE_TABLES);
    expectRefusal(
      await admin.client.rpc('admin_cancel_booking', {
        p_booking_id: booking.id,
        p_reason: null,
        p_expected_version: cancelled.version,
      }),
      400,
      'booking_id',
    );
    const free = (await freeSlots())[5]!;
    expectRefusal(
      await admin.client.rpc('admin_reschedule_booking', {
        p_booking_id: booking.id,
        p_starts_at: free.starts_at,
        p_expected_version: cancelled.version,
      }),
      400,
      'booking_id',
    );
    expect(await snapshot(server, CHANGE_TABLES)).toEqual(afterFirst);
  });

  it('refuses a demo that has already started', async () => {
    const booking = await book('Started Co');
    // Moved into the past as the server would see it later.
    await server.db.query(
      `update public.demo_bookings set starts_at = now() - interval '1 hour',
         ends_at = now() - interval '30 minutes' where id = $1`,
      [booking.id],
    );
    const version = (await stored(booking.id)).version;
    expectRefusal(
      await admin.client.rpc('admin_cancel_booking', {
        p_booking_id: booking.id,
        p_reason: null,
        p_expected_version: version,
      }),
      400,
      'booking_id',
    );
  });
});

describe('who may', () => {
  it('refuses customers, partners and anonymous callers every admin function, storing nothing', async () => {
    const booking = await book('Guarded Co');
    const free = (await freeSlots())[2]!;
    const { rows } = await server.db.query<{ updated_at: string }>(
      'select updated_at::text as updated_at from public.scheduler_settings',
    );
    const calls: [string, Record<string, unknown>][] = [
      [
        'admin_reschedule_booking',
        {
          p_booking_id: booking.id,
          p_starts_at: free.starts_at,
          p_expected_version: booking.version,
        },
      ],
      [
        'admin_cancel_booking',
        { p_booking_id: booking.id, p_reason: null, p_expected_version: booking.version },
      ],
      ['admin_demo_slots', { p_booking_id: booking.id }],
      ['admin_save_availability', { p_rules: [] }],
      ['admin_add_blackout_date', { p_day: '2099-01-05', p_reason: null }],
      ['admin_remove_blackout_date', { p_day: '2099-01-05' }],
      [
        'admin_update_scheduler_settings',
        { p_changes: { slot_minutes: 60 }, p_expected_updated_at: rows[0]!.updated_at },
      ],
    ];
    const tables = [...CHANGE_TABLES, 'public.availability_rules', 'public.blackout_dates'];
    const before = await snapshot(server, tables);
    for (const [fn, args] of calls) {
      for (const [who, client, status] of [
        ['customer', customer.client, 403],
        ['partner', partner.client, 403],
        ['anon', anon, 401],
      ] as const) {
        const result = await client.rpc(fn, args);
        expect({ fn, who, status: result.status }).toEqual({ fn, who, status });
        expect(result.data, `${fn} ${who}`).toBeNull();
      }
    }
    expect(await snapshot(server, tables)).toEqual(before);
    expect(await stored(booking.id)).toEqual(booking);
    const { rows: settings } = await server.db.query<{ slot_minutes: number }>(
      'select slot_minutes from public.scheduler_settings',
    );
    expect(settings[0]!.slot_minutes).toBe(30);
    for (const client of [customer.client, partner.client]) {
      expect((await client.from('demo_bookings').select('id')).data).toEqual([]);
    }
  });

  it('moves and cancels through the functions only: direct writes to time and status are refused', async () => {
    const booking = await book('Direct Co');
    const direct = await admin.client
      .from('demo_bookings')
      .update({ status: 'cancelled' })
      .eq('id', booking.id);
    expect(direct.error?.code).toBe('42501');
    const moved = await admin.client
      .from('demo_bookings')
      .update({ starts_at: iso(Date.now() + 86_400_000) })
      .eq('id', booking.id);
    expect(moved.error?.code).toBe('42501');
    expect(await stored(booking.id)).toEqual(booking);
    // Notes are still the admin's to edit, and bump the version.
    const notes = await admin.client
      .from('demo_bookings')
      .update({ notes: 'Bring the VP' })
      .eq('id', booking.id);
    expect(notes.error).toBeNull();
    expect((await stored(booking.id)).version).toBe(booking.version + 1);
  });

  it('sends booking changes live to admins only', async () => {
    const adminLive = await signedInRealtimeClient(server, { role: 'admin', fullName: 'Lia Live' });
    const customerLive = await signedInRealtimeClient(server, { fullName: 'Cy Live' });
    const partnerLive = await signedInRealtimeClient(server, {
      role: 'partner',
      fullName: 'Pat Live',
    });
    realtime.push(adminLive.client, customerLive.client, partnerLive.client);
    const inboxes = [
      new Inbox<{ status?: string }>(),
      new Inbox<{ status?: string }>(),
      new Inbox<{ status?: string }>(),
    ];
    for (const [index, client] of [
      adminLive.client,
      customerLive.client,
      partnerLive.client,
    ].entries()) {
      await subscribed(
        client
          .channel(uniqueTopic('bookings'))
          .on(
            'postgres_changes',
            { event: 'UPDATE', schema: 'public', table: 'demo_bookings' },
            (change) => inboxes[index]!.push(change.new as { status?: string }),
          ),
      );
    }
    const booking = await book('Live Co');
    const cancelled = await admin.client.rpc('admin_cancel_booking', {
      p_booking_id: booking.id,
      p_reason: null,
      p_expected_version: booking.version,
    });
    expect(cancelled.error).toBeNull();
    const [seen] = await inboxes[0]!.waitFor(1);
    expect(seen!.status).toBe('cancelled');
    await delay(1000);
    expect(inboxes[1]!.items).toEqual([]);
    expect(inboxes[2]!.items).toEqual([]);
  });
});

describe('availability', () => {
  async function rules() {
    const { data, error } = await admin.client
      .from('availability_rules')
      .select('id, weekday, start_time, end_time')
      .order('weekday')
      .order('start_time');
    expect(error).toBeNull();
    return data as { id: string; weekday: number; start_time: string; end_time: string }[];
  }
  const weekday = (instant: string, zone = 'America/New_York') =>
    new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short' }).format(
      new Date(instant),
    );

  it('saves the weekly rules whole, changes the free slots at once, and logs only what changed', async () => {
    const original = await rules();
    expect(original).toHaveLength(5);
    expect((await freeSlots()).some((slot) => weekday(slot.starts_at) === 'Sat')).toBe(false);
    const kept = original.map(({ weekday: day, start_time, end_time }) => ({
      weekday: day,
      start_time: start_time.slice(0, 5),
      end_time: end_time.slice(0, 5),
    }));
    const saved = await admin.client.rpc('admin_save_availability', {
      p_rules: [...kept, { weekday: 6, start_time: '10:00', end_time: '12:00' }],
    });
    expect(saved.error).toBeNull();
    expect(saved.data).toHaveLength(6);
    const saturdays = (await freeSlots()).filter((slot) => weekday(slot.starts_at) === 'Sat');
    expect(saturdays.length).toBeGreaterThan(0);
    // The five unchanged rules kept their ids; one insert in the log.
    const now = await rules();
    expect(now.filter((rule) => original.some((old) => old.id === rule.id))).toHaveLength(5);
    const added = now.find((rule) => rule.weekday === 6)!;
    expect(await auditFor('availability_rules', added.id)).toEqual([
      expect.objectContaining({ actor_id: admin.id, action: 'insert' }),
    ]);

    const restored = await admin.client.rpc('admin_save_availability', { p_rules: kept });
    expect(restored.error).toBeNull();
    expect((await freeSlots()).some((slot) => weekday(slot.starts_at) === 'Sat')).toBe(false);
  });

  const invalid: [string, unknown, string][] = [
    ['not a list', { weekday: 1 }, 'p_rules'],
    [
      'a bad weekday',
      [{ weekday: 7, start_time: '09:00', end_time: '10:00' }],
      'p_rules.0.weekday',
    ],
    ['a bad start', [{ weekday: 1, start_time: '9am', end_time: '10:00' }], 'p_rules.0.start_time'],
    ['a bad end', [{ weekday: 1, start_time: '09:00', end_time: '25:00' }], 'p_rules.0.end_time'],
    [
      'an end before the start',
      [{ weekday: 1, start_time: '12:00', end_time: '09:00' }],
      'p_rules.0.end_time',
    ],
    [
      'overlapping ranges',
      [
        { weekday: 2, start_time: '09:00', end_time: '12:00' },
        { weekday: 2, start_time: '11:00', end_time: '13:00' },
      ],
      'p_rules.1.start_time',
    ],
    [
      'too many ranges',
      Array.from({ length: 71 }, () => ({ weekday: 1, start_time: '09:00', end_time: '09:30' })),
      'p_rules',
    ],
  ];
  it.each(invalid)(
    'refuses %s with 400 naming it, storing nothing',
    async (_label, value, field) => {
      const before = await snapshot(server, [
        'public.availability_rules',
        'public.admin_audit_log',
      ]);
      expectRefusal(
        await admin.client.rpc('admin_save_availability', { p_rules: value }),
        400,
        field,
      );
      expect(
        await snapshot(server, ['public.availability_rules', 'public.admin_audit_log']),
      ).toEqual(before);
    },
  );

  it('refuses an overlapping rule written directly too', async () => {
    const monday = (await rules()).find((rule) => rule.weekday === 1)!;
    const direct = await admin.client
      .from('availability_rules')
      .insert({ weekday: 1, start_time: '16:00', end_time: '18:00' });
    expect(direct.error?.code).toBe('22023');
    expect(direct.error?.details).toBe('start_time');
    expect((await rules()).find((rule) => rule.weekday === 1)).toEqual(monday);
  });

  it('takes a blackout day’s slots away at once, and gives them back when removed', async () => {
    const first = (await freeSlots())[0]!;
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(
      new Date(first.starts_at),
    );
    const onDay = (slots: Slot[]) =>
      slots.filter(
        (slot) =>
          new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(
            new Date(slot.starts_at),
          ) === day,
      );
    expect(onDay(await freeSlots()).length).toBeGreaterThan(0);
    const added = await admin.client.rpc('admin_add_blackout_date', {
      p_day: day,
      p_reason: 'Team offsite',
    });
    expect(added.error).toBeNull();
    expect(added.data).toMatchObject({ day, reason: 'Team offsite' });
    expect((added.data as { bookings_that_day: number }).bookings_that_day).toBeGreaterThanOrEqual(
      0,
    );
    expect(onDay(await freeSlots())).toEqual([]);
    expect(await auditFor('blackout_dates', day)).toEqual([
      expect.objectContaining({ actor_id: admin.id, action: 'insert' }),
    ]);

    expectRefusal(
      await admin.client.rpc('admin_add_blackout_date', { p_day: day, p_reason: null }),
      400,
      'p_day',
    );
    const removed = await admin.client.rpc('admin_remove_blackout_date', { p_day: day });
    expect(removed.error).toBeNull();
    expect(onDay(await freeSlots()).length).toBeGreaterThan(0);
    expectRefusal(
      await admin.client.rpc('admin_remove_blackout_date', { p_day: day }),
      404,
      'p_day',
    );
  });

  const badDays: [string, unknown, unknown, string][] = [
    ['a past day', '2020-01-06', null, 'p_day'],
    ['a day that does not exist', '2030-02-30', null, 'p_day'],
    ['no day', null, null, 'p_day'],
    ['not a day', 'next tuesday', null, 'p_day'],
    ['a day too far ahead', '2199-01-01', null, 'p_day'],
    [
      'an oversized reason',
      `${new Date().getUTCFullYear() + 1}-03-06`,
      'z'.repeat(201),
      'p_reason',
    ],
  ];
  it.each(badDays)('refuses %s as a blackout day', async (_label, day, reason, field) => {
    const before = await snapshot(server, ['public.blackout_dates']);
    expectRefusal(
      await admin.client.rpc('admin_add_blackout_date', { p_day: day, p_reason: reason }),
      400,
      field,
    );
    expect(await snapshot(server, ['public.blackout_dates'])).toEqual(before);
  });
});

describe('scheduler settings', () => {
  async function settings() {
    const { data, error } = await admin.client
      .from('scheduler_settings')
      .select('time_zone, slot_minutes, buffer_minutes, updated_at')
      .single();
    expect(error).toBeNull();
    return data as { time_zone: string; slot_minutes: number; updated_at: string };
  }

  it('changes the slots at once from the version the admin saw, and refuses a stale one', async () => {
    const before = await settings();
    const saved = await admin.client.rpc('admin_update_scheduler_settings', {
      p_changes: { slot_minutes: 45, meeting_url: 'https://meet.example.com/cervana' },
      p_expected_updated_at: before.updated_at,
    });
    expect(saved.error).toBeNull();
    const slot = (await freeSlots())[0]!;
    expect(Date.parse(slot.ends_at) - Date.parse(slot.starts_at)).toBe(45 * 60_000);
    expectRefusal(
      await admin.client.rpc('admin_update_scheduler_settings', {
        p_changes: { slot_minutes: 30 },
        p_expected_updated_at: before.updated_at,
      }),
      409,
      'version',
    );
    const entries = await server.db.query<{ before: unknown; after: unknown }>(
      `select before, after from public.admin_audit_log where target_table = 'scheduler_settings' order by id desc limit 1`,
    );
    expect(entries.rows[0]).toEqual({
      before: { slot_minutes: 30, meeting_url: null },
      after: { slot_minutes: 45, meeting_url: 'https://meet.example.com/cervana' },
    });
    const current = await settings();
    const reverted = await admin.client.rpc('admin_update_scheduler_settings', {
      p_changes: { slot_minutes: 30, meeting_url: null },
      p_expected_updated_at: current.updated_at,
    });
    expect(reverted.error).toBeNull();
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['an unknown zone', { time_zone: 'Mars/Olympus' }, 'time_zone'],
    ['a zone that is not text', { time_zone: 5 }, 'time_zone'],
    ['a short slot', { slot_minutes: 5 }, 'slot_minutes'],
    ['a fractional slot', { slot_minutes: 30.5 }, 'slot_minutes'],
    ['a buffer as text', { buffer_minutes: '15' }, 'buffer_minutes'],
    ['a long notice', { min_notice_minutes: 20161 }, 'min_notice_minutes'],
    ['no horizon', { horizon_days: 0 }, 'horizon_days'],
    ['a plain-http link', { meeting_url: 'http://meet.example.com' }, 'meeting_url'],
    ['an unknown setting', { id: false }, 'id'],
  ];
  it.each(invalid)('refuses %s with 400 naming it', async (_label, changes, field) => {
    const before = await settings();
    expectRefusal(
      await admin.client.rpc('admin_update_scheduler_settings', {
        p_changes: changes,
        p_expected_updated_at: before.updated_at,
      }),
      400,
      field,
    );
    expect(await settings()).toEqual(before);
  });
});
