import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness';
import { Inbox, realtimeClient, subscribed, uniqueTopic, type Vsn } from './realtime-testing';

/**
 * Presence through the official client (contract §5.5): track and untrack,
 * `presence_state` on join, `presence_diff` on change, custom keys, and a
 * client that vanishes without leaving.
 */

let server: TestServer;
const clients: SupabaseClient[] = [];

function client(vsn: Vsn = '2.0.0'): SupabaseClient {
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

/** The presence keys and their payloads as the client's state shows them. */
function stateOf(channel: RealtimeChannel): Record<string, unknown[]> {
  const state = channel.presenceState();
  return Object.fromEntries(
    Object.entries(state)
      .map(([key, metas]) => [
        key,
        metas
          .map(({ presence_ref: _ref, ...rest }) => rest)
          .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      ])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

async function until(check: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each<Vsn>(['1.0.0', '2.0.0'])('presence, vsn %s', (vsn) => {
  it('syncs three clients through track, update and untrack, with custom keys', async () => {
    const topic = uniqueTopic('lobby');
    const names = ['ana', 'ben', 'cho'];
    const channels = names.map((name) =>
      client(vsn).channel(topic, { config: { presence: { key: name } } }),
    );
    const joins = names.map(() => new Inbox<{ key: string }>());
    const leaves = names.map(() => new Inbox<{ key: string }>());
    channels.forEach((channel, index) => {
      channel.on('presence', { event: 'join' }, joins[index]!.push);
      channel.on('presence', { event: 'leave' }, leaves[index]!.push);
    });
    await Promise.all(channels.map(subscribed));

    await Promise.all(
      channels.map((channel, index) => channel.track({ name: names[index], status: 'online' })),
    );
    const everyone = {
      ana: [{ name: 'ana', status: 'online' }],
      ben: [{ name: 'ben', status: 'online' }],
      cho: [{ name: 'cho', status: 'online' }],
    };
    for (const channel of channels) {
      await until(() => Object.keys(channel.presenceState()).length === 3, 'three present');
      expect(stateOf(channel)).toEqual(everyone);
    }

    // A late joiner gets the whole state at once (presence_state).
    const late = client(vsn).channel(topic, { config: { presence: { key: 'dee' } } });
    const synced = new Inbox();
    late.on('presence', { event: 'sync' }, () => synced.push(null));
    await subscribed(late);
    await synced.waitFor(1);
    expect(stateOf(late)).toEqual(everyone);

    // Tracking again replaces the payload; untracking leaves.
    expect(await channels[0]!.track({ name: 'ana', status: 'away' })).toBe('ok');
    await until(
      () => JSON.stringify(stateOf(late).ana) === JSON.stringify([{ name: 'ana', status: 'away' }]),
      'ana away',
    );
    expect(await channels[1]!.untrack()).toBe('ok');
    await until(() => !('ben' in late.presenceState()), 'ben gone');
    expect(stateOf(late)).toEqual({
      ana: [{ name: 'ana', status: 'away' }],
      cho: [{ name: 'cho', status: 'online' }],
    });
    await leaves[2]!.waitFor(1);
  });
});

describe('presence cleanup', () => {
  it('removes a client that vanishes without leaving, and one that leaves', async () => {
    const topic = uniqueTopic('vanish');
    const watcher = client().channel(topic, { config: { presence: { key: 'watcher' } } });
    watcher.on('presence', { event: 'sync' }, () => undefined);
    await subscribed(watcher);

    // A raw socket that joins, tracks and is then cut off (no phx_leave, no close frame).
    const url = `${server.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${server.anonKey}&vsn=2.0.0`;
    const raw = new WebSocket(url);
    await new Promise((resolve, reject) => raw.once('open', resolve).once('error', reject));
    const replies = new Inbox<unknown[]>();
    raw.on('message', (data) => replies.push(JSON.parse(String(data)) as unknown[]));
    raw.send(
      JSON.stringify([
        '1',
        '1',
        `realtime:${topic}`,
        'phx_join',
        { config: { presence: { key: 'ghost', enabled: true } }, access_token: server.anonKey },
      ]),
    );
    raw.send(
      JSON.stringify([
        '1',
        '2',
        `realtime:${topic}`,
        'presence',
        { type: 'presence', event: 'track', payload: { who: 'ghost' } },
      ]),
    );
    await until(() => 'ghost' in watcher.presenceState(), 'ghost present');
    raw.terminate();
    await until(() => !('ghost' in watcher.presenceState()), 'ghost removed');

    const leaver = client().channel(topic, { config: { presence: { key: 'leaver' } } });
    await subscribed(leaver);
    await leaver.track({ who: 'leaver' });
    await until(() => 'leaver' in watcher.presenceState(), 'leaver present');
    await leaver.unsubscribe();
    await until(() => !('leaver' in watcher.presenceState()), 'leaver removed');
    const { rows } = await server.db.query(
      `select key from _realtime.presences where topic = $1 order by key`,
      [`public:${topic}`],
    );
    expect(rows).toEqual([]);
  });

  it('removes the presences of a server that stopped without cleaning up', async () => {
    const topic = uniqueTopic('dead-server');
    // What a killed server leaves behind: its row, last seen a minute ago, and a presence.
    await server.db.query(
      `insert into _realtime.servers (id, seen_at) values ('00000000-0000-4000-8000-000000000001', now() - interval '1 minute');
       `.trim(),
    );
    await server.db.query(
      `insert into _realtime.presences (ref, server_id, topic, key, meta)
       values ('dead-ref', '00000000-0000-4000-8000-000000000001', $1, 'zombie', '{"phx_ref":"dead-ref","who":"zombie"}')`,
      [`public:${topic}`],
    );
    const watcher = client().channel(topic, { config: { presence: { key: 'watcher' } } });
    const leaves = new Inbox<{ key: string }>();
    watcher.on('presence', { event: 'leave' }, leaves.push);
    await subscribed(watcher);
    await until(
      () => 'zombie' in watcher.presenceState(),
      'the stale presence in the initial state',
    );
    // The live server's next heartbeat (every 5 s) finds the dead one and announces the leave.
    const [left] = await leaves.waitFor(1, 12_000);
    expect(left!.key).toBe('zombie');
    expect(watcher.presenceState()).toEqual({});
  }, 20_000);

  it('closes a socket that stops sending (no heartbeat) and removes its presence', async () => {
    const quick = await startTestServer({ env: { REALTIME_IDLE_TIMEOUT_MS: '1500' } });
    try {
      const topic = uniqueTopic('silent');
      const watcherClient = realtimeClient(quick);
      clients.push(watcherClient);
      const watcher = watcherClient.channel(topic, { config: { presence: { key: 'watcher' } } });
      watcher.on('presence', { event: 'sync' }, () => undefined);
      await subscribed(watcher);
      const url = `${quick.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${quick.anonKey}&vsn=2.0.0`;
      const silent = new WebSocket(url);
      const closed = new Promise<number>((resolve) => silent.on('close', (code) => resolve(code)));
      await new Promise((resolve, reject) => silent.once('open', resolve).once('error', reject));
      silent.send(
        JSON.stringify([
          '1',
          '1',
          `realtime:${topic}`,
          'phx_join',
          { config: { presence: { key: 'silent', enabled: true } }, access_token: quick.anonKey },
        ]),
      );
      silent.send(
        JSON.stringify([
          '1',
          '2',
          `realtime:${topic}`,
          'presence',
          { type: 'presence', event: 'track', payload: {} },
        ]),
      );
      await until(() => 'silent' in watcher.presenceState(), 'silent present');
      // The official client heartbeats every 25 s by default, so the watcher would go too
      // after 1.5 s: keep it alive by hand while the raw socket says nothing.
      const keepAlive = setInterval(
        () => void watcher.send({ type: 'broadcast', event: 'alive', payload: {} }),
        300,
      );
      try {
        expect(await closed).toBe(4000);
        await until(() => !('silent' in watcher.presenceState()), 'silent removed');
      } finally {
        clearInterval(keepAlive);
      }
    } finally {
      await quick.close();
    }
  });

  it('refuses a track payload that is not an object', async () => {
    const channel = client().channel(uniqueTopic('bad-track'));
    await subscribed(channel);
    const result = await channel.send({
      type: 'presence',
      event: 'track',
      payload: 'not an object',
    } as never);
    expect(result).toBe('error');
  });
});
