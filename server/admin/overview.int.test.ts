import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, signedInClient, type SignedIn } from '../forms/forms-testing';
import { PASSWORD } from '../schema/test-world';
import { clientFor, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * public.admin_overview through the data API: the counts of a known set of
 * rows in a period and the period of the same length before it, the period's
 * validation, and the refusal of everyone who is not an admin.
 */

// Ten days long, in the past, so the rows made by signing people in today
// fall outside both periods.
const FROM = '2025-03-11T00:00:00.000Z';
const TO = '2025-03-21T00:00:00.000Z';
const PREVIOUS_FROM = '2025-03-01T00:00:00.000Z';

let server: TestServer;
let admin: SignedIn;
let customer: SignedIn;
let partner: SignedIn;
let anon: SupabaseClient;
let pendingBefore = 0;

/** Instants relative to the period: `at(0)` is its start, `at(-1)` a day before. */
function at(days: number, hours = 0): string {
  return new Date(Date.parse(FROM) + days * 86_400_000 + hours * 3_600_000).toISOString();
}

async function insertLead(createdAt: string) {
  await server.db.query(
    `insert into public.leads (full_name, email, company, team_size, monthly_call_volume, consent_at, created_at)
     values ('Lena Lead', $1, 'Lead Co', '1-5', 'under-500', $2, $2)`,
    [uniqueEmail('lead'), createdAt],
  );
}

let bookingSlot = 0;
async function insertBooking(createdAt: string, status: 'confirmed' | 'cancelled') {
  // Confirmed demos may not overlap: each gets its own half hour.
  bookingSlot += 1;
  await server.db.query(
    `insert into public.demo_bookings (starts_at, ends_at, full_name, email, company, team_size,
       time_zone, status, manage_token_hash, created_at)
     values ($1::timestamptz, $1::timestamptz + interval '30 minutes', 'Bea Booker', $2, 'Book Co',
       '6-20', 'UTC', $3, sha256(gen_random_uuid()::text::bytea), $4)`,
    [at(100, bookingSlot), uniqueEmail('booker'), status, createdAt],
  );
}

async function insertApplication(
  status: 'unconfirmed' | 'pending' | 'approved',
  createdAt: string,
  confirmedAt: string | null,
) {
  await server.db.query(
    `insert into public.partner_applications (full_name, email, company, partner_type,
       expected_referrals, status, created_at, confirmed_at)
     values ('Abe Applicant', $1, 'Applicant Co', 'agency', 3, $2, $3, $4)`,
    [uniqueEmail('applicant'), status, createdAt, confirmedAt],
  );
}

async function insertUser(
  createdAt: string,
  options: { anonymous?: boolean; deleted?: boolean } = {},
) {
  await server.db.query(
    `insert into auth.users (id, aud, role, email, created_at, is_anonymous, deleted_at,
       raw_app_meta_data)
     values (gen_random_uuid(), 'authenticated', 'authenticated', $1, $2, $3, $4,
       '{"role": "partner"}')`,
    [
      options.anonymous ? null : uniqueEmail('sign-up'),
      createdAt,
      options.anonymous ?? false,
      options.deleted ? createdAt : null,
    ],
  );
}

beforeAll(async () => {
  server = await startTestServer();
  anon = clientFor(server);
  [admin, customer, partner] = await Promise.all([
    signedInClient(server, { fullName: 'Adam Admin', company: 'Cervana', role: 'admin' }),
    signedInClient(server, { fullName: 'Cleo Customer', company: 'Cleo Co' }),
    signedInClient(server, { fullName: 'Pia Partner', company: 'Pia Co', role: 'partner' }),
  ]);
  const { rows } = await server.db.query<{ count: number }>(
    `select count(*)::int as count from public.partner_applications where status = 'pending'`,
  );
  pendingBefore = rows[0]!.count;

  // Leads: 3 in the period (its first instant included), 2 before, and one on
  // each side outside both (the period's end is excluded).
  for (const createdAt of [FROM, at(4), at(9, 23)]) await insertLead(createdAt);
  for (const createdAt of [PREVIOUS_FROM, at(-1)]) await insertLead(createdAt);
  for (const createdAt of [at(-10, -1), TO]) await insertLead(createdAt);

  // Bookings made: 2 in the period (one cancelled since), 4 before (two cancelled).
  await insertBooking(at(1), 'confirmed');
  await insertBooking(at(2), 'cancelled');
  await insertBooking(at(-2), 'confirmed');
  await insertBooking(at(-3), 'confirmed');
  await insertBooking(at(-4), 'cancelled');
  await insertBooking(at(-5), 'cancelled');
  await insertBooking(at(11), 'confirmed');

  // Applications count when confirmed: 2 in the period (one approved since),
  // 1 before it (sent earlier still); unconfirmed ones never count.
  await insertApplication('pending', at(3), at(3, 1));
  await insertApplication('approved', at(5), at(5, 1));
  await insertApplication('pending', at(-15), at(-5));
  await insertApplication('unconfirmed', at(2), null);
  await insertApplication('pending', at(-30), at(-30));

  // Sign-ups: 3 in the period, 1 before; anonymous and deleted users never count.
  for (const createdAt of [at(0, 1), at(6), at(7)]) await insertUser(createdAt);
  await insertUser(at(-6));
  await insertUser(at(1), { anonymous: true });
  await insertUser(at(1), { deleted: true });
});

afterAll(async () => {
  await server?.close();
});

describe('admin_overview for an admin', () => {
  it('counts the rows of the period and of the period before it', async () => {
    const { data, error, status } = await admin.client.rpc('admin_overview', {
      p_from: FROM,
      p_to: TO,
    });
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual({
      from: expect.stringMatching(/^2025-03-11T00:00:00/),
      to: expect.stringMatching(/^2025-03-21T00:00:00/),
      previous_from: expect.stringMatching(/^2025-03-01T00:00:00/),
      leads: { current: 3, previous: 2 },
      bookings: { current: 2, previous: 4, current_cancelled: 1, previous_cancelled: 2 },
      partner_applications: { current: 2, previous: 1, pending: pendingBefore + 3 },
      sign_ups: { current: 3, previous: 1 },
    });
  });

  it('gives zeros for a period with nothing in it', async () => {
    const { data } = await admin.client.rpc('admin_overview', {
      p_from: '2020-01-01T00:00:00Z',
      p_to: '2020-01-08T00:00:00Z',
    });
    expect(data).toMatchObject({
      leads: { current: 0, previous: 0 },
      bookings: { current: 0, previous: 0 },
      partner_applications: { current: 0, previous: 0 },
      sign_ups: { current: 0, previous: 0 },
    });
  });

  it('answers the service role too', async () => {
    const service = clientFor(server, { key: server.serviceRoleKey });
    const { data, error } = await service.rpc('admin_overview', { p_from: FROM, p_to: TO });
    expect(error).toBeNull();
    expect(data).toMatchObject({ leads: { current: 3, previous: 2 } });
  });

  it.each([
    ['no start', { p_from: null, p_to: TO }, 'p_from'],
    ['no end', { p_from: FROM, p_to: null }, 'p_to'],
    ['an end before the start', { p_from: TO, p_to: FROM }, 'p_to'],
    ['an empty period', { p_from: FROM, p_to: FROM }, 'p_to'],
    [
      'a period over 400 days',
      { p_from: '2024-01-01T00:00:00Z', p_to: '2025-02-05T00:00:00Z' },
      'p_to',
    ],
    ['an endless period', { p_from: '-infinity', p_to: TO }, 'p_from'],
  ])('refuses %s with 400 naming the field', async (_, args, field) => {
    const result = await admin.client.rpc('admin_overview', args);
    expectRefusal(result, 400, field);
  });

  it('accepts a period of exactly 400 days', async () => {
    const { error } = await admin.client.rpc('admin_overview', {
      p_from: '2024-01-01T00:00:00Z',
      p_to: '2025-02-04T00:00:00Z',
    });
    expect(error).toBeNull();
  });
});

describe('admin_overview for anyone else', () => {
  it.each([
    ['a customer', () => customer.client],
    ['a partner', () => partner.client],
  ])('refuses %s with 403 and a sentence, and no numbers', async (_, client) => {
    const result = await client().rpc('admin_overview', { p_from: FROM, p_to: TO });
    expect({ status: result.status, code: result.error?.code, data: result.data }).toEqual({
      status: 403,
      code: '42501',
      data: null,
    });
    expect(result.error!.message).toBe('Only the Cervana team can see the admin overview.');
  });

  it('refuses a customer before looking at the period', async () => {
    const result = await customer.client.rpc('admin_overview', { p_from: null, p_to: null });
    expect(result.status).toBe(403);
  });

  it('refuses anon with 401 and no numbers', async () => {
    const result = await anon.rpc('admin_overview', { p_from: FROM, p_to: TO });
    expect({ status: result.status, code: result.error?.code, data: result.data }).toEqual({
      status: 401,
      code: '42501',
      data: null,
    });
    expect(result.error!.message).toMatch(/^[A-Za-z][^\n]{10,}$/);
  });
});

describe('admin_overview for an admin with a second factor', () => {
  it('refuses the password-only session (aal1) and answers after the code (aal2)', async () => {
    // signedInClient signs an admin in as the app does: password, then the code.
    const twoFactor = await signedInClient(server, { fullName: 'Tess Twofactor', role: 'admin' });

    const passwordOnly = clientFor(server);
    const signedIn = await passwordOnly.auth.signInWithPassword({
      email: twoFactor.email,
      password: PASSWORD,
    });
    expect(signedIn.error).toBeNull();
    const refused = await passwordOnly.rpc('admin_overview', { p_from: FROM, p_to: TO });
    expect({ status: refused.status, data: refused.data }).toEqual({ status: 403, data: null });

    // The enrolling session was raised to aal2 by verifying the factor.
    const answered = await twoFactor.client.rpc('admin_overview', { p_from: FROM, p_to: TO });
    expect(answered.error).toBeNull();
    expect(answered.data).toMatchObject({ leads: { current: 3, previous: 2 } });
  });
});
