import type { RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inquiry } from '../forms/forms-testing';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';
import {
  delay,
  Inbox,
  realtimeClient,
  signedInRealtimeClient,
  subscribed,
  uniqueTopic,
  type Vsn,
} from './realtime-testing';

/**
 * Database changes end to end (contract §5.6): a row written in SQL reaches
 * the official client's `postgres_changes` listener, filtered by event, table
 * and filter, and only when the subscriber's own RLS lets it select the row.
 */

type Change = RealtimePostgresChangesPayload<Record<string, unknown>>;

let server: TestServer;
const clients: SupabaseClient[] = [];
let alice: Awaited<ReturnType<typeof signedInRealtimeClient>>;
let bob: Awaited<ReturnType<typeof signedInRealtimeClient>>;

beforeAll(async () => {
  server = await startTestServer();
  await server.db.exec(`
    create table public.rt_tasks (
      id int primary key,
      owner uuid not null,
      title text not null,
      points int not null default 0,
      done boolean not null default false
    );
    alter table public.rt_tasks enable row level security;
    grant select on public.rt_tasks to authenticated;
    create policy "owners read their tasks" on public.rt_tasks for select to authenticated
      using (owner = (select auth.uid()));
    alter publication supabase_realtime add table public.rt_tasks;
  `);
  alice = await signedInRealtimeClient(server, { fullName: 'Alice Changes' });
  bob = await signedInRealtimeClient(server, { fullName: 'Bob Changes' });
  clients.push(alice.client, bob.client);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.removeAllChannels()));
  await server?.close();
});

let nextId = 1;
async function insertTask(owner: string, title: string, points = 0): Promise<number> {
  const id = nextId++;
  await server.db.query(
    'insert into public.rt_tasks (id, owner, title, points) values ($1, $2, $3, $4)',
    [id, owner, title, points],
  );
  return id;
}

function listen(
  client: SupabaseClient,
  binding: { event: '*' | 'INSERT' | 'UPDATE' | 'DELETE'; table: string; filter?: string },
): { inbox: Inbox<Change>; ready: Promise<unknown> } {
  const inbox = new Inbox<Change>();
  const channel = client
    .channel(uniqueTopic('changes'))
    .on(
      'postgres_changes' as never,
      { schema: 'public', ...binding } as never,
      inbox.push as never,
    );
  return { inbox, ready: subscribed(channel) };
}

