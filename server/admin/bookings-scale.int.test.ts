import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, startFormsServer, type SignedIn } from '../forms/forms-testing';
import type { TestServer } from '../testing/harness';

/**
 * The admin bookings list at 100,000 bookings: every page the list asks for
 * (upcoming and past, with a status, after a cursor) is read through the
 * (starts_at, id) indexes, not by sorting the table.
 */

let server: TestServer;
let admin: SignedIn;

const COLUMNS = 'id, starts_at, full_name, email, company, status';

beforeAll(async () => {
  server = await startFormsServer();
  admin = await signedInClient(server, { fullName: 'Ada Admin', role: 'admin' });
  // 50,000 in the past and 50,000 beyond the booking horizon, a tenth cancelled.
  // In batches: one statement must finish within the embedded database's watchdog.
  for (let batch = 0; batch < 20; batch += 1) {
    await server.db.query(
      `insert into public.demo_bookings (starts_at, ends_at, full_name, email, company, team_size,
        time_zone, status, manage_token_hash)
      select t, t + interval '30 minutes', 'Visitor ' || n, 'visitor' || n || '@example.com',
        'Company ' || n, '6-20', 'Europe/Paris',
        case when n % 10 = 0 then 'cancelled' else 'confirmed' end,
        sha256(convert_to('scale' || n, 'UTF8'))
      from generate_series($1::int, $1::int + 4999) n,
        lateral (select case when n <= 50000 then now() - n * interval '1 hour'
          else now() + interval '400 days' + (n - 50000) * interval '1 hour' end as t) s`,
      [batch * 5000 + 1],
    );
  }
  await server.db.query('analyze public.demo_bookings');
}, 300_000);
afterAll(() => server?.close());

async function timed<T>(run: () => PromiseLike<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await run();
  return [result, performance.now() - start];
}

describe('the bookings list at 100,000 rows', () => {
  it('reads each page by the index', async () => {
    const now = new Date().toISOString();
    const [upcoming, upcomingMs] = await timed(() =>
      admin.client
        .from('demo_bookings')
        .select(COLUMNS)
        .gte('starts_at', now)
        .order('starts_at')
        .order('id')
        .limit(51),
    );
    expect(upcoming.data).toHaveLength(51);
    const last = upcoming.data!.at(-1)!;
    const [next, nextMs] = await timed(() =>
      admin.client
        .from('demo_bookings')
        .select(COLUMNS)
        .gte('starts_at', now)
        .gte('starts_at', last.starts_at)
        .or(
          `starts_at.gt."${last.starts_at}",and(starts_at.eq."${last.starts_at}",id.gt.${last.id})`,
        )
        .order('starts_at')
        .order('id')
        .limit(51),
    );
    expect(next.data![0]!.starts_at > last.starts_at).toBe(true);
    const [past, pastMs] = await timed(() =>
      admin.client
        .from('demo_bookings')
        .select(COLUMNS)
        .lt('starts_at', now)
        .eq('status', 'cancelled')
        .order('starts_at', { ascending: false })
        .order('id', { ascending: false })
        .limit(51),
    );
    expect(past.data).toHaveLength(51);
    const [search, searchMs] = await timed(() =>
      admin.client
        .from('demo_bookings')
        .select(COLUMNS)
        .lt('starts_at', now)
        .or('company.ilike."*y 4999*",full_name.ilike."*y 4999*",email.ilike."*y 4999*"')
        .order('starts_at', { ascending: false })
        .order('id', { ascending: false })
        .limit(51),
    );
    expect(search.data!.length).toBeGreaterThan(0);
    console.log(
      `bookings list at 100k: upcoming ${upcomingMs.toFixed(0)} ms, next page ${nextMs.toFixed(0)} ms, past cancelled ${pastMs.toFixed(0)} ms, search ${searchMs.toFixed(0)} ms`,
    );

    for (const [label, sql] of [
      [
        'upcoming after a cursor',
        `select id from public.demo_bookings where starts_at >= now()
           and starts_at >= now() + interval '500 days'
           and (starts_at > now() + interval '500 days'
             or (starts_at = now() + interval '500 days' and id > gen_random_uuid()))
           order by starts_at, id limit 51`,
      ],
      [
        'past, cancelled',
        `select id from public.demo_bookings where starts_at < now() and status = 'cancelled'
           order by starts_at desc, id desc limit 51`,
      ],
    ] as const) {
      const { rows } = await server.db.query<{ 'QUERY PLAN': string }>(`explain ${sql}`);
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan, label).toMatch(
        /Index (Only )?Scan( Backward)? using demo_bookings_(status_)?starts_at_id_idx/,
      );
      expect(plan, label).not.toMatch(/Sort/);
    }
  });
});
