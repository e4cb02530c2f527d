import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SALES_INBOX,
  emailsFor,
  expectRefusal,
  signedInClient,
  snapshot,
  startFormsServer,
} from '../forms/forms-testing';
import { clientFor, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * Security issue 24, finding 6: one booking became a mail bomb. Twenty
 * reschedules in 226 ms sent 21 emails with .ics invites to the booked address
 * and 20 notes to the sales inbox, and book_demo handed the manage token to
 * whoever booked, for any address.
 *
 * Now book_demo answers without the token (it is in the confirmation email
 * only, so whoever changes a booking has shown they receive that address's
 * mail), a booking moves at most 3 times in 24 hours and 5 times in all by its
 * link, and one network makes at most 10 reschedules and cancellations an
 * hour (site_settings). A refused change answers 429 and queues nothing.
 *
 * The server trusts one proxy hop, so each test picks its own network with
 * X-Forwarded-For; every request goes through the official client.
 */

let server: TestServer;
let anon: SupabaseClient;

beforeAll(async () => {
  server = await startFormsServer({ TRUST_PROXY: 'true' });
  anon = clientFor(server);
});
afterAll(() => server?.close());

interface Receipt {
  id: string;
  starts_at: string;
  ends_at: string;
  email: string;
  time_zone: string;
}

interface Booked extends Receipt {
  token: string;
}

/** A client whose requests come from this address (the trusted proxy's X-Forwarded-For). */
const from = (address: string) =>
  clientFor(server, { global: { headers: { 'x-forwarded-for': address } } });

/** The next free slot this file has not used yet (the list is read once). */
let freeSlots: Promise<string[]> | undefined;
async function readFreeSlots(): Promise<string[]> {
  const { data, error } = await anon.rpc('get_demo_slots');
  expect(error).toBeNull();
  return (data as { starts_at: string }[]).map((slot) => slot.starts_at);
}
async function nextSlot(): Promise<string> {
  freeSlots ??= readFreeSlots();
  const slot = (await freeSlots).shift();
  if (!slot) throw new Error('no free demo slot left');
  return slot;
}

async function bookingArgs(email = uniqueEmail('victim')): Promise<Record<string, unknown>> {
  return {
    starts_at: await nextSlot(),
    full_name: 'Mallory Mailbomb',
    email,
    company: 'Visit https://evil.example now',
    team_size: '6-20',
    time_zone: 'Europe/Paris',
  };
}

/** The manage link's token in a booking's confirmation email. */
async function emailedToken(bookingId: string): Promise<string> {
  const confirmation = (await emailsFor(server, 'booking_id', bookingId)).find(
    (email) => email.template === 'demo_booking_booked',
  );
  const token = /\/demo\?booking=([0-9a-f]{64})\b/.exec(confirmation?.body_text ?? '')?.[1];
  if (!token) throw new Error(`no manage link emailed for booking ${bookingId}`);
  return token;
}

/** Books a demo from `client` and reads its token from the email, as the address's owner would. */
async function book(client: SupabaseClient = anon): Promise<Booked> {
  const { data, error } = await client.rpc('book_demo', await bookingArgs());
  expect(error).toBeNull();
  const receipt = data as Receipt;
  return { ...receipt, token: await emailedToken(receipt.id) };
}

async function outboxCount(bookingId: string): Promise<number> {
  return (await emailsFor(server, 'booking_id', bookingId)).length;
}

async function revisionOf(bookingId: string): Promise<{ revision: number; status: string }> {
  const { rows } = await server.db.query<{ revision: number; status: string }>(
    `select revision, status from public.demo_bookings where id = $1`,
    [bookingId],
  );
  return rows[0]!;
}

/** As if the booking's changes by link had been made a day and an hour earlier. */
async function aDayLater(bookingId: string): Promise<void> {
  await server.db.query(
    `update private.demo_booking_changes set changed_at = changed_at - interval '25 hours'
     where booking_id = $1`,
    [bookingId],
  );
}

describe('the manage token', () => {
  it('is not in book_demo’s answer, only in the confirmation email to the booked address', async () => {
    const args = await bookingArgs();
    const result = await from('198.51.100.10').rpc('book_demo', args);
    expect(result.error).toBeNull();
    const receipt = result.data as Record<string, unknown>;
    expect(Object.keys(receipt).sort()).toEqual([
      'email',
      'ends_at',
      'id',
      'starts_at',
      'time_zone',
    ]);

    const token = await emailedToken(receipt.id as string);
    expect(JSON.stringify(receipt)).not.toContain(token);
    const emails = await emailsFor(server, 'booking_id', receipt.id as string);
    const carrying = emails.filter((email) => email.body_text.includes(token));
    expect(carrying.map((email) => [email.recipient, email.template])).toEqual([
      [args.email, 'demo_booking_booked'],
    ]);
    // The email to the typed address carries nothing the booker typed.
    for (const typed of ['Mallory', 'evil.example']) {
      expect(carrying[0]!.subject + carrying[0]!.body_text).not.toContain(typed);
    }
  });

  it('still opens, moves and cancels the booking from the emailed link', async () => {
    const client = from('198.51.100.11');
    const booked = await book(client);
    const found = await client.rpc('get_demo_booking', { token: booked.token });
    expect(found.error).toBeNull();
    expect(found.data).toMatchObject({ id: booked.id, status: 'confirmed' });

    const target = await nextSlot();
    const moved = await client.rpc('reschedule_demo_booking', {
      token: booked.token,
      starts_at: target,
    });
    expect(moved.error).toBeNull();
    expect(new Date((moved.data as Receipt).starts_at).toISOString()).toBe(
      new Date(target).toISOString(),
    );
    const cancelled = await client.rpc('cancel_demo_booking', { token: booked.token });
    expect(cancelled.error).toBeNull();
    expect(cancelled.data).toEqual({ id: booked.id, status: 'cancelled' });

    const emails = await emailsFor(server, 'booking_id', booked.id);
    expect(
      emails
        .filter((email) => email.recipient === booked.email)
        .map((email) => email.template)
        .sort(),
    ).toEqual(['demo_booking_booked', 'demo_booking_cancelled', 'demo_booking_rescheduled']);
    expect(emails.filter((email) => email.recipient === SALES_INBOX)).toHaveLength(3);
  });
});

describe('changes per booking', () => {
  it('20 rapid reschedules of one booking: 3 go through, 17 get 429, and only 3 changes are mailed', async () => {
    const client = from('198.51.100.20');
    const booked = await book(client);
    const targets = await Promise.all(Array.from({ length: 20 }, () => nextSlot()));
    // All at once: on PostgreSQL they queue for the booking's row lock.
    const results = await Promise.all(
      targets.map((starts_at) =>
        client.rpc('reschedule_demo_booking', { token: booked.token, starts_at }),
      ),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(3);
    const refused = results.filter((result) => result.status !== 200);
    expect(refused).toHaveLength(17);
    for (const result of refused) expectRefusal(result, 429, 'rate_limited');
    expect(refused[0]!.error!.message).toMatch(/moved 3 times in the last 24 hours/);

    // The booked email and the sales note, then two for each of the 3 moves.
    const emails = await emailsFor(server, 'booking_id', booked.id);
    expect(emails).toHaveLength(2 + 3 * 2);
    expect(emails.filter((email) => email.recipient === booked.email)).toHaveLength(4);
    expect(emails.filter((email) => email.recipient === SALES_INBOX)).toHaveLength(4);
    expect(await revisionOf(booked.id)).toEqual({ revision: 3, status: 'confirmed' });
  });

  it('allows 5 moves in all; then only sales move it, and cancelling still works', async () => {
    const client = from('198.51.100.21');
    const booked = await book(client);
    const move = async () =>
      client.rpc('reschedule_demo_booking', { token: booked.token, starts_at: await nextSlot() });
    for (let index = 0; index < 3; index += 1) expect((await move()).error).toBeNull();
    expectRefusal(await move(), 429, 'rate_limited');

    await aDayLater(booked.id);
    for (let index = 0; index < 2; index += 1) expect((await move()).error).toBeNull();
    const sixth = await move();
    expectRefusal(sixth, 429, 'rate_limited');
    expect(sixth.error!.message).toMatch(/as many times as we can allow online/);
    expect(sixth.error!.message).toContain(SALES_INBOX);

    await aDayLater(booked.id);
    const before = await outboxCount(booked.id);
    expectRefusal(await move(), 429, 'rate_limited');
    expect(await outboxCount(booked.id)).toBe(before);
    expect(await revisionOf(booked.id)).toEqual({ revision: 5, status: 'confirmed' });

    const cancelled = await client.rpc('cancel_demo_booking', { token: booked.token });
    expect(cancelled.error).toBeNull();
    expect(await outboxCount(booked.id)).toBe(before + 2);
    // A cancelled booking cancelled again: the same answer, no email.
    expect((await client.rpc('cancel_demo_booking', { token: booked.token })).error).toBeNull();
    expect(await outboxCount(booked.id)).toBe(before + 2);
  });

  it('counts only changes that happened: a refused reschedule does not use up the day', async () => {
    const client = from('198.51.100.22');
    const booked = await book(client);
    const tables = ['public.outbox_messages', 'private.demo_booking_changes'];
    const before = await snapshot(server, tables);
    for (let index = 0; index < 5; index += 1) {
      const same = await client.rpc('reschedule_demo_booking', {
        token: booked.token,
        starts_at: booked.starts_at,
      });
      expectRefusal(same, 400, 'starts_at');
    }
    expect(await snapshot(server, tables)).toEqual(before);
    for (let index = 0; index < 3; index += 1) {
      const moved = await client.rpc('reschedule_demo_booking', {
        token: booked.token,
        starts_at: await nextSlot(),
      });
      expect(moved.error).toBeNull();
    }
  });
});

describe('changes per network', () => {
  it('takes 10 reschedules and cancellations an hour from one network, across bookings', async () => {
    const bookings = await Promise.all(
      Array.from({ length: 6 }, (_, index) => book(from(`203.0.113.${index + 1}`))),
    );
    const network = from('192.0.2.50');
    // 5 bookings moved twice each: 10 changes.
    for (const booked of bookings.slice(0, 5)) {
      for (let move = 0; move < 2; move += 1) {
        const result = await network.rpc('reschedule_demo_booking', {
          token: booked.token,
          starts_at: await nextSlot(),
        });
        expect(result.error).toBeNull();
      }
    }
    const last = bookings[5]!;
    const before = await snapshot(server, ['public.outbox_messages']);
    const moved = await network.rpc('reschedule_demo_booking', {
      token: last.token,
      starts_at: await nextSlot(),
    });
    expectRefusal(moved, 429, 'rate_limited');
    expect(moved.error!.message).toMatch(/from your network in the last hour/);
    const cancelled = await network.rpc('cancel_demo_booking', { token: last.token });
    expectRefusal(cancelled, 429, 'rate_limited');
    // IPv6 from the same /64 is one network; so is the IPv4-mapped form of an address.
    const sameNetwork = from('::ffff:192.0.2.50');
    expectRefusal(
      await sameNetwork.rpc('cancel_demo_booking', { token: last.token }),
      429,
      'rate_limited',
    );
    expect(await snapshot(server, ['public.outbox_messages'])).toEqual(before);
    expect(await revisionOf(last.id)).toEqual({ revision: 0, status: 'confirmed' });

    // Another network is not affected.
    const other = await from('192.0.2.51').rpc('cancel_demo_booking', { token: last.token });
    expect(other.error).toBeNull();
    expect(await revisionOf(last.id)).toEqual({ revision: 1, status: 'cancelled' });
  });

  it('limits cancellations alone too', async () => {
    const bookings = await Promise.all(
      Array.from({ length: 11 }, (_, index) => book(from(`203.0.113.${index + 20}`))),
    );
    const network = from('2001:db8:24:6::1');
    for (const booked of bookings.slice(0, 10)) {
      expect((await network.rpc('cancel_demo_booking', { token: booked.token })).error).toBeNull();
    }
    const eleventh = bookings[10]!;
    const before = await outboxCount(eleventh.id);
    // Another address in the same IPv6 /64.
    const refused = await from('2001:db8:24:6::ffff').rpc('cancel_demo_booking', {
      token: eleventh.token,
    });
    expectRefusal(refused, 429, 'rate_limited');
    expect(await outboxCount(eleventh.id)).toBe(before);
    expect(await revisionOf(eleventh.id)).toEqual({ revision: 0, status: 'confirmed' });
  });
});

describe('the limits', () => {
  it('are settings admins can change', async () => {
    const admin = await signedInClient(server, {
      fullName: 'Adele Admin',
      company: 'Cervana',
      role: 'admin',
    });
    const columns =
      'demo_reschedules_per_booking_per_day, demo_reschedules_per_booking, demo_changes_per_network_per_hour';
    const defaults = await admin.client.from('site_settings').select(columns).single();
    expect(defaults.error).toBeNull();
    expect(defaults.data).toEqual({
      demo_reschedules_per_booking_per_day: 3,
      demo_reschedules_per_booking: 5,
      demo_changes_per_network_per_hour: 10,
    });
    const changed = await admin.client
      .from('site_settings')
      .update({
        demo_reschedules_per_booking_per_day: 2,
        demo_reschedules_per_booking: 4,
        demo_changes_per_network_per_hour: 20,
      })
      .eq('id', true)
      .select(columns);
    expect(changed.error).toBeNull();
    expect(changed.data).toEqual([
      {
        demo_reschedules_per_booking_per_day: 2,
        demo_reschedules_per_booking: 4,
        demo_changes_per_network_per_hour: 20,
      },
    ]);
    await server.db.query(
      `update public.site_settings set demo_reschedules_per_booking_per_day = 3,
         demo_reschedules_per_booking = 5, demo_changes_per_network_per_hour = 10`,
    );

    // Visitors neither read the settings nor the change log.
    const visitor = await anon.from('site_settings').select(columns);
    expect(visitor.data ?? []).toEqual([]);
  });
});
