import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness';
import {
  delay,
  Inbox,
  realtimeClient,
  subscribed,
  uniqueTopic,
  type Vsn,
} from './realtime-testing';

/**
 * Broadcast through the official client over real sockets (contract §5.4), in
 * both protocol versions: fan-out, `self`, `ack`, binary payloads, `httpSend`
 * and the batch REST endpoint.
 */

let server: TestServer;
const clients: SupabaseClient[] = [];

function client(vsn: Vsn): SupabaseClient {
  const created = realtimeClient(server, { vsn });
  clients.push(created);
  return created;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await Promise.all(clients.map((created) => created.removeAllChannels()));
  await server?.close();
});

describe.each<Vsn>(['1.0.0', '2.0.0'])('broadcast, vsn %s', (vsn) => {
  it('reaches every other subscriber of the topic, and the sender only with self', async () => {
    const topic = uniqueTopic();
    const [a, b, c] = [client(vsn), client(vsn), client(vsn)];
    const inboxes = [new Inbox(), new Inbox(), new Inbox()];
    const sender = a.channel(topic, { config: { broadcast: { self: false } } });
    const channels = [
      sender,
      b.channel(topic),
      c.channel(topic, { config: { broadcast: { self: true } } }),
    ];
    channels.forEach((channel, index) =>
      channel.on('broadcast', { event: 'greet' }, inboxes[index]!.push),
    );
    await Promise.all(channels.map(subscribed));
    const other = b.channel(uniqueTopic('other'));
    const otherInbox = new Inbox();
    other.on('broadcast', { event: 'greet' }, otherInbox.push);
    await subscribed(other);

    expect(await sender.send({ type: 'broadcast', event: 'greet', payload: { n: 1 } })).toBe('ok');
    const [received] = await inboxes[1]!.waitFor(1);
    expect(received).toMatchObject({ type: 'broadcast', event: 'greet', payload: { n: 1 } });
    await inboxes[2]!.waitFor(1);
    await delay(200);
    expect(inboxes[0]!.items).toEqual([]);
    expect(otherInbox.items).toEqual([]);

    // The self-subscriber hears its own message.
    const selfChannel = channels[2]!;
    expect(await selfChannel.send({ type: 'broadcast', event: 'greet', payload: { n: 2 } })).toBe(
      'ok',
    );
    await inboxes[2]!.waitFor(2);
    await inboxes[0]!.waitFor(1);
    expect(inboxes[0]!.items.map((item) => (item as { payload: unknown }).payload)).toEqual([
      { n: 2 },
    ]);
  });

  it('acknowledges a broadcast when the channel asks for acks', async () => {
    const topic = uniqueTopic('ack');
    const channel = client(vsn).channel(topic, {
      config: { broadcast: { ack: true, self: true } },
    });
    const inbox = new Inbox();
    channel.on('broadcast', { event: '*' }, inbox.push);
    await subscribed(channel);
    expect(await channel.send({ type: 'broadcast', event: 'ping', payload: { at: 1 } })).toBe('ok');
    await inbox.waitFor(1);
  });

  it('delivers httpSend and the batch endpoint to a public channel (202)', async () => {
    const topic = uniqueTopic('http');
    const listener = client(vsn).channel(topic);
    const inbox = new Inbox<{ event: string; payload: unknown }>();
    listener.on('broadcast', { event: '*' }, inbox.push);
    await subscribed(listener);

    const sender = client(vsn).channel(topic);
    expect(await sender.httpSend('json', { hello: 'public' })).toEqual({ success: true });
    const response = await fetch(`${server.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: server.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: [{ topic, event: 'batch', payload: { n: 3 } }] }),
    });
    expect(response.status).toBe(202);
    const items = await inbox.waitFor(2);
    expect(items.map((item) => [item.event, item.payload])).toEqual([
      ['json', { hello: 'public' }],
      ['batch', { n: 3 }],
    ]);
  });
});

describe('binary broadcast (vsn 2.0.0)', () => {
  it('carries bytes from a socket and from httpSend unchanged', async () => {
    const topic = uniqueTopic('bytes');
    const listener = client('2.0.0').channel(topic);
    const inbox = new Inbox<{ event: string; payload: ArrayBuffer }>();
    listener.on('broadcast', { event: '*' }, inbox.push);
    await subscribed(listener);
    const sender = client('2.0.0').channel(topic);
    await subscribed(sender);

    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    expect(await sender.send({ type: 'broadcast', event: 'raw', payload: bytes.buffer })).toBe(
      'ok',
    );
    expect(await sender.httpSend('http-raw', new Uint8Array([9, 8, 7]))).toEqual({ success: true });
    const items = await inbox.waitFor(2);
    expect(items.map((item) => [item.event, [...new Uint8Array(item.payload)]])).toEqual([
      ['raw', [0, 1, 2, 250, 255]],
      ['http-raw', [9, 8, 7]],
    ]);
  });
});

describe('the REST API refuses', () => {
  it('a request without a valid key, a malformed body and an unknown path', async () => {
    const url = `${server.url}/realtime/v1/api/broadcast`;
    const body = JSON.stringify({ messages: [{ topic: 't', event: 'e', payload: {} }] });
    const noKey = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(noKey.status).toBe(401);
    const forged = await fetch(url, {
      method: 'POST',
      body,
      headers: { apikey: `${server.anonKey.slice(0, -4)}AAAA`, 'Content-Type': 'application/json' },
    });
    expect(forged.status).toBe(401);
    const headers = { apikey: server.anonKey, 'Content-Type': 'application/json' };
    expect((await fetch(url, { method: 'POST', body: '{', headers })).status).toBe(400);
    const invalid = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ messages: [{ topic: '', event: 'e', payload: {} }] }),
      headers,
    });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toMatchObject({ error: expect.stringContaining('topic') });
    const longTopic = await fetch(`${url}/${'t'.repeat(247)}/events/e`, {
      method: 'POST',
      body: '{}',
      headers,
    });
    expect(longTopic.status).toBe(422);
    const huge = await fetch(`${url}/t/events/e`, {
      method: 'POST',
      body: JSON.stringify({ blob: 'x'.repeat(300_000) }),
      headers,
    });
    expect(huge.status).toBe(413);
    expect(
      (await fetch(`${server.url}/realtime/v1/api/nothing`, { method: 'POST', headers })).status,
    ).toBe(404);
  });
});
