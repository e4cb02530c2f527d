import type { SupabaseClient } from '@supabase/supabase-js';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Inbox, realtimeClient, subscribed, uniqueTopic } from '../realtime/realtime-testing';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * The realtime socket under hostile input: a bad or missing key, malformed
 * and oversized frames, unknown topics and events, forged tokens, join and
 * message floods, too many channels and a client that stops reading. Each
 * gets an error reply or a close code; the server and its other sockets carry on.
 */

let server: TestServer;
let bystander: SupabaseClient;
let bystanderTopic: string;
const bystanderInbox = new Inbox<{ payload: unknown }>();
const sockets: WebSocket[] = [];

const LIMITS = {
  REALTIME_JOINS_PER_SECOND: '5',
  REALTIME_MESSAGES_PER_SECOND: '20',
  REALTIME_MAX_CHANNELS_PER_SOCKET: '3',
  REALTIME_MAX_MESSAGE_BYTES: '16384',
  REALTIME_MAX_BUFFERED_BYTES: '65536',
};

beforeAll(async () => {
  server = await startTestServer({ env: LIMITS });
  bystander = realtimeClient(server);
  bystanderTopic = uniqueTopic('bystander');
  const channel = bystander.channel(bystanderTopic);
  channel.on('broadcast', { event: '*' }, bystanderInbox.push);
  await subscribed(channel);
});
afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  await bystander?.removeAllChannels();
  await server?.close();
});

function socketUrl(query: string): string {
  return `${server.url.replace(/^http/, 'ws')}/realtime/v1/websocket?${query}`;
}

interface RawSocket {
  ws: WebSocket;
  frames: Inbox<unknown[]>;
  closed: Promise<{ code: number; reason: string }>;
  send(frame: unknown[]): void;
}

async function openRaw(query = `apikey=${server.anonKey}&vsn=2.0.0`): Promise<RawSocket> {
  const ws = new WebSocket(socketUrl(query));
  sockets.push(ws);
  const frames = new Inbox<unknown[]>();
  ws.on('message', (data, isBinary) => {
    if (!isBinary) frames.push(JSON.parse(String(data)) as unknown[]);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return { ws, frames, closed, send: (frame) => ws.send(JSON.stringify(frame)) };
}

/** The handshake's answer when the upgrade is refused: status and JSON body. */
async function refusedUpgrade(query: string): Promise<{ status: number; body: unknown }> {
  const ws = new WebSocket(socketUrl(query));
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }),
      );
    });
    ws.on('open', () => reject(new Error('the upgrade was accepted')));
    ws.on('error', () => undefined);
  });
}

function joinFrame(ref: string, topic: string, payload: Record<string, unknown> = {}): unknown[] {
  return [ref, ref, topic, 'phx_join', { config: {}, access_token: server.anonKey, ...payload }];
}

