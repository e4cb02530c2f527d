import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, inquiry, startFormsServer } from '../forms/forms-testing';
import { clientFor, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';
import { withinOneRateWindow } from '../testing/rate-windows';

/**
 * Security issue 24, finding 3: behind a proxy (`TRUST_PROXY`), the server
 * took the first `X-Forwarded-For` entry, which the client writes itself, and
 * stored any text there as the caller's address. Proxies append on the right,
 * so the address now comes from the right: a configured number of hops, or
 * the first address outside the listed proxies, and only ever a valid IP.
 *
 * The test servers' peer is 127.0.0.1; each request's X-Forwarded-For is what
 * the proxies in front would have passed on, a forged left part included.
 */

const PASSWORD = 'a long and unusual passphrase 7';

/** What `/rest/v1` sets as `request.client_ip` for a request with this header. */
async function seenAddress(server: TestServer, forwardedFor?: string): Promise<string> {
  const headers: Record<string, string> = forwardedFor ? { 'x-forwarded-for': forwardedFor } : {};
  const { data, error } = await clientFor(server, { global: { headers } }).rpc(
    'test_request_address',
  );
  expect(error).toBeNull();
  return data as string;
}

/** A function that shows the address the server handed to SQL (test database only). */
async function addAddressProbe(server: TestServer): Promise<void> {
  await server.db.query(`
    create function public.test_request_address() returns text language sql stable
      as $$ select current_setting('request.client_ip', true) $$`);
  await server.db.query(`grant execute on function public.test_request_address() to anon`);
  await server.reloadSchema();
}

/** The address stored with the session of a sign-up made through this header. */
async function sessionAddress(server: TestServer, forwardedFor: string): Promise<string | null> {
  const supabase = clientFor(server, { global: { headers: { 'x-forwarded-for': forwardedFor } } });
  const email = uniqueEmail('address');
  const { data, error } = await supabase.auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  const { rows } = await server.db.query<{ ip: string | null }>(
    `select host(ip) as ip from auth.sessions where user_id = $1`,
    [data.user!.id],
  );
  return rows[0]!.ip;
}

describe.each([
  ['one proxy (TRUST_PROXY=1)', '1', '203.0.113.7'],
  ['two proxies (TRUST_PROXY=2)', '2', '203.0.113.7, 10.0.0.9'],
  [
    'listed proxies (TRUST_PROXY=loopback,10.0.0.0/8)',
    'loopback,10.0.0.0/8',
    '203.0.113.7, 10.0.0.9',
  ],
])('behind %s', (_, trust, realChain) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startFormsServer({
      TRUST_PROXY: trust,
      MAILER_AUTOCONFIRM: 'true',
      RATE_LIMIT_SIGN_IN_SIGN_UPS: '10',
    });
    await addAddressProbe(server);
  });
  afterAll(() => server?.close());

  it('takes the address the proxies saw, whatever the client wrote in front of it', async () => {
    expect(await seenAddress(server, realChain)).toBe('203.0.113.7');
    for (const forged of ['6.6.6.6', '6.6.6.6, 7.7.7.7', 'not-an-ip', '<b>x</b>', '::1']) {
      expect(await seenAddress(server, `${forged}, ${realChain}`), forged).toBe('203.0.113.7');
    }
    expect(await sessionAddress(server, `6.6.6.6, ${realChain}`)).toBe('203.0.113.7');
  });

  it('stores only a valid address: a malformed entry where the client should be stops at the hop that sent it', async () => {
    const proxies = realChain.split(', ').slice(1);
    const hopThatSentIt = proxies.at(-1) ?? '127.0.0.1';
    for (const malformed of ['not-an-ip', '<script>alert(1)</script>', 'unknown', '1.2.3']) {
      const chain = [malformed, ...proxies].join(', ');
      expect(await seenAddress(server, chain), malformed).toBe(hopThatSentIt);
      expect(await sessionAddress(server, chain), malformed).toBe(hopThatSentIt);
    }
    expect(await seenAddress(server)).toBe('127.0.0.1');
  });

  it('writes IPv6 one way, so one subscriber is one address', async () => {
    const proxies = realChain.split(', ').slice(1);
    const chain = (client: string) => [client, ...proxies].join(', ');
    expect(await seenAddress(server, chain('[2001:DB8:0:0::1]:443'))).toBe('2001:db8::1');
    expect(await seenAddress(server, chain('::ffff:198.51.100.1'))).toBe('198.51.100.1');
  });

  it('keeps the per-network form limit when the client rotates the first entry', async () => {
    await server.db.query(`delete from private.submission_counts`);
    await server.db.query(`update public.site_settings set submissions_per_ip_per_hour = 3`);
    const from = (forged: string) =>
      clientFor(server, {
        global: { headers: { 'x-forwarded-for': `${forged}, ${realChain}` } },
      });
    for (let index = 0; index < 3; index += 1) {
      expect(
        (await from(`6.6.6.${index}`).rpc('submit_sales_inquiry', inquiry())).error,
      ).toBeNull();
    }
    expectRefusal(
      await from('6.6.6.99').rpc('submit_sales_inquiry', inquiry()),
      429,
      'rate_limited',
    );
    // Another client behind the same proxies is not affected.
    const neighbour = realChain.replace('203.0.113.7', '203.0.113.8');
    const other = clientFor(server, { global: { headers: { 'x-forwarded-for': neighbour } } });
    expect((await other.rpc('submit_sales_inquiry', inquiry())).error).toBeNull();
  });

  it('keeps the sign-up limit when the client rotates the first entry', async () => {
    await withinOneRateWindow(300, 30);
    const statuses: number[] = [];
    for (let index = 0; index < 20; index += 1) {
      const response = await fetch(`${server.url}/auth/v1/signup`, {
        method: 'POST',
        headers: {
          apikey: server.anonKey,
          'content-type': 'application/json',
          'x-forwarded-for': `198.18.7.${index}, ${realChain.replace('203.0.113.7', '203.0.113.50')}`,
        },
        body: JSON.stringify({ email: uniqueEmail('rotating'), password: PASSWORD }),
      });
      statuses.push(response.status);
      await response.body?.cancel();
      if (response.status === 429) break;
    }
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429]);
  });
});
