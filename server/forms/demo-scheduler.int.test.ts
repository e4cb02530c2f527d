import { createHash } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';
import {
  SALES_INBOX,
  emailsFor,
  expectRefusal,
  icsProperty,
  inviteOf,
  signedInClient,
  snapshot,
  startFormsServer,
} from './forms-testing';

/**
 * The demo scheduler through the official client: free slots, booking (and a
 * race for one slot), the buffer, the manage link (look up, reschedule,
 * cancel) with its emails and .ics invites, and slots across daylight-saving
 * changes in the business's time zone. book_demo does not answer with the
 * manage token: the tests read it from the confirmation email, as a visitor
 * does (security issue 24, finding 6; see server/security/booking-limits.int.test.ts).
 */

let server: TestServer;
let anon: SupabaseClient;

const BUSINESS_ZONE = 'America/New_York';
const MINUTE = 60_000;
const BOOKING_TABLES = [
  'public.demo_bookings',
  'public.outbox_messages',
  'private.submission_counts',
];

beforeAll(async () => {
  server = await startFormsServer();
  anon = clientFor(server);
});
afterAll(() => server?.close());

interface Slot {
  starts_at: string;
  ends_at: string;
}

/** What book_demo answers. */
interface Receipt {
  id: string;
  starts_at: string;
  ends_at: string;
  email: string;
  time_zone: string;
}

/** A booking with the token of the manage link in its confirmation email. */
interface Booked extends Receipt {
  manage_token: string;
}

const iso = (value: string | number | Date) => new Date(value).toISOString();

/** The free slots (instants as ISO strings), optionally within a range. */
async function freeSlots(range: { from?: string; to?: string } = {}): Promise<Slot[]> {
  const result = await anon.rpc('get_demo_slots', {
    ...(range.from ? { range_start: range.from } : {}),
    ...(range.to ? { range_end: range.to } : {}),
  });
  expect(result.error).toBeNull();
  return (result.data as Slot[]).map((slot) => ({
    starts_at: iso(slot.starts_at),
    ends_at: iso(slot.ends_at),
  }));
}

/** An instant's date, time and weekday in a time zone. */
function local(instant: string, timeZone: string): { date: string; time: string; weekday: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      weekday: 'short',
    })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
    weekday: parts.weekday!,
  };
}

function byLocalDay(slots: Slot[], timeZone: string): Map<string, Slot[]> {
  const days = new Map<string, Slot[]>();
  for (const slot of slots) {
    const { date } = local(slot.starts_at, timeZone);
    days.set(date, [...(days.get(date) ?? []), slot]);
  }
  return days;
}

const handedOut = new Set<string>();
/** The slots of a business day no earlier test has used, all of them free (9:00 to 16:30). */
async function freeDay(): Promise<Slot[]> {
  for (const [date, slots] of byLocalDay(await freeSlots(), BUSINESS_ZONE)) {
    if (slots.length === 11 && !handedOut.has(date)) {
      handedOut.add(date);
      return slots;
    }
  }
  throw new Error('no free day left within the horizon');
}

function booking(startsAt: string | null, overrides: Record<string, unknown> = {}) {
  return {
    starts_at: startsAt,
    full_name: 'Bo Booker',
    email: uniqueEmail('booker'),
    company: 'Booker & Sons, Inc.',
    team_size: '21-50',
    time_zone: 'Europe/Paris',
    notes: 'We use Zendesk;\nshow us hand-offs.',
    fax: null,
    ...overrides,
  };
}

/** The token of the manage link (`/demo?booking=<token>`) in a booking's confirmation email. */
async function emailedToken(bookingId: string): Promise<string> {
  const confirmation = (await emailsFor(server, 'booking_id', bookingId)).find(
    (email) => email.template === 'demo_booking_booked',
  );
  const token = /\/demo\?booking=([0-9a-f]{64})\b/.exec(confirmation?.body_text ?? '')?.[1];
  if (!token) throw new Error(`no manage link emailed for booking ${bookingId}`);
  return token;
}

async function book(startsAt: string, overrides: Record<string, unknown> = {}): Promise<Booked> {
  const result = await anon.rpc('book_demo', booking(startsAt, overrides));
  expect(result.error).toBeNull();
  const receipt = result.data as Receipt;
  return { ...receipt, manage_token: await emailedToken(receipt.id) };
}

async function storedBooking(id: string) {
  const { rows } = await server.db.query<{
    starts_at: Date;
    ends_at: Date;
    status: string;
    revision: number;
    time_zone: string;
    cancel_reason: string | null;
    cancelled: boolean;
  }>(
    `select starts_at, ends_at, status, revision, time_zone, cancel_reason,
       cancelled_at is not null as cancelled
     from public.demo_bookings where id = $1`,
    [id],
  );
  const row = rows[0]!;
  return { ...row, starts_at: iso(row.starts_at), ends_at: iso(row.ends_at) };
}