async function replyTo(
  socket: RawSocket,
  ref: string,
): Promise<{ status: string; response: Record<string, unknown> }> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const frame = socket.frames.items.find((item) => item[1] === ref && item[3] === 'phx_reply');
    if (frame) return frame[4] as { status: string; response: Record<string, unknown> };
    if (Date.now() > deadline) throw new Error(`no reply to ref ${ref}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function expectHealthy(): Promise<void> {
  expect((await fetch(`${server.url}/health`)).status).toBe(200);
  const sender = realtimeClient(server);
  const channel = sender.channel(bystanderTopic);
  await subscribed(channel);
  const before = bystanderInbox.items.length;
  await channel.send({ type: 'broadcast', event: 'still-here', payload: { n: before } });
  await bystanderInbox.waitFor(before + 1);
  await sender.removeAllChannels();
}

describe('the handshake', () => {
  it('refuses a missing or forged key, an unknown version and another path', async () => {
    expect(await refusedUpgrade('vsn=2.0.0')).toEqual({
      status: 401,
      body: { error: 'API key is missing' },
    });
    const forged = `${server.anonKey.slice(0, -6)}AAAAAA`;
    expect(await refusedUpgrade(`apikey=${forged}&vsn=2.0.0`)).toEqual({
      status: 401,
      body: { error: 'Failed to validate JWT signature' },
    });
    expect((await refusedUpgrade(`apikey=${server.anonKey}&vsn=9.9.9`)).status).toBe(400);
    const elsewhere = new WebSocket(`${server.url.replace(/^http/, 'ws')}/realtime/v1/other`);
    const status = await new Promise<number>((resolve) => {
      elsewhere.on('unexpected-response', (_request, response) =>
        resolve(response.statusCode ?? 0),
      );
      elsewhere.on('error', () => undefined);
    });
    expect(status).toBe(404);
    await expectHealthy();
  });
});

describe('frames', () => {
  it('close the socket on a malformed frame (1007), whatever its shape', async () => {
    const cases: [string, (ws: WebSocket) => void][] = [
      ['2.0.0', (ws) => ws.send('{not json')],
      ['2.0.0', (ws) => ws.send(JSON.stringify({ topic: 't', event: 'e', payload: {} }))],
      ['2.0.0', (ws) => ws.send(JSON.stringify([null, '1', '', 'phx_join', {}]))],
      ['2.0.0', (ws) => ws.send(Buffer.from([9, 0, 0, 0, 0, 0, 1]))],
      ['2.0.0', (ws) => ws.send(Buffer.from([3, 200, 0, 0, 0, 0, 1, 65]))],
      ['1.0.0', (ws) => ws.send(JSON.stringify(['1', '1', 'realtime:x', 'phx_join', {}]))],
      ['1.0.0', (ws) => ws.send(Buffer.from([3, 0, 0, 0, 0, 0, 1]))],
    ];
    for (const [vsn, send] of cases) {
      const socket = await openRaw(`apikey=${server.anonKey}&vsn=${vsn}`);
      send(socket.ws);
      expect((await socket.closed).code).toBe(1007);
    }
    await expectHealthy();
  });

  it('close the socket on a frame over the size limit (1009)', async () => {
    const socket = await openRaw();
    socket.send(['1', '1', 'realtime:big', 'phx_join', { pad: 'x'.repeat(20_000) }]);
    expect((await socket.closed).code).toBe(1009);
    await expectHealthy();
  });

  it('answer unknown topics and events with an error reply', async () => {
    const socket = await openRaw();
    socket.send([
      '1',
      '1',
      'realtime:never-joined',
      'broadcast',
      { type: 'broadcast', event: 'x', payload: {} },
    ]);
    expect(await replyTo(socket, '1')).toEqual({
      status: 'error',
      response: { reason: 'unmatched topic' },
    });
    socket.send(joinFrame('2', 'not-realtime'));
    expect(await replyTo(socket, '2')).toEqual({
      status: 'error',
      response: { reason: 'unmatched topic' },
    });
    socket.send(joinFrame('3', 'realtime:known'));
    expect((await replyTo(socket, '3')).status).toBe('ok');
    socket.send(['3', '4', 'realtime:known', 'explode', {}]);
    expect(await replyTo(socket, '4')).toEqual({
      status: 'error',
      response: { reason: 'Unknown event "explode"' },
    });
    socket.send([null, '5', 'phoenix', 'heartbeat', {}]);
    expect(await replyTo(socket, '5')).toEqual({ status: 'ok', response: {} });
    socket.send(joinFrame('7', `realtime:${'t'.repeat(247)}`));
    expect(await replyTo(socket, '7')).toEqual({
      status: 'error',
      response: { reason: 'The topic must be at most 255 bytes' },
    });
    socket.send(joinFrame('6', 'realtime:bad-config', { config: { broadcast: { self: 'yes' } } }));
    expect(await replyTo(socket, '6')).toEqual({
      status: 'error',
      response: { reason: 'InvalidJoinPayload: config.broadcast.self has the wrong type' },
    });
  });

  it('refuse a join with a forged token, and keep the socket', async () => {
    const socket = await openRaw();
    const [header, payload] = server.anonKey.split('.');
    socket.send(joinFrame('1', 'realtime:forged', { access_token: `${header}.${payload}.forged` }));
    expect(await replyTo(socket, '1')).toEqual({
      status: 'error',
      response: { reason: 'InvalidJWTToken: Failed to validate JWT signature' },
    });
    socket.send(joinFrame('2', 'realtime:honest'));
    expect((await replyTo(socket, '2')).status).toBe('ok');
  });
});

describe('floods and limits', () => {
  it('refuse a fourth channel on one socket', async () => {
    const socket = await openRaw();
    for (const ref of ['1', '2', '3']) socket.send(joinFrame(ref, `realtime:c${ref}`));
    for (const ref of ['1', '2', '3']) expect((await replyTo(socket, ref)).status).toBe('ok');
    await new Promise((resolve) => setTimeout(resolve, 1100)); // a new second for the join rate
    socket.send(joinFrame('4', 'realtime:c4'));
    expect(await replyTo(socket, '4')).toEqual({
      status: 'error',
      response: { reason: 'ChannelRateLimitReached: Too many channels' },
    });
  });

  it('refuse more than 100 postgres_changes bindings on one socket', async () => {
    const socket = await openRaw();
    const bindings = (count: number) =>
      Array.from({ length: count }, (_, index) => ({
        event: 'INSERT',
        schema: 'public',
        table: 'leads',
        filter: `id=eq.${index}`,
      }));
    socket.send(joinFrame('1', 'realtime:bind-a', { config: { postgres_changes: bindings(60) } }));
    expect((await replyTo(socket, '1')).status).toBe('ok');
    socket.send(joinFrame('2', 'realtime:bind-b', { config: { postgres_changes: bindings(41) } }));
    expect(await replyTo(socket, '2')).toEqual({
      status: 'error',
      response: { reason: 'Too many postgres_changes bindings: at most 100 per connection' },
    });
  });

  it('disconnect a join flood (1008)', async () => {
    const socket = await openRaw();
    for (let index = 1; index <= 8; index += 1) {
      socket.send(joinFrame(String(index), `realtime:flood-${index}`));
    }
    const refused = await replyTo(socket, '6');
    expect(refused).toEqual({
      status: 'error',
      response: { reason: 'ClientJoinRateLimitReached: Too many joins per second' },
    });
    expect((await socket.closed).code).toBe(1008);
    await expectHealthy();
  });

  it('refuse messages past the rate, then disconnect (1008)', async () => {
    const socket = await openRaw();
    socket.send(joinFrame('1', 'realtime:chatty'));
    await replyTo(socket, '1');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (let index = 2; index <= 60; index += 1) {
      socket.send([
        '1',
        String(index),
        'realtime:chatty',
        'broadcast',
        { type: 'broadcast', event: 'spam', payload: {} },
      ]);
    }
    expect(await replyTo(socket, '25')).toEqual({
      status: 'error',
      response: { reason: 'ClientRateLimitReached: Too many messages per second' },
    });
    expect((await socket.closed).code).toBe(1008);
    await expectHealthy();
  });

  it('disconnects a client that stops reading instead of buffering for it', async () => {
    const topic = uniqueTopic('firehose');
    const slow = await openRaw();
    slow.send(joinFrame('1', `realtime:${topic}`));
    await replyTo(slow, '1');
    // Stop reading: the kernel buffers fill, then the server's send buffer grows.
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const sender = realtimeClient(server, { key: server.serviceRoleKey });
    const payload = { blob: 'y'.repeat(10_000) };
    // 300 requests of six 10 KB messages (the batch limit is 4 × the message limit): 18 MB.
    const post = () =>
      fetch(`${server.url}/realtime/v1/api/broadcast`, {
        method: 'POST',
        headers: { apikey: server.serviceRoleKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          messages: Array.from({ length: 6 }, () => ({ topic, event: 'bulk', payload })),
        }),
      }).then((response) => response.status);
    for (let round = 0; round < 30; round += 1) {
      const statuses = await Promise.all(Array.from({ length: 10 }, post));
      expect(new Set(statuses)).toEqual(new Set([202]));
    }
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const closed = await slow.closed;
    expect(closed.code).not.toBe(1000);
    // It did not get everything: it was cut off before the 1,800 messages were sent.
    expect(slow.frames.items.filter((frame) => frame[3] === 'broadcast').length).toBeLessThan(1800);
    await sender.removeAllChannels();
    await expectHealthy();
  });
});