describe.each<Vsn>(['1.0.0', '2.0.0'])('postgres_changes, vsn %s', (vsn) => {
  it('delivers INSERT, UPDATE and DELETE of the subscriber’s own rows, typed', async () => {
    const user = await signedInRealtimeClient(server, { vsn, fullName: 'Vera Version' });
    clients.push(user.client);
    const all = listen(user.client, { event: '*', table: 'rt_tasks' });
    const deletes = listen(user.client, { event: 'DELETE', table: 'rt_tasks' });
    await Promise.all([all.ready, deletes.ready]);

    const id = await insertTask(user.id, 'write tests', 3);
    await server.db.query('update public.rt_tasks set done = true where id = $1', [id]);
    await server.db.query('delete from public.rt_tasks where id = $1', [id]);
    const changes = await all.inbox.waitFor(3);
    expect(changes.map((change) => change.eventType)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    expect(changes[0]).toMatchObject({
      schema: 'public',
      table: 'rt_tasks',
      new: { id, owner: user.id, title: 'write tests', points: 3, done: false },
      errors: null,
    });
    expect(changes[0]!.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(changes[1]).toMatchObject({ new: { id, done: true }, old: { id } });
    expect(changes[2]).toMatchObject({ old: { id } });
    expect(changes[2]!.new).toEqual({});
    const [onlyDelete] = await deletes.inbox.waitFor(1);
    expect(onlyDelete!.eventType).toBe('DELETE');
    await delay(200);
    expect(deletes.inbox.items).toHaveLength(1);
  });
});

describe('filters', () => {
  it.each([
    ['points=eq.5', [5]],
    ['points=neq.5', [1, 9]],
    ['points=lt.5', [1]],
    ['points=lte.5', [1, 5]],
    ['points=gt.5', [9]],
    ['points=gte.5', [5, 9]],
    ['points=in.(1,9)', [1, 9]],
  ])('%s', async (filter, expected) => {
    const { inbox, ready } = listen(alice.client, { event: 'INSERT', table: 'rt_tasks', filter });
    await ready;
    for (const points of [1, 5, 9]) await insertTask(alice.id, `filter ${filter}`, points);
    const changes = await inbox.waitFor(expected.length);
    await delay(300);
    expect(changes.map((change) => (change.new as { points: number }).points)).toEqual(expected);
  });
});

describe('row-level security on delivery', () => {
  it("never sends a customer another customer's rows, not even on DELETE", async () => {
    const aliceInbox = listen(alice.client, { event: '*', table: 'rt_tasks' });
    const bobInbox = listen(bob.client, { event: '*', table: 'rt_tasks' });
    await Promise.all([aliceInbox.ready, bobInbox.ready]);
    const bobsTask = await insertTask(bob.id, 'bob only');
    await server.db.query("update public.rt_tasks set title = 'still bob' where id = $1", [
      bobsTask,
    ]);
    await server.db.query('delete from public.rt_tasks where id = $1', [bobsTask]);
    const alicesTask = await insertTask(alice.id, 'alice only');
    const [first] = await aliceInbox.inbox.waitFor(1);
    expect((first!.new as { id: number }).id).toBe(alicesTask);
    await bobInbox.inbox.waitFor(3);
    await delay(300);
    expect(aliceInbox.inbox.items).toHaveLength(1);
    expect(bobInbox.inbox.items.map((change) => change.eventType)).toEqual([
      'INSERT',
      'UPDATE',
      'DELETE',
    ]);
  });

  it('gives admins the leads from the public form, and anon or customers nothing', async () => {
    const admin = await signedInRealtimeClient(server, { role: 'admin', fullName: 'Ada Admin' });
    const anon = realtimeClient(server);
    clients.push(admin.client, anon);
    const adminLeads = listen(admin.client, { event: 'INSERT', table: 'leads' });
    const anonLeads = listen(anon, { event: 'INSERT', table: 'leads' });
    const customerLeads = listen(alice.client, { event: 'INSERT', table: 'leads' });
    await Promise.all([adminLeads.ready, anonLeads.ready, customerLeads.ready]);

    const { error } = await clientFor(server).rpc(
      'submit_sales_inquiry',
      inquiry({ company: 'Live Lead Ltd' }),
    );
    expect(error).toBeNull();
    const [lead] = await adminLeads.inbox.waitFor(1);
    expect(lead!.new).toMatchObject({ company: 'Live Lead Ltd' });
    await delay(400);
    expect(anonLeads.inbox.items).toEqual([]);
    expect(customerLeads.inbox.items).toEqual([]);
  });
});

describe('the publication', () => {
  it('captures a table published after the server started', async () => {
    await server.db.exec(`
      create table public.rt_late (id int primary key, note text);
      alter table public.rt_late enable row level security;
      grant select on public.rt_late to anon;
      create policy "anyone reads" on public.rt_late for select to anon using (true);
    `);
    const anon = realtimeClient(server);
    clients.push(anon);
    const before = listen(anon, { event: 'INSERT', table: 'rt_late' });
    const system = new Inbox<{ status: string; message: string }>();
    await before.ready;

    // Not published yet: the join is answered, with the error system message.
    const channel = anon.channel(uniqueTopic('late-system'));
    channel
      .on(
        'postgres_changes' as never,
        { event: 'INSERT', schema: 'public', table: 'rt_late' } as never,
        () => undefined,
      )
      .on('system', {}, system.push);
    await subscribed(channel);
    const [refused] = await system.waitFor(1);
    expect(refused).toMatchObject({ status: 'error' });
    expect(refused!.message).toContain('Unable to subscribe to changes with given parameters');

    await server.db.exec('alter publication supabase_realtime add table public.rt_late;');
    const after = listen(anon, { event: 'INSERT', table: 'rt_late' });
    await after.ready;
    await server.db.query("insert into public.rt_late (id, note) values (1, 'published')");
    const [change] = await after.inbox.waitFor(1);
    expect(change!.new).toEqual({ id: 1, note: 'published' });
  });
});