async function confirmedAt(startsAt: string): Promise<number> {
  const { rows } = await server.db.query<{ count: number }>(
    `select count(*)::int as count from public.demo_bookings
     where starts_at = $1 and status = 'confirmed'`,
    [startsAt],
  );
  return rows[0]!.count;
}

const icsTime = (instant: string) => instant.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
const wrongToken = (token: string) => `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;

describe('the scheduler', () => {
  it('describes itself to the booking page', async () => {
    await server.db.query(`update public.scheduler_settings set horizon_days = 45`);
    try {
      const result = await anon.rpc('get_demo_scheduler');
      expect(result.error).toBeNull();
      expect(result.data).toEqual({ time_zone: BUSINESS_ZONE, slot_minutes: 30, horizon_days: 45 });
    } finally {
      await server.db.query(`update public.scheduler_settings set horizon_days = 30`);
    }
  });

  it('offers 30-minute slots, 09:00–17:00 on weekdays, after the notice and within the horizon', async () => {
    const slots = await freeSlots();
    expect(slots.length).toBeGreaterThan(0);
    const now = Date.now();
    for (const slot of slots) {
      const start = local(slot.starts_at, BUSINESS_ZONE);
      const end = local(slot.ends_at, BUSINESS_ZONE);
      expect(Date.parse(slot.ends_at) - Date.parse(slot.starts_at)).toBe(30 * MINUTE);
      expect(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']).toContain(start.weekday);
      expect(start.time >= '09:00' && end.time <= '17:00' && end.date === start.date).toBe(true);
      expect(Date.parse(slot.starts_at)).toBeGreaterThanOrEqual(now + 240 * MINUTE - 5 * MINUTE);
      expect(Date.parse(slot.starts_at)).toBeLessThan(now + 30 * 24 * 60 * MINUTE + MINUTE);
    }
    expect(new Set(slots.map((slot) => slot.starts_at)).size).toBe(slots.length);
  });

  it('puts the buffer between slots: each starts 15 minutes after the previous one ends', async () => {
    const day = await freeDay();
    expect(day.map((slot) => local(slot.starts_at, BUSINESS_ZONE).time)).toEqual([
      '09:00',
      '09:45',
      '10:30',
      '11:15',
      '12:00',
      '12:45',
      '13:30',
      '14:15',
      '15:00',
      '15:45',
      '16:30',
    ]);
    for (let index = 1; index < day.length; index += 1) {
      expect(Date.parse(day[index]!.starts_at)).toBe(
        Date.parse(day[index - 1]!.ends_at) + 15 * MINUTE,
      );
    }
  });

  it('keeps the buffer around a booking: a neighbour within 15 minutes is taken too', async () => {
    const day = await freeDay();
    const taken = await book(day[2]!.starts_at); // 10:30–11:00
    const after = (await freeSlots({ from: day[0]!.starts_at, to: day[10]!.ends_at })).map(
      (slot) => slot.starts_at,
    );
    // 09:45–10:15 and 11:15–11:45 are exactly 15 minutes away: still free.
    expect(after).toEqual(day.filter((_, index) => index !== 2).map((slot) => slot.starts_at));

    // Moved 10 minutes later (as an admin may), the booking's buffer reaches 11:15.
    await server.db.query(
      `update public.demo_bookings set starts_at = starts_at + interval '10 minutes',
         ends_at = ends_at + interval '10 minutes' where id = $1`,
      [taken.id],
    );
    const moved = (await freeSlots({ from: day[0]!.starts_at, to: day[10]!.ends_at })).map(
      (slot) => slot.starts_at,
    );
    expect(moved).toEqual(
      day.filter((_, index) => index !== 2 && index !== 3).map((slot) => slot.starts_at),
    );
    const before = await snapshot(server, BOOKING_TABLES);
    expectRefusal(await anon.rpc('book_demo', booking(day[3]!.starts_at)), 409, 'slot_taken');
    expect(await snapshot(server, BOOKING_TABLES)).toEqual(before);
  });
});

describe('book_demo refuses', () => {
  let day: Slot[];
  beforeAll(async () => {
    day = await freeDay();
  });

  const tooLong = (length: number) => 'x'.repeat(length);
  const at = (slot: number, shiftMinutes = 0) =>
    iso(Date.parse(day[slot]!.starts_at) + shiftMinutes * MINUTE);

  type Case = [label: string, input: () => Record<string, unknown>, details: string];
  const cases: Case[] = [
    ['no name', () => booking(at(0), { full_name: null }), 'full_name'],
    ['a blank name', () => booking(at(0), { full_name: '   ' }), 'full_name'],
    ['a name of 121 characters', () => booking(at(0), { full_name: tooLong(121) }), 'full_name'],
    ['a line break in the name', () => booking(at(0), { full_name: 'Bo\nBooker' }), 'full_name'],
    ['no email', () => booking(at(0), { email: null }), 'email'],
    ['an invalid email', () => booking(at(0), { email: 'bo@booker' }), 'email'],
    ['no company', () => booking(at(0), { company: ' ' }), 'company'],
    ['a company of 121 characters', () => booking(at(0), { company: tooLong(121) }), 'company'],
    [
      'a control character in the company',
      () => booking(at(0), { company: 'A\u0001B' }),
      'company',
    ],
    ['no team size', () => booking(at(0), { team_size: null }), 'team_size'],
    ['a team size not in the list', () => booking(at(0), { team_size: 'huge' }), 'team_size'],
    ['notes of 2,001 characters', () => booking(at(0), { notes: tooLong(2001) }), 'notes'],
    ['a control character in the notes', () => booking(at(0), { notes: 'a\u0007b' }), 'notes'],
    ['no time zone', () => booking(at(0), { time_zone: null }), 'time_zone'],
    ['an unknown time zone', () => booking(at(0), { time_zone: 'Mars/Olympus' }), 'time_zone'],
    ['a blank time zone', () => booking(at(0), { time_zone: '' }), 'time_zone'],
    ['no time', () => booking(null), 'starts_at'],
    ['a time between two slots', () => booking(at(0, 5)), 'starts_at'],
    ['a time in the buffer after a slot', () => booking(at(0, 30)), 'starts_at'],
    ['a time before opening', () => booking(at(0, -45)), 'starts_at'],
    ['a time after closing', () => booking(at(10, 45)), 'starts_at'],
    ['a Saturday', () => booking(saturdayAt(day[0]!.starts_at)), 'starts_at'],
    [
      'a time in the past',
      () => booking(iso(Date.parse(at(0)) - 70 * 24 * 60 * MINUTE)),
      'starts_at',
    ],
    [
      'a time beyond the horizon',
      () => booking(iso(Date.parse(at(0)) + 35 * 24 * 60 * MINUTE)),
      'starts_at',
    ],
    ['the honeypot filled in', () => booking(at(0), { fax: '555' }), 'blocked'],
  ];

  /** The same local time on the Saturday of that week (the slot's date is a weekday). */
  function saturdayAt(instant: string): string {
    const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(
      local(instant, BUSINESS_ZONE).weekday,
    );
    return iso(Date.parse(instant) + (6 - weekday) * 24 * 60 * MINUTE);
  }

  it.each(cases)('%s (400, the field named, nothing stored)', async (_, input, details) => {
    const before = await snapshot(server, BOOKING_TABLES);
    const result = await anon.rpc('book_demo', input());
    expectRefusal(result, 400, details);
    expect(await snapshot(server, BOOKING_TABLES)).toEqual(before);
  });

  it('nothing else: the slot the cases use is free and takes the base booking', async () => {
    const booked = await book(at(0));
    expect(booked.starts_at && iso(booked.starts_at)).toBe(at(0));
  });
});

describe('booking a slot', () => {
  it('stores the booking, queues the invite and the note, and takes the slot off the list', async () => {
    const day = await freeDay();
    const slot = day[4]!;
    const before = await snapshot(server, ['public.demo_bookings', 'public.outbox_messages']);
    const answer = await anon.rpc(
      'book_demo',
      booking(slot.starts_at, { email: ' Bo.Booker@Example.COM ' }),
    );
    expect(answer.error).toBeNull();
    // The answer has no manage token: that is in the confirmation email only.
    const receipt = answer.data as Receipt;
    expect({
      ...receipt,
      starts_at: iso(receipt.starts_at),
      ends_at: iso(receipt.ends_at),
    }).toEqual({
      id: expect.any(String),
      starts_at: slot.starts_at,
      ends_at: slot.ends_at,
      email: 'bo.booker@example.com',
      time_zone: 'Europe/Paris',
    });
    const booked: Booked = { ...receipt, manage_token: await emailedToken(receipt.id) };
    expect(await snapshot(server, ['public.demo_bookings', 'public.outbox_messages'])).toEqual({
      'public.demo_bookings': before['public.demo_bookings']! + 1,
      'public.outbox_messages': before['public.outbox_messages']! + 2,
    });

    // Only the token's SHA-256 is kept.
    const { rows } = await server.db.query<{ hash: string; row: string }>(
      `select encode(manage_token_hash, 'hex') as hash, to_jsonb(b)::text as row
       from public.demo_bookings b where id = $1`,
      [booked.id],
    );
    expect(rows[0]!.hash).toBe(createHash('sha256').update(booked.manage_token).digest('hex'));
    expect(rows[0]!.row).not.toContain(booked.manage_token);
    expect(await storedBooking(booked.id)).toMatchObject({
      status: 'confirmed',
      revision: 0,
      time_zone: 'Europe/Paris',
    });

    const remaining = (await freeSlots({ from: day[0]!.starts_at, to: day[10]!.ends_at })).map(
      (free) => free.starts_at,
    );
    expect(remaining).not.toContain(slot.starts_at);
    expect(remaining).toHaveLength(10);

    const emails = await emailsFor(server, 'booking_id', booked.id);
    expect(emails.map(({ recipient, template }) => ({ recipient, template }))).toEqual([
      { recipient: 'bo.booker@example.com', template: 'demo_booking_booked' },
      { recipient: SALES_INBOX, template: 'demo_booking_booked_notification' },
    ]);
    const [visitor, note] = emails as [(typeof emails)[0], (typeof emails)[0]];
    expect(visitor.body_text).toContain(
      `${server.config.siteUrl}/demo?booking=${booked.manage_token}`,
    );
    expect(visitor.attachments[0]).toMatchObject({
      filename: 'cervana-demo.ics',
      contentType: 'text/calendar; charset=utf-8; method=REQUEST',
    });
    const ics = inviteOf(visitor);
    expect(ics.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect({
      method: icsProperty(ics, 'METHOD'),
      uid: icsProperty(ics, 'UID'),
      sequence: icsProperty(ics, 'SEQUENCE'),
      start: icsProperty(ics, 'DTSTART'),
      end: icsProperty(ics, 'DTEND'),
      status: icsProperty(ics, 'STATUS'),
      summary: icsProperty(ics, 'SUMMARY'),
    }).toEqual({
      method: 'REQUEST',
      uid: `demo-${booked.id}@cervana.ai`,
      sequence: '0',
      start: icsTime(slot.starts_at),
      end: icsTime(slot.ends_at),
      status: 'CONFIRMED',
      summary: 'Cervana demo',
    });
    // Nothing the visitor typed goes to the address they typed (nobody has verified it).
    const attendee = ics.split('\r\n').find((line) => line.startsWith('ATTENDEE'));
    expect(attendee).toBe('ATTENDEE;ROLE=REQ-PARTICIPANT;RSVP=FALSE:mailto:bo.booker@example.com');
    for (const typed of ['Bo Booker', 'Booker & Sons', 'Zendesk']) {
      expect(`${visitor.subject}\n${visitor.body_text}\n${ics}`).not.toContain(typed);
    }
    // Content lines are folded at 75 octets.
    for (const line of Buffer.from(visitor.attachments[0]!.contentBase64, 'base64')
      .toString('utf8')
      .split('\r\n')) {
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    }
    expect(note.attachments).toEqual([]);
    expect(note.body_text).toContain("The visitor's time zone: Europe/Paris.");
    // The sales inbox (ours) gets everything.
    expect(note.body_text).toContain('Bo Booker <bo.booker@example.com> at Booker & Sons, Inc.');
  });

  it('folds long invite lines at 75 octets without splitting a UTF-8 character', async () => {
    const [slot] = await freeDay();
    // The meeting link (the admins' text) is the invite's LOCATION.
    const meetingUrl =
      'https://meet.example.com/Société-Générale-d’Économie—Übersetzungsbüro-Øresund-✓';
    await server.db.query(`update public.scheduler_settings set meeting_url = $1`, [meetingUrl]);
    try {
      const { data, error } = await anon.rpc('book_demo', booking(slot!.starts_at));
      expect(error).toBeNull();
      const [visitor] = await emailsFor(server, 'booking_id', (data as { id: string }).id);
      const raw = Buffer.from(visitor!.attachments[0]!.contentBase64, 'base64');
      // Valid UTF-8 throughout (a character cut in two would not decode back to the same bytes).
      expect(Buffer.from(raw.toString('utf8'), 'utf8').equals(raw)).toBe(true);
      for (const line of raw.toString('utf8').split('\r\n')) {
        expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
      }
      expect(icsProperty(inviteOf(visitor!), 'LOCATION')).toBe(meetingUrl);
    } finally {
      await server.db.query(`update public.scheduler_settings set meeting_url = null`);
    }
  });

  it('refuses a slot someone has booked: 409 slot_taken, one booking', async () => {
    const [slot] = await freeDay();
    await book(slot!.starts_at);
    const before = await snapshot(server, BOOKING_TABLES);
    const again = await anon.rpc('book_demo', booking(slot!.starts_at));
    expectRefusal(again, 409, 'slot_taken');
    expect(await snapshot(server, BOOKING_TABLES)).toEqual(before);
    expect(await confirmedAt(slot!.starts_at)).toBe(1);
  });

  it('gives a slot two visitors race for to exactly one of them', async () => {
    const slot = (await freeDay())[6]!;
    const other = clientFor(server);
    const results = await Promise.all([
      anon.rpc('book_demo', booking(slot.starts_at, { full_name: 'First Racer' })),
      other.rpc('book_demo', booking(slot.starts_at, { full_name: 'Second Racer' })),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    const loser = results.find((result) => result.status === 409)!;
    expectRefusal(loser, 409, 'slot_taken');
    expect(await confirmedAt(slot.starts_at)).toBe(1);
    const winner = results.find((result) => result.status === 200)!.data as Receipt;
    expect(await emailsFor(server, 'booking_id', winner.id)).toHaveLength(2);
  });

  it('attributes a booking to the partner its code names (any case), and keeps the signed-in user', async () => {
    const partner = await signedInClient(server, {
      fullName: 'Petra Partner',
      company: 'Demo Referrals GmbH',
      role: 'partner',
    });
    const { rows } = await server.db.query<{ id: string; referral_code: string }>(
      `select id, referral_code from public.partners where user_id = $1`,
      [partner.id],
    );
    const { id: partnerId, referral_code: code } = rows[0]!;
    const day = await freeDay();
    const customer = await signedInClient(server, { fullName: 'Cal Customer', company: 'Cal Co' });
    const result = await customer.client.rpc(
      'book_demo',
      booking(day[0]!.starts_at, { referral_code: code.toLowerCase() }),
    );
    expect(result.error).toBeNull();
    const plain = await book(day[2]!.starts_at, { referral_code: 'NOSUCHCODE' });
    const stored = await server.db.query<{
      id: string;
      partner_id: string | null;
      user_id: string | null;
    }>(`select id, partner_id, user_id from public.demo_bookings where id = any($1::uuid[])`, [
      [(result.data as Receipt).id, plain.id],
    ]);
    expect(Object.fromEntries(stored.rows.map((row) => [row.id, row]))).toEqual({
      [(result.data as Receipt).id]: {
        id: (result.data as Receipt).id,
        partner_id: partnerId,
        user_id: customer.id,
      },
      [plain.id]: { id: plain.id, partner_id: null, user_id: null },
    });
  });
});

describe('the manage link', () => {
  it('shows the booking to whoever has the token, and 404 for any other token', async () => {
    const [slot] = await freeDay();
    const booked = await book(slot!.starts_at, { full_name: 'Lou Lookup' });
    const found = await anon.rpc('get_demo_booking', { token: booked.manage_token });
    expect(found.error).toBeNull();
    const data = found.data as Record<string, unknown>;
    expect({
      ...data,
      starts_at: iso(data.starts_at as string),
      ends_at: iso(data.ends_at as string),
    }).toEqual({
      id: booked.id,
      starts_at: slot!.starts_at,
      ends_at: slot!.ends_at,
      status: 'confirmed',
      full_name: 'Lou Lookup',
      email: booked.email,
      company: 'Booker & Sons, Inc.',
      time_zone: 'Europe/Paris',
      is_past: false,
    });
    expect(data).not.toHaveProperty('manage_token_hash');

    for (const token of [
      wrongToken(booked.manage_token),
      booked.manage_token.toUpperCase(),
      'abc',
      '',
    ]) {
      expectRefusal(await anon.rpc('get_demo_booking', { token }), 404, 'booking_not_found');
    }
  });

  it('reschedules: the booking moves, the old slot is free again, the invite is updated', async () => {
    const day = await freeDay();
    const booked = await book(day[1]!.starts_at);
    const target = day[8]!;
    const result = await anon.rpc('reschedule_demo_booking', {
      token: booked.manage_token,
      starts_at: target.starts_at,
      time_zone: 'Asia/Tokyo',
    });
    expect(result.error).toBeNull();
    const moved = result.data as Slot & { id: string; status: string; time_zone: string };
    expect({ ...moved, starts_at: iso(moved.starts_at), ends_at: iso(moved.ends_at) }).toEqual({
      id: booked.id,
      starts_at: target.starts_at,
      ends_at: target.ends_at,
      status: 'confirmed',
      time_zone: 'Asia/Tokyo',
    });
    expect(await storedBooking(booked.id)).toMatchObject({
      starts_at: target.starts_at,
      ends_at: target.ends_at,
      revision: 1,
      time_zone: 'Asia/Tokyo',
      status: 'confirmed',
    });
    const free = (await freeSlots({ from: day[0]!.starts_at, to: day[10]!.ends_at })).map(
      (slot) => slot.starts_at,
    );
    expect(free).toContain(day[1]!.starts_at);
    expect(free).not.toContain(target.starts_at);

    const emails = await emailsFor(server, 'booking_id', booked.id);
    expect(emails.map((email) => email.template).sort()).toEqual([
      'demo_booking_booked',
      'demo_booking_booked_notification',
      'demo_booking_rescheduled',
      'demo_booking_rescheduled_notification',
    ]);
    const original = inviteOf(emails.find((email) => email.template === 'demo_booking_booked')!);
    const rescheduled = emails.find((email) => email.template === 'demo_booking_rescheduled')!;
    expect(rescheduled.recipient).toBe(booked.email);
    const invite = inviteOf(rescheduled);
    expect({
      method: icsProperty(invite, 'METHOD'),
      uid: icsProperty(invite, 'UID'),
      sequence: icsProperty(invite, 'SEQUENCE'),
      start: icsProperty(invite, 'DTSTART'),
    }).toEqual({
      method: 'REQUEST',
      uid: icsProperty(original, 'UID'),
      sequence: '1',
      start: icsTime(target.starts_at),
    });
    expect(rescheduled.body_text).toContain('(Asia/Tokyo)');

    const lookedUp = await anon.rpc('get_demo_booking', { token: booked.manage_token });
    expect(iso((lookedUp.data as Slot).starts_at)).toBe(target.starts_at);
  });

  it('refuses a reschedule that cannot be done, and changes nothing', async () => {
    const day = await freeDay();
    const booked = await book(day[0]!.starts_at);
    const other = await book(day[4]!.starts_at);
    const token = booked.manage_token;
    const before = await snapshot(server, BOOKING_TABLES);
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ token, starts_at: day[0]!.starts_at }, 400, 'starts_at'],
      [{ token, starts_at: other.starts_at }, 409, 'slot_taken'],
      [{ token, starts_at: iso(Date.parse(day[2]!.starts_at) + 10 * MINUTE) }, 400, 'starts_at'],
      [{ token, starts_at: null }, 400, 'starts_at'],
      [{ token, starts_at: day[2]!.starts_at, time_zone: 'Nowhere/Special' }, 400, 'time_zone'],
      [{ token: wrongToken(token), starts_at: day[2]!.starts_at }, 404, 'booking_not_found'],
    ];
    for (const [args, status, details] of refusals) {
      expectRefusal(await anon.rpc('reschedule_demo_booking', args), status, details);
    }
    expect(await snapshot(server, BOOKING_TABLES)).toEqual(before);
    expect(await storedBooking(booked.id)).toMatchObject({
      starts_at: day[0]!.starts_at,
      revision: 0,
    });
  });

  it('cancels: the slot is free again, the invite cancels the event; twice changes nothing', async () => {
    const day = await freeDay();
    const booked = await book(day[5]!.starts_at);
    const tooLong = await anon.rpc('cancel_demo_booking', {
      token: booked.manage_token,
      reason: 'r'.repeat(501),
    });
    expectRefusal(tooLong, 400, 'reason');
    expect(await storedBooking(booked.id)).toMatchObject({ status: 'confirmed', revision: 0 });

    const result = await anon.rpc('cancel_demo_booking', {
      token: booked.manage_token,
      reason: 'Found another time',
    });
    expect(result.error).toBeNull();
    expect(result.data).toEqual({ id: booked.id, status: 'cancelled' });
    expect(await storedBooking(booked.id)).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'Found another time',
      cancelled: true,
      revision: 1,
    });
    expect(
      (await freeSlots({ from: day[0]!.starts_at, to: day[10]!.ends_at })).map((s) => s.starts_at),
    ).toContain(day[5]!.starts_at);
    const looked = await anon.rpc('get_demo_booking', { token: booked.manage_token });
    expect((looked.data as { status: string }).status).toBe('cancelled');

    const emails = await emailsFor(server, 'booking_id', booked.id);
    const cancelled = emails.find((email) => email.template === 'demo_booking_cancelled')!;
    const note = emails.find((email) => email.template === 'demo_booking_cancelled_notification')!;
    expect(cancelled.recipient).toBe(booked.email);
    expect(note.recipient).toBe(SALES_INBOX);
    expect(note.body_text).toContain('Reason: Found another time');
    expect(cancelled.attachments[0]).toMatchObject({
      filename: 'cancelled-demo.ics',
      contentType: 'text/calendar; charset=utf-8; method=CANCEL',
    });
    const invite = inviteOf(cancelled);
    const original = inviteOf(emails.find((email) => email.template === 'demo_booking_booked')!);
    expect({
      method: icsProperty(invite, 'METHOD'),
      status: icsProperty(invite, 'STATUS'),
      uid: icsProperty(invite, 'UID'),
      sequence: icsProperty(invite, 'SEQUENCE'),
    }).toEqual({
      method: 'CANCEL',
      status: 'CANCELLED',
      uid: icsProperty(original, 'UID'),
      sequence: '1',
    });

    // Twice: the same answer, no new email, no new revision.
    const before = await snapshot(server, BOOKING_TABLES);
    const again = await anon.rpc('cancel_demo_booking', { token: booked.manage_token });
    expect(again.error).toBeNull();
    expect(again.data).toEqual({ id: booked.id, status: 'cancelled' });
    expect(await snapshot(server, BOOKING_TABLES)).toEqual(before);
    expect(await storedBooking(booked.id)).toMatchObject({
      revision: 1,
      cancel_reason: 'Found another time',
    });

    // A cancelled booking is not moved back.
    const reschedule = await anon.rpc('reschedule_demo_booking', {
      token: booked.manage_token,
      starts_at: day[7]!.starts_at,
    });
    expectRefusal(reschedule, 400, 'booking');
    expect(await snapshot(server, BOOKING_TABLES)).toEqual(before);

    // The freed slot can be booked by someone else.
    await book(day[5]!.starts_at);
    expect(await confirmedAt(day[5]!.starts_at)).toBe(1);
  });

  it('neither moves nor cancels a demo that has started', async () => {
    const day = await freeDay();
    const booked = await book(day[3]!.starts_at);
    await server.db.query(
      `update public.demo_bookings set starts_at = now() - interval '10 minutes',
         ends_at = now() + interval '20 minutes' where id = $1`,
      [booked.id],
    );
    const before = await snapshot(server, BOOKING_TABLES);
    expectRefusal(
      await anon.rpc('reschedule_demo_booking', {
        token: booked.manage_token,
        starts_at: day[6]!.starts_at,
      }),
      400,
      'booking',
    );
    expectRefusal(
      await anon.rpc('cancel_demo_booking', { token: booked.manage_token }),
      400,
      'booking',
    );
    expect(await snapshot(server, BOOKING_TABLES)).toEqual(before);
    const looked = await anon.rpc('get_demo_booking', { token: booked.manage_token });
    expect(looked.data).toMatchObject({ status: 'confirmed', is_past: true });
  });
});

// ---------------------------------------------------------------------------
// Daylight saving. Dates are the next changes after today, so the test keeps
// meaning something as time passes (the horizon is set to its maximum, 365 days).
// ---------------------------------------------------------------------------

const DAY = 24 * 60 * MINUTE;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const addDays = (date: string, days: number) =>
  dateOf(Date.parse(`${date}T00:00:00Z`) + days * DAY);

/** The date of the `n`th Sunday (negative: from the end) of a month (1–12). */
function sunday(year: number, month: number, n: number): string {
  if (n > 0) {
    const first = new Date(Date.UTC(year, month - 1, 1));
    return dateOf(first.getTime() + (((7 - first.getUTCDay()) % 7) + (n - 1) * 7) * DAY);
  }
  const last = new Date(Date.UTC(year, month, 0));
  return dateOf(last.getTime() - (last.getUTCDay() + (-n - 1) * 7) * DAY);
}

/** The first of a yearly date that is at least three days away. */
function next(rule: (year: number) => string): string {
  const year = new Date().getUTCFullYear();
  const soonest = Date.now() + 3 * DAY;
  const candidate = rule(year);
  return Date.parse(`${candidate}T00:00:00Z`) >= soonest ? candidate : rule(year + 1);
}

/** "2027-03-12" + 14 hours → "2027-03-12T14:00:00.000Z". */
const utc = (date: string, hours: number) =>
  iso(Date.parse(`${date}T00:00:00Z`) + hours * 60 * MINUTE);

const ZONES = [
  {
    zone: 'America/New_York',
    standard: -5,
    summer: -4,
    springForward: (year: number) => sunday(year, 3, 2),
    fallBack: (year: number) => sunday(year, 11, 1),
  },
  {
    zone: 'Europe/Paris',
    standard: 1,
    summer: 2,
    springForward: (year: number) => sunday(year, 3, -1),
    fallBack: (year: number) => sunday(year, 10, -1),
  },
];

describe.each(ZONES)(
  'slots across daylight saving in $zone',
  ({ zone, standard, summer, springForward, fallBack }) => {
    const change = next(springForward);
    const friday = addDays(change, -2);
    const monday = addDays(change, 1);
    const range = { from: utc(friday, -12), to: utc(monday, 36) };

    beforeAll(async () => {
      await server.db.query(
        `update public.scheduler_settings set time_zone = $1, min_notice_minutes = 0, horizon_days = 365`,
        [zone],
      );
    });
    afterAll(async () => {
      await server.db.query(
        `update public.scheduler_settings set time_zone = 'America/New_York', min_notice_minutes = 240,
         horizon_days = 30`,
      );
      await server.db.query(`delete from public.blackout_dates`);
      await server.db.query(`delete from public.availability_rules where weekday in (0, 6)`);
    });

    it('the dates are right: a Sunday, with the offset changing that day', () => {
      expect(local(`${change}T12:00:00Z`, zone).weekday).toBe('Sun');
      expect(local(utc(friday, 12 - standard), zone).time).toBe('12:00');
      expect(local(utc(monday, 12 - summer), zone).time).toBe('12:00');
    });

    it('opens at 09:00 local on the Friday before and the Monday after the change', async () => {
      const days = byLocalDay(await freeSlots(range), zone);
      expect([...days.keys()].filter((date) => date >= friday && date <= monday)).toEqual([
        friday,
        monday,
      ]);
      expect(days.get(friday)![0]!.starts_at).toBe(utc(friday, 9 - standard));
      expect(days.get(monday)![0]!.starts_at).toBe(utc(monday, 9 - summer));
      for (const date of [friday, monday]) {
        const slots = days.get(date)!;
        expect(slots).toHaveLength(11);
        expect(slots.map((slot) => local(slot.starts_at, zone).time)).toEqual([
          '09:00',
          '09:45',
          '10:30',
          '11:15',
          '12:00',
          '12:45',
          '13:30',
          '14:15',
          '15:00',
          '15:45',
          '16:30',
        ]);
      }
      for (const slot of [...days.values()].flat()) {
        const start = local(slot.starts_at, zone);
        const end = local(slot.ends_at, zone);
        expect(start.time >= '09:00' && end.time <= '17:00' && start.date === end.date).toBe(true);
        expect(Date.parse(slot.ends_at) - Date.parse(slot.starts_at)).toBe(30 * MINUTE);
      }
    });

    it('takes a blackout date off as a whole local day', async () => {
      await server.db.query(
        `insert into public.blackout_dates (day, reason) values ($1, 'Off-site')`,
        [monday],
      );
      try {
        const days = byLocalDay(await freeSlots(range), zone);
        expect(days.has(monday)).toBe(false);
        expect(days.get(friday)).toHaveLength(11);
        // Nothing of the Monday leaks in from either side in UTC.
        const mondayStart = Date.parse(utc(monday, -summer));
        const mondayEnd = mondayStart + DAY;
        expect(
          [...days.values()].flat().filter((slot) => {
            const start = Date.parse(slot.starts_at);
            return start >= mondayStart && start < mondayEnd;
          }),
        ).toEqual([]);
      } finally {
        await server.db.query(`delete from public.blackout_dates where day = $1`, [monday]);
      }
    });

    it('makes only real, distinct times from a window across the skipped hour', async () => {
      // 01:00–04:00 local on the change day: 02:00–03:00 does not exist, two real hours remain.
      await server.db.query(
        `insert into public.availability_rules (weekday, start_time, end_time) values (0, '01:00', '04:00')`,
      );
      try {
        const slots = byLocalDay(await freeSlots(range), zone).get(change) ?? [];
        expect(slots.map((slot) => slot.starts_at)).toEqual([
          utc(change, 1 - standard),
          utc(change, 1.75 - standard),
          utc(change, 3.5 - summer),
        ]);
        expect(slots.map((slot) => local(slot.starts_at, zone).time)).toEqual([
          '01:00',
          '01:45',
          '03:30',
        ]);
        for (const slot of slots) {
          expect(Date.parse(slot.ends_at) - Date.parse(slot.starts_at)).toBe(30 * MINUTE);
          expect(local(slot.ends_at, zone).time <= '04:00').toBe(true);
        }
      } finally {
        await server.db.query(`delete from public.availability_rules where weekday = 0`);
      }
    });

    it('makes distinct times from a window across the repeated hour', async () => {
      // 00:30–03:00 local on the day clocks go back: 3.5 real hours, the 01:00s twice.
      const back = next(fallBack);
      await server.db.query(
        `insert into public.availability_rules (weekday, start_time, end_time) values (0, '00:30', '03:00')`,
      );
      try {
        const slots =
          byLocalDay(await freeSlots({ from: utc(back, -12), to: utc(back, 36) }), zone).get(
            back,
          ) ?? [];
        const first = Date.parse(utc(back, 0.5 - summer));
        expect(slots.map((slot) => slot.starts_at)).toEqual(
          [0, 45, 90, 135, 180].map((minutes) => iso(first + minutes * MINUTE)),
        );
        expect(new Set(slots.map((slot) => slot.starts_at)).size).toBe(5);
        expect(Date.parse(slots.at(-1)!.ends_at)).toBeLessThanOrEqual(
          Date.parse(utc(back, 3 - standard)),
        );
        for (const slot of slots) {
          expect(Date.parse(slot.ends_at) - Date.parse(slot.starts_at)).toBe(30 * MINUTE);
        }
      } finally {
        await server.db.query(`delete from public.availability_rules where weekday = 0`);
      }
    });

    it('books a slot after the change at the instant shown', async () => {
      const mondaySlot = utc(monday, 9 - summer);
      const booked = await book(mondaySlot, { time_zone: zone });
      expect(iso(booked.starts_at)).toBe(mondaySlot);
      const visitor = (await emailsFor(server, 'booking_id', booked.id)).find(
        (email) => email.template === 'demo_booking_booked',
      )!;
      expect(visitor.subject).toContain('09:00–09:30');
      expect(icsProperty(inviteOf(visitor), 'DTSTART')).toBe(icsTime(mondaySlot));
    });
  },
);
