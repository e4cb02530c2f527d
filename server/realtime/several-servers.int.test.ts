import type { RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { openPostgres } from '../db/postgres';
import {
  cloneTestDatabase,
  startTestServer,
  testDatabaseKind,
  type TestDatabase,
  type TestServer,
} from '../testing/harness';
import { delay, Inbox, realtimeClient, subscribed, uniqueTopic } from './realtime-testing';

/**
 * Two servers over one PostgreSQL database, as behind a load balancer: a
 * client on each. Every broadcast, presence change and database change
 * reaches every subscriber exactly once, whichever server each is on. (The
 * embedded database belongs to one server, so this runs on PostgreSQL only.)
 */

const SECRET = 'a shared signing secret for both servers, 32+ chars';

describe.runIf(testDatabaseKind() === 'postgres')('two servers on one PostgreSQL', () => {
  let database: TestDatabase;
  let secondDb: Database;
  let first: TestServer;
  let second: TestServer;
  const clients: SupabaseClient[] = [];

  function clientOn(server: TestServer): SupabaseClient {
    const client = realtimeClient(server);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    database = await cloneTestDatabase();
    secondDb = await openPostgres(database.url!, { maxConnections: 5 });
    const env = { JWT_SECRET: SECRET };
    first = await startTestServer({ database: database.db, env });
    second = await startTestServer({ database: secondDb, env });
    await first.db.exec(`
      create table public.rt_shared (id int primary key, note text);
      alter table public.rt_shared enable row level security;
      grant select on public.rt_shared to anon;
      create policy "anyone reads" on public.rt_shared for select to anon using (true);
      alter publication supabase_realtime add table public.rt_shared;
    `);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.removeAllChannels()));
    await first?.close();
    await second?.close();
    await secondDb?.close();
    await database?.drop();
  });

  it('delivers broadcasts (socket and REST) once to subscribers on both servers', async () => {
    const topic = uniqueTopic('shared');
    const onFirst = clientOn(first).channel(topic, { config: { broadcast: { self: true } } });
    const onSecond = clientOn(second).channel(topic);
    const firstInbox = new Inbox<{ event: string }>();
    const secondInbox = new Inbox<{ event: string }>();
    onFirst.on('broadcast', { event: '*' }, firstInbox.push);
    onSecond.on('broadcast', { event: '*' }, secondInbox.push);
    await Promise.all([subscribed(onFirst), subscribed(onSecond)]);

    await onFirst.send({
      type: 'broadcast',
      event: 'from-first',
      payload: { big: 'z'.repeat(20_000) },
    });
    await onSecond.send({ type: 'broadcast', event: 'from-second', payload: {} });
    expect(await onSecond.httpSend('over-http', { n: 1 })).toEqual({ success: true });
    await firstInbox.waitFor(3);
    await secondInbox.waitFor(2);
    await delay(500);
    expect(firstInbox.items.map((item) => item.event).sort()).toEqual([
      'from-first',
      'from-second',
      'over-http',
    ]);
    expect(secondInbox.items.map((item) => item.event).sort()).toEqual(['from-first', 'over-http']);
  });

  it('shares presence between the servers, joins and leaves', async () => {
    const topic = uniqueTopic('presence');
    const a = clientOn(first).channel(topic, { config: { presence: { key: 'on-first' } } });
    const b = clientOn(second).channel(topic, { config: { presence: { key: 'on-second' } } });
    const joinsOnB = new Inbox<{ key: string }>();
    b.on('presence', { event: 'join' }, joinsOnB.push);
    a.on('presence', { event: 'sync' }, () => undefined);
    await subscribed(a);
    await a.track({ where: 'first' });
    await subscribed(b);
    // The second server's client sees the first's presence in its initial state…
    await until(() => 'on-first' in b.presenceState());
    await b.track({ where: 'second' });
    // …and each side sees the other's.
    await until(() => 'on-second' in a.presenceState());
    expect(Object.keys(a.presenceState()).sort()).toEqual(['on-first', 'on-second']);
    await a.untrack();
    await until(() => !('on-first' in b.presenceState()));
    expect(joinsOnB.items.filter((item) => item.key === 'on-second')).toHaveLength(1);
  });

  it('delivers each database change once to subscribers on both servers', async () => {
    type Change = RealtimePostgresChangesPayload<{ id: number; note: string }>;
    const inboxes = [new Inbox<Change>(), new Inbox<Change>()];
    const channels = [first, second].map((server, index) =>
      clientOn(server)
        .channel(uniqueTopic('changes'))
        .on(
          'postgres_changes' as never,
          { event: 'INSERT', schema: 'public', table: 'rt_shared' } as never,
          inboxes[index]!.push as never,
        ),
    );
    await Promise.all(channels.map(subscribed));
    await first.db.query(`insert into public.rt_shared (id, note) values (1, 'one')`);
    await secondDb.query(`insert into public.rt_shared (id, note) values (2, 'two')`);
    for (const inbox of inboxes) await inbox.waitFor(2);
    await delay(500);
    for (const inbox of inboxes) {
      expect(inbox.items.map((change) => (change.new as { id: number }).id).sort()).toEqual([1, 2]);
    }
  });
});

async function until(check: () => boolean, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await delay(25);
  }
}
