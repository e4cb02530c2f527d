import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseError } from '../db/database';
import { withRequestContext } from '../db/request-context';
import {
  ALLOW_MANY_SUBMISSIONS,
  application,
  inquiry,
  countRows,
  emailsFor,
  expectRefusal,
  signedInClient,
  startFormsServer,
} from '../forms/forms-testing';
import { clientFor, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * Security issue 22, findings 3 and 7: the public forms' limits.
 *
 * Finding 3: a header of 9,000 `"` (accepted by Node, twice as long in JSON)
 * used to make the server set `request.headers` to `{}`, so SQL saw no client
 * address and skipped every per-network limit. The address now travels on its
 * own (`request.client_ip`), oversized headers are left out one by one, and a
 * missing address is one shared bucket. Each form also has a global hourly cap
 * and the scheduler caps future demos per email domain and per network.
 *
 * Finding 7: the partner form told who is a partner (409) before any limit.
 * It now applies the limits first, answers every case alike, and the owner of
 * an address confirms an application by an emailed link.
 */

let server: TestServer;
let anon: SupabaseClient;

beforeAll(async () => {
  server = await startFormsServer();
  anon = clientFor(server);
});
afterAll(() => server?.close());

const NEUTRAL =
  'Thanks. We have sent a message to that address; follow it to confirm your application.';

/** Clients whose every request carries headers that used to empty `request.headers`. */
const PADDINGS: [string, Record<string, string>][] = [
  ['one header of 9,000 `"`', { 'x-padding': '"'.repeat(9000) }],
  [
    'many large headers',
    Object.fromEntries(
      Array.from({ length: 7 }, (_, index) => [`x-padding-${index}`, '"'.repeat(1300)]),
    ),
  ],
];

const padded = (headers: Record<string, string>) => clientFor(server, { global: { headers } });

/** Runs `work` with these limits and counters from zero, then puts the test defaults back. */
async function withSettings(
  settings: Record<string, number>,
  work: () => Promise<void>,
): Promise<void> {
  await server.db.query(`delete from private.submission_counts`);
  const columns = Object.keys(settings);
  if (columns.length > 0) {
    await server.db.query(
      `update public.site_settings set ${columns.map((column, index) => `${column} = $${index + 1}`).join(', ')}`,
      Object.values(settings),
    );
  }
  try {
    await work();
  } finally {
    await server.db.query(ALLOW_MANY_SUBMISSIONS);
    await server.db.query(`update public.site_settings set submissions_per_email_per_hour = 3`);
    await server.db.query(`delete from private.submission_counts`);
  }
}

let domains = 0;
/** An address at a domain of its own (the demo caps count per domain). */
function ownDomainEmail(label: string): string {
  domains += 1;
  return `${label}@d${domains}-${Date.now().toString(36)}.example.com`;
}

/** The next free demo slot this file has not used (the list is read once). */
let freeSlots: string[] | undefined;
async function nextSlot(): Promise<string> {
  if (!freeSlots) {
    const { data, error } = await anon.rpc('get_demo_slots');
    expect(error).toBeNull();
    freeSlots = (data as { starts_at: string }[]).map((slot) => slot.starts_at);
  }
  const slot = freeSlots.shift();
  if (!slot) throw new Error('no free demo slot left');
  return slot;
}

async function booking(overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return {
    starts_at: await nextSlot(),
    full_name: 'Bea Booker',
    email: ownDomainEmail('bea'),
    company: 'Booker Co',
    team_size: '6-20',
    time_zone: 'Europe/Paris',
    ...overrides,
  };
}

/**
 * Calls a form function in SQL as an anonymous request that carries only
 * these settings (as on a hosted project, or with no address at all); the
 * SQLSTATE of a refusal, else 'ok'.
 */
async function callAs(
  request: { clientIp?: string; headers?: Record<string, string> },
  sql: string,
  params: unknown[],
): Promise<string> {
  try {
    await withRequestContext(
      server.db,
      {
        role: 'anon',
        claims: { role: 'anon' },
        method: 'POST',
        path: '/rpc/form',
        headers: request.headers ?? {},
        ...(request.clientIp ? { clientIp: request.clientIp } : {}),
      },
      (tx) => tx.query(sql, params),
    );
    return 'ok';
  } catch (error) {
    if (error instanceof DatabaseError) return error.code;
    throw error;
  }
}

const INQUIRY_SQL = `select public.submit_sales_inquiry(full_name => 'Ada Lovelace', email => $1,
  company => 'Analytical Engines', team_size => '6-20', monthly_call_volume => '500-2000',
  consent => true)`;

describe('a padded request does not lift the per-network limit', () => {
  describe.each(PADDINGS)('with %s', (_, headers) => {
    it('on the sales inquiry', async () => {
      const client = padded(headers);
      await withSettings({ submissions_per_ip_per_hour: 2 }, async () => {
        for (let index = 0; index < 2; index += 1) {
          expect((await client.rpc('submit_sales_inquiry', inquiry())).error).toBeNull();
        }
        const before = await countRows(server, 'public.leads');
        expectRefusal(await client.rpc('submit_sales_inquiry', inquiry()), 429, 'rate_limited');
        // The padded and the plain requests are one network.
        expectRefusal(await anon.rpc('submit_sales_inquiry', inquiry()), 429, 'rate_limited');
        expect(await countRows(server, 'public.leads')).toBe(before);
      });
    });

    it('on the partner application', async () => {
      const client = padded(headers);
      await withSettings({ submissions_per_ip_per_hour: 2 }, async () => {
        for (let index = 0; index < 2; index += 1) {
          const result = await client.rpc('submit_partner_application', application());
          expect(result.error).toBeNull();
        }
        const before = await countRows(server, 'public.outbox_messages');
        expectRefusal(
          await client.rpc('submit_partner_application', application()),
          429,
          'rate_limited',
        );
        expect(await countRows(server, 'public.outbox_messages')).toBe(before);
      });
    });

    it('on book_demo', async () => {
      const client = padded(headers);
      await withSettings({ submissions_per_ip_per_hour: 2 }, async () => {
        for (let index = 0; index < 2; index += 1) {
          expect((await client.rpc('book_demo', await booking())).error).toBeNull();
        }
        const before = await countRows(server, 'public.demo_bookings');
        expectRefusal(await client.rpc('book_demo', await booking()), 429, 'rate_limited');
        expect(await countRows(server, 'public.demo_bookings')).toBe(before);
      });
    });

    it('on record_referral_click (60 an hour from one network)', async () => {
      const partner = await signedInClient(server, {
        fullName: 'Rita Referrer',
        company: 'Padded Partners',
        role: 'partner',
      });
      const { rows } = await server.db.query<{ id: string; referral_code: string }>(
        `select id, referral_code from public.partners where user_id = $1`,
        [partner.id],
      );
      const { id, referral_code: code } = rows[0]!;
      const client = padded(headers);
      await withSettings({}, async () => {
        for (let index = 0; index < 65; index += 1) {
          const result = await client.rpc('record_referral_click', { code });
          expect(result.error).toBeNull();
          expect(result.data).toBe(true);
        }
        const clicks = await server.db.query<{ clicks: number }>(
          `select sum(clicks)::int as clicks from public.referral_clicks where partner_id = $1`,
          [id],
        );
        expect(clicks.rows[0]!.clicks).toBe(60);
      });
    });
  });

  it('ignores an X-Forwarded-For the client sends (no trusted proxy)', async () => {
    await withSettings({ submissions_per_ip_per_hour: 1 }, async () => {
      expect((await anon.rpc('submit_sales_inquiry', inquiry())).error).toBeNull();
      const forged = clientFor(server, { global: { headers: { 'x-forwarded-for': '192.0.2.9' } } });
      expectRefusal(await forged.rpc('submit_sales_inquiry', inquiry()), 429, 'rate_limited');
    });
  });
});

describe('the caller’s network in SQL', () => {
  it('prefers request.client_ip, else the headers’ first x-forwarded-for (hosted Supabase)', async () => {
    await withSettings({ submissions_per_ip_per_hour: 1 }, async () => {
      const hosted = { headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' } };
      expect(await callAs(hosted, INQUIRY_SQL, [uniqueEmail('hosted')])).toBe('ok');
      expect(await callAs(hosted, INQUIRY_SQL, [uniqueEmail('hosted')])).toBe('PT429');
      const otherProxy = { headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.2' } };
      expect(await callAs(otherProxy, INQUIRY_SQL, [uniqueEmail('hosted')])).toBe('PT429');
      // request.client_ip wins over the header.
      expect(
        await callAs({ ...hosted, clientIp: '198.51.100.4' }, INQUIRY_SQL, [uniqueEmail('own')]),
      ).toBe('ok');
    });
  });

  it('counts every caller without an address as one network, never as unlimited', async () => {
    await withSettings({ submissions_per_ip_per_hour: 2 }, async () => {
      expect(await callAs({}, INQUIRY_SQL, [uniqueEmail('unknown')])).toBe('ok');
      expect(await callAs({}, INQUIRY_SQL, [uniqueEmail('unknown')])).toBe('ok');
      expect(await callAs({}, INQUIRY_SQL, [uniqueEmail('unknown')])).toBe('PT429');
      expect(
        await callAs({ headers: { 'x-forwarded-for': '' } }, INQUIRY_SQL, [uniqueEmail('x')]),
      ).toBe('PT429');
      // Someone with an address is not in that bucket.
      expect(await callAs({ clientIp: '198.51.100.5' }, INQUIRY_SQL, [uniqueEmail('k')])).toBe(
        'ok',
      );
    });
  });

  it('counts IPv6 per /64 and an IPv4-mapped address as the IPv4 one', async () => {
    const { rows } = await server.db.query<Record<string, string>>(
      `select private.network_of('2001:db8:1:2::1') as a,
         private.network_of('2001:db8:1:2:ffff:ffff:ffff:ffff') as b,
         private.network_of('2001:db8:1:3::1') as c,
         private.network_of('::ffff:192.0.2.1') as mapped,
         private.network_of('192.0.2.1') as v4,
         private.network_of(null) as missing,
         private.network_of('') as blank`,
    );
    expect(rows[0]).toEqual({
      a: '2001:db8:1:2::/64',
      b: '2001:db8:1:2::/64',
      c: '2001:db8:1:3::/64',
      mapped: '192.0.2.1',
      v4: '192.0.2.1',
      missing: 'unknown',
      blank: 'unknown',
    });
  });
});

describe('the global hourly cap per form', () => {
  it('refuses a form once everyone together reached it; other forms keep theirs', async () => {
    await withSettings({ submissions_per_form_per_hour: 2 }, async () => {
      expect((await anon.rpc('submit_sales_inquiry', inquiry())).error).toBeNull();
      expect(await callAs({ clientIp: '198.51.100.6' }, INQUIRY_SQL, [uniqueEmail('g')])).toBe(
        'ok',
      );
      const third = await anon.rpc('submit_sales_inquiry', inquiry());
      expectRefusal(third, 429, 'rate_limited');
      expect(third.error?.message).toMatch(/unusual number of submissions/);
      // From another network too.
      expect(await callAs({ clientIp: '198.51.100.7' }, INQUIRY_SQL, [uniqueEmail('g')])).toBe(
        'PT429',
      );
      expect((await anon.rpc('submit_partner_application', application())).error).toBeNull();
    });
  });

  it('is a setting admins can change', async () => {
    const admin = await signedInClient(server, {
      fullName: 'Adam Admin',
      company: 'Cervana',
      role: 'admin',
    });
    const result = await admin.client
      .from('site_settings')
      .update({
        submissions_per_form_per_hour: 250,
        demo_bookings_per_domain: 4,
        demo_bookings_per_network: 5,
      })
      .eq('id', true)
      .select('submissions_per_form_per_hour, demo_bookings_per_domain, demo_bookings_per_network');
    await server.db.query(ALLOW_MANY_SUBMISSIONS);
    expect(result.error).toBeNull();
    expect(result.data).toEqual([
      {
        submissions_per_form_per_hour: 250,
        demo_bookings_per_domain: 4,
        demo_bookings_per_network: 5,
      },
    ]);
  });
});

describe('future demos per email domain and per network', () => {
  it('caps the upcoming demos of one email domain; a cancelled one frees its place', async () => {
    await withSettings({ demo_bookings_per_domain: 2 }, async () => {
      const domain = `acme-${Date.now().toString(36)}.example.com`;
      const first = await anon.rpc('book_demo', await booking({ email: `ann@${domain}` }));
      expect(first.error).toBeNull();
      expect(
        (await anon.rpc('book_demo', await booking({ email: `bob@${domain}` }))).error,
      ).toBeNull();
      const before = await countRows(server, 'public.demo_bookings');
      const third = await anon.rpc('book_demo', await booking({ email: `cy@${domain}` }));
      expectRefusal(third, 429, 'rate_limited');
      expect(third.error?.message).toMatch(/upcoming demos/);
      expect(await countRows(server, 'public.demo_bookings')).toBe(before);
      // Another domain is not affected.
      expect((await anon.rpc('book_demo', await booking())).error).toBeNull();

      // The manage token is in the confirmation email only (issue 24, finding 6).
      const [confirmation] = await emailsFor(
        server,
        'booking_id',
        (first.data as { id: string }).id,
      );
      const token = /\/demo\?booking=([0-9a-f]{64})/.exec(confirmation!.body_text)![1];
      expect((await anon.rpc('cancel_demo_booking', { token })).error).toBeNull();
      expect(
        (await anon.rpc('book_demo', await booking({ email: `cy@${domain}` }))).error,
      ).toBeNull();
    });
  });

  it('counts one mailbox however its address is spelled (+tags, Gmail dots)', async () => {
    await withSettings({ submissions_per_email_per_hour: 1 }, async () => {
      const local = `mailbox${Date.now().toString(36)}`;
      expect(
        (await anon.rpc('submit_sales_inquiry', inquiry({ email: `${local}@gmail.com` }))).error,
      ).toBeNull();
      for (const spelling of [
        `${local}+sales@gmail.com`,
        `${local.slice(0, 4)}.${local.slice(4)}@gmail.com`,
        `${local.toUpperCase()}@googlemail.com`,
      ]) {
        expectRefusal(
          await anon.rpc('submit_sales_inquiry', inquiry({ email: spelling })),
          429,
          'rate_limited',
        );
      }
      // Dots matter outside Gmail; a +tag does not.
      const company = `${local}@acme-${local}.example.com`;
      expect(
        (await anon.rpc('submit_sales_inquiry', inquiry({ email: company }))).error,
      ).toBeNull();
      expectRefusal(
        await anon.rpc('submit_sales_inquiry', inquiry({ email: company.replace('@', '+x@') })),
        429,
        'rate_limited',
      );
      const dotted = `${local.slice(0, 4)}.${local.slice(4)}@acme-${local}.example.com`;
      expect((await anon.rpc('submit_sales_inquiry', inquiry({ email: dotted }))).error).toBeNull();
    });
  });

  it('on a public mail service, caps each address alone: a stranger cannot hold gmail.com', async () => {
    await withSettings({ demo_bookings_per_domain: 2 }, async () => {
      const stranger = `stranger-${Date.now().toString(36)}@gmail.com`;
      for (let index = 0; index < 2; index += 1) {
        expect((await anon.rpc('book_demo', await booking({ email: stranger }))).error).toBeNull();
      }
      const third = await anon.rpc('book_demo', await booking({ email: stranger.toUpperCase() }));
      expectRefusal(third, 429, 'rate_limited');
      expect(third.error?.message).toMatch(/for one person/);
      // The same inbox spelled another way is the same person.
      const [local] = stranger.split('@');
      for (const spelling of [
        `${local}+demo@gmail.com`,
        `${local!.slice(0, 3)}.${local!.slice(3)}@googlemail.com`,
      ]) {
        expectRefusal(
          await anon.rpc('book_demo', await booking({ email: spelling })),
          429,
          'rate_limited',
        );
      }
      // Someone else at gmail.com still books.
      const other = await anon.rpc(
        'book_demo',
        await booking({ email: `someone-else-${Date.now().toString(36)}@gmail.com` }),
      );
      expect(other.error).toBeNull();
    });
  });

  it('caps the upcoming demos booked from one network, whatever the addresses', async () => {
    await withSettings({ demo_bookings_per_network: 2 }, async () => {
      await server.db.query(`delete from private.demo_booking_networks`);
      for (let index = 0; index < 2; index += 1) {
        expect((await anon.rpc('book_demo', await booking())).error).toBeNull();
      }
      const third = await padded(PADDINGS[0]![1]).rpc('book_demo', await booking());
      expectRefusal(third, 429, 'rate_limited');
      expect(third.error?.message).toMatch(/upcoming demos/);
      // The booking's network is stored hashed, never in the clear.
      const { rows } = await server.db.query<{ network_hash: string }>(
        `select network_hash from private.demo_booking_networks`,
      );
      expect(rows).toHaveLength(2);
      for (const row of rows) expect(row.network_hash).toMatch(/^[0-9a-f]{64}$/);
    });
  });
});

describe('partner applications', () => {
  const APPLY_SQL = `select public.submit_partner_application(full_name => 'Priya Patel',
    email => $1, company => 'Brightpath Advisors', partner_type => 'consultancy',
    expected_referrals => 5)`;

  /** The token of the newest confirmation link emailed to an address. */
  async function confirmationToken(email: string): Promise<string> {
    const { rows } = await server.db.query<{ body_text: string }>(
      `select body_text from public.outbox_messages
       where recipient = $1 and template = 'partner_application_confirm'
       order by created_at desc, id desc limit 1`,
      [email],
    );
    const token = /\/partner\?confirm=([0-9a-f]{64})\b/.exec(rows[0]?.body_text ?? '')?.[1];
    if (!token) throw new Error(`no confirmation link for ${email}`);
    return token;
  }

  async function applications(email: string) {
    const { rows } = await server.db.query<{ id: string; status: string; company: string }>(
      `select id, status, company from public.partner_applications where email = $1
       order by created_at`,
      [email],
    );
    return rows;
  }

  async function templatesFor(email: string): Promise<string[]> {
    const { rows } = await server.db.query<{ template: string }>(
      `select template from public.outbox_messages where recipient = $1 order by created_at, id`,
      [email],
    );
    return rows.map((row) => row.template);
  }

  /** An address in each state the form must not reveal. */
  async function addresses() {
    const fresh = uniqueEmail('fresh');
    const partner = (
      await signedInClient(server, { fullName: 'Paula Partner', company: 'P Co', role: 'partner' })
    ).email;
    const confirmed = uniqueEmail('confirmed');
    expect(
      (await anon.rpc('submit_partner_application', application({ email: confirmed }))).error,
    ).toBeNull();
    const confirm = await anon.rpc('confirm_partner_application', {
      token: await confirmationToken(confirmed),
    });
    expect(confirm.data).toMatchObject({ status: 'confirmed' });
    const unconfirmed = uniqueEmail('unconfirmed');
    expect(
      (await anon.rpc('submit_partner_application', application({ email: unconfirmed }))).error,
    ).toBeNull();
    return { fresh, partner, confirmed, unconfirmed };
  }

  it('answers a new address, a partner, a confirmed and an unconfirmed application alike', async () => {
    const { fresh, partner, confirmed, unconfirmed } = await addresses();
    const answers = [];
    for (const email of [fresh, partner, confirmed, unconfirmed]) {
      const response = await fetch(`${server.url}/rest/v1/rpc/submit_partner_application`, {
        method: 'POST',
        headers: {
          apikey: server.anonKey,
          authorization: `Bearer ${server.anonKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(application({ email })),
      });
      answers.push({ status: response.status, body: (await response.text()).replace(email, '@') });
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]!.status).toBe(200);
    expect(JSON.parse(answers[0]!.body)).toEqual({ email: '@', message: NEUTRAL });

    // What each address's owner is told, and what is stored.
    expect((await applications(fresh)).map((row) => row.status)).toEqual(['unconfirmed']);
    expect(await templatesFor(fresh)).toEqual(['partner_application_confirm']);
    expect(await applications(partner)).toEqual([]);
    expect(await templatesFor(partner)).toEqual(['partner_application_existing_partner']);
    expect((await applications(confirmed)).map((row) => row.status)).toEqual(['pending']);
    expect((await templatesFor(confirmed)).at(-1)).toBe('partner_application_already_received');
    expect((await applications(unconfirmed)).map((row) => row.status)).toEqual(['unconfirmed']);
    expect(await templatesFor(unconfirmed)).toEqual([
      'partner_application_confirm',
      'partner_application_confirm',
    ]);
  });

  it('applies the limits before looking at the address', async () => {
    const { partner, confirmed } = await addresses();
    await withSettings({ submissions_per_ip_per_hour: 1 }, async () => {
      expect((await anon.rpc('submit_partner_application', application())).error).toBeNull();
      for (const email of [partner, confirmed]) {
        const before = await countRows(server, 'public.outbox_messages');
        expectRefusal(
          await anon.rpc('submit_partner_application', application({ email })),
          429,
          'rate_limited',
        );
        expect(await countRows(server, 'public.outbox_messages')).toBe(before);
      }
    });
    await withSettings({ submissions_per_email_per_hour: 1 }, async () => {
      expect(await callAs({ clientIp: '198.51.100.8' }, APPLY_SQL, [partner])).toBe('ok');
      expect(await callAs({ clientIp: '198.51.100.9' }, APPLY_SQL, [partner])).toBe('PT429');
    });
  });

  it('is confirmed by its link once: the team hears of it then; a reused or unknown link is refused', async () => {
    const email = uniqueEmail('confirming');
    const submitted = await anon.rpc('submit_partner_application', application({ email }));
    expect(submitted.data).toEqual({ email, message: NEUTRAL });
    const [stored] = await applications(email);
    expect(stored?.status).toBe('unconfirmed');
    // Nothing reaches the team before the owner confirms.
    expect(
      (await emailsFor(server, 'application_id', stored!.id)).map((mail) => mail.template),
    ).toEqual(['partner_application_confirm']);
    const { rows: hashes } = await server.db.query<{ stored: boolean }>(
      `select confirm_token_hash = sha256(convert_to($2, 'UTF8')) as stored
       from public.partner_applications where id = $1`,
      [stored!.id, await confirmationToken(email)],
    );
    expect(hashes).toEqual([{ stored: true }]);

    const token = await confirmationToken(email);
    const confirmed = await anon.rpc('confirm_partner_application', { token });
    expect(confirmed.error).toBeNull();
    expect(confirmed.data).toMatchObject({
      status: 'confirmed',
      reference: stored!.id.slice(0, 8).toUpperCase(),
      company: 'Brightpath Advisors',
    });
    expect((await applications(email)).map((row) => row.status)).toEqual(['pending']);
    expect(
      (await emailsFor(server, 'application_id', stored!.id)).map((mail) => mail.template).sort(),
    ).toEqual([
      'partner_application_confirm',
      'partner_application_notification',
      'partner_application_received',
    ]);

    const outbox = await countRows(server, 'public.outbox_messages');
    const reused = await anon.rpc('confirm_partner_application', { token });
    expect(reused.data).toMatchObject({ status: 'used' });
    for (const unknown of ['0'.repeat(64), 'not-a-token', '']) {
      const result = await anon.rpc('confirm_partner_application', { token: unknown });
      expect(result.error).toBeNull();
      expect(result.data).toMatchObject({ status: 'invalid' });
      expect((result.data as { message: string }).message).toMatch(/^[A-Z].{10,}\.$/);
    }
    expect(await countRows(server, 'public.outbox_messages')).toBe(outbox);
  });

  it('refuses an expired link', async () => {
    const email = uniqueEmail('late');
    expect((await anon.rpc('submit_partner_application', application({ email }))).error).toBeNull();
    await server.db.query(
      `update public.partner_applications set confirm_expires_at = now() - interval '1 minute'
       where email = $1`,
      [email],
    );
    const result = await anon.rpc('confirm_partner_application', {
      token: await confirmationToken(email),
    });
    expect(result.data).toMatchObject({ status: 'expired' });
    expect((await applications(email)).map((row) => row.status)).toEqual(['unconfirmed']);
  });

  it('limits confirmation attempts per network, the wrong ones included', async () => {
    await withSettings({ submissions_per_ip_per_hour: 2 }, async () => {
      for (let index = 0; index < 2; index += 1) {
        const result = await anon.rpc('confirm_partner_application', { token: 'f'.repeat(64) });
        expect(result.data).toMatchObject({ status: 'invalid' });
      }
      expectRefusal(
        await anon.rpc('confirm_partner_application', { token: 'f'.repeat(64) }),
        429,
        'rate_limited',
      );
    });
  });

  it('does not let an unconfirmed application block a new one from the same address', async () => {
    const email = uniqueEmail('squatted');
    expect(
      (
        await anon.rpc(
          'submit_partner_application',
          application({ email, company: 'Squatter Ltd', full_name: 'Not Them' }),
        )
      ).error,
    ).toBeNull();
    const squatterToken = await confirmationToken(email);

    const own = await anon.rpc('submit_partner_application', application({ email }));
    expect(own.data).toEqual({ email, message: NEUTRAL });
    expect(await applications(email)).toEqual([
      expect.objectContaining({ status: 'unconfirmed', company: 'Brightpath Advisors' }),
    ]);
    const ownToken = await confirmationToken(email);
    expect(ownToken).not.toBe(squatterToken);

    const stale = await anon.rpc('confirm_partner_application', { token: squatterToken });
    expect(stale.data).toMatchObject({ status: 'invalid' });
    const confirmed = await anon.rpc('confirm_partner_application', { token: ownToken });
    expect(confirmed.data).toMatchObject({ status: 'confirmed', company: 'Brightpath Advisors' });
  });

  it('keeps an unconfirmed application out of review: an admin cannot approve it', async () => {
    const admin = await signedInClient(server, {
      fullName: 'Ada Admin',
      company: 'Cervana',
      role: 'admin',
    });
    const email = uniqueEmail('unreviewed');
    expect((await anon.rpc('submit_partner_application', application({ email }))).error).toBeNull();
    const [stored] = await applications(email);
    // Admins decide through approve_partner_application only, which reviews
    // pending (confirmed) applications; the table itself takes no admin writes.
    const direct = await admin.client
      .from('partner_applications')
      .update({ status: 'approved' })
      .eq('id', stored!.id)
      .select('status');
    expect({ status: direct.status, code: direct.error?.code }).toEqual({
      status: 403,
      code: '42501',
    });
    const approve = await admin.client.rpc('approve_partner_application', {
      p_application_id: stored!.id,
    });
    expect({ status: approve.status, data: approve.data }).toEqual({ status: 409, data: null });
    expect(approve.error!.message).toMatch(/^[A-Z][^\n]{10,}[.!?]$/);
    const read = await admin.client
      .from('partner_applications')
      .select('status, confirmed_at')
      .eq('id', stored!.id);
    expect(read.data).toEqual([{ status: 'unconfirmed', confirmed_at: null }]);
    const hash = await admin.client.from('partner_applications').select('confirm_token_hash');
    expect(hash.error).not.toBeNull();
  });
});
