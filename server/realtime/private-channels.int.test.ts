import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness';
import {
  delay,
  Inbox,
  realtimeClient,
  signedInRealtimeClient,
  subscribe,
  subscribed,
} from './realtime-testing';

/**
 * Private channels (contract §5.3): a join is allowed by the SELECT policies
 * on `realtime.messages` and sending by its INSERT policies, with
 * `realtime.topic()` naming the channel, exactly as on Supabase.
 */

let server: TestServer;
const clients: SupabaseClient[] = [];
let alice: Awaited<ReturnType<typeof signedInRealtimeClient>>;
let bob: Awaited<ReturnType<typeof signedInRealtimeClient>>;

beforeAll(async () => {
  server = await startTestServer();
  // A team room per user: its owner reads and broadcasts; nobody may track presence there.
  await server.db.exec(`
    create policy "owners read their room" on realtime.messages for select to authenticated
      using (realtime.topic() = 'room:' || (select auth.uid())::text);
    create policy "owners broadcast in their room" on realtime.messages for insert to authenticated
      with check (realtime.topic() = 'room:' || (select auth.uid())::text and extension = 'broadcast');
  `);
  alice = await signedInRealtimeClient(server, { fullName: 'Alice Private' });
  bob = await signedInRealtimeClient(server, { fullName: 'Bob Private' });
  clients.push(alice.client, bob.client);
});
afterAll(async () => {
  await Promise.all(clients.map((created) => created.removeAllChannels()));
  await server?.close();
});

describe('private channels', () => {
  it('let the owner join, broadcast and receive in their room', async () => {
    const room = `room:${alice.id}`;
    const second = await signedInAs(alice.accessToken);
    const listener = second.channel(room, { config: { private: true } });
    const inbox = new Inbox<{ payload: unknown }>();
    listener.on('broadcast', { event: 'note' }, inbox.push);
    await subscribed(listener);

    const sender = alice.client.channel(room, {
      config: { private: true, broadcast: { ack: true } },
    });
    await subscribed(sender);
    expect(await sender.send({ type: 'broadcast', event: 'note', payload: { text: 'hi' } })).toBe(
      'ok',
    );
    expect(await sender.httpSend('note', { text: 'over http' })).toEqual({ success: true });
    const items = await inbox.waitFor(2);
    expect(items.map((item) => item.payload)).toEqual([{ text: 'hi' }, { text: 'over http' }]);

    // Presence writes are not in the policy: tracking is refused.
    expect(await sender.track({ here: true })).toBe('error');
  });

  it("refuse another user's room and anon, with Supabase's reason", async () => {
    const room = `room:${alice.id}`;
    const bobChannel = bob.client.channel(room, { config: { private: true } });
    const refused = await subscribe(bobChannel);
    expect(refused.status).toBe('CHANNEL_ERROR');
    expect(refused.error?.message).toContain(
      `Unauthorized: You do not have permissions to read from this Channel topic: ${room}`,
    );
    // The client retries a refused join: stop it (and free the topic for the next test).
    await bob.client.removeChannel(bobChannel);
    const anon = realtimeClient(server);
    clients.push(anon);
    expect((await subscribe(anon.channel(room, { config: { private: true } }))).status).toBe(
      'CHANNEL_ERROR',
    );
  });

  it('keep private and public channels of one name apart, and drop sends without permission', async () => {
    const room = `room:${alice.id}`;
    const privateListener = (await signedInAs(alice.accessToken)).channel(room, {
      config: { private: true },
    });
    const privateInbox = new Inbox();
    privateListener.on('broadcast', { event: '*' }, privateInbox.push);
    await subscribed(privateListener);

    const publicChannel = bob.client.channel(room);
    const publicInbox = new Inbox();
    publicChannel.on('broadcast', { event: '*' }, publicInbox.push);
    await subscribed(publicChannel);

    // Bob on the public channel of the same name reaches only the public channel.
    expect(await publicChannel.send({ type: 'broadcast', event: 'x', payload: {} })).toBe('ok');
    // Bob's private httpSend to Alice's room is accepted (202) and dropped, as on Supabase.
    const bobPrivate = (await signedInAs(bob.accessToken)).channel(room, {
      config: { private: true },
    });
    expect(await bobPrivate.httpSend('intrusion', { from: 'bob' })).toEqual({ success: true });
    await delay(400);
    expect(privateInbox.items).toEqual([]);

    // The service role may send anywhere.
    const service = realtimeClient(server, { key: server.serviceRoleKey });
    clients.push(service);
    const serviceChannel = service.channel(room, { config: { private: true } });
    await subscribed(serviceChannel);
    expect(await serviceChannel.send({ type: 'broadcast', event: 'ops', payload: { ok: 1 } })).toBe(
      'ok',
    );
    await privateInbox.waitFor(1);
    expect(publicInbox.items).toEqual([]);
  });
});

async function signedInAs(accessToken: string): Promise<SupabaseClient> {
  const created = realtimeClient(server);
  created.realtime.setAuth(accessToken);
  clients.push(created);
  return created;
}
