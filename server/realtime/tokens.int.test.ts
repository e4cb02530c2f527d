import type { SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../schema/test-world';
import { startTestServer, testDatabaseKind, type TestServer } from '../testing/harness';
import {
  delay,
  Inbox,
  realtimeClient,
  signedInRealtimeClient,
  subscribe,
  subscribed,
  uniqueTopic,
} from './realtime-testing';

/**
 * Access tokens on channels (contract §5.3): checked at join with Supabase
 * Realtime's messages, replaced on an open channel by `access_token`, and a
 * channel is closed with a system message when its token expires or its
 * session ends.
 */

let server: TestServer;
const clients: SupabaseClient[] = [];

function tracked(client: SupabaseClient): SupabaseClient {
  clients.push(client);
  return client;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.removeAllChannels()));
  await server?.close();
});

/** A user token like the auth service's, with a lifetime of our choosing. */
async function tokenLike(accessToken: string, expiresInSeconds: number): Promise<string> {
  const { exp: _exp, iat: _iat, ...claims } = decodeJwt(accessToken);
  return server.keys.ring.sign(claims, { expiresInSeconds });
}

/**
 * A client whose token source returns `current.token` (change it, then call
 * `realtime.setAuth()`), with the token already fetched, so that joins carry it
 * (the client sends a join before its first fetch returns otherwise).
 */
async function clientWithToken(current: { token: string }): Promise<SupabaseClient> {
  const client = tracked(realtimeClient(server, { accessToken: async () => current.token }));
  await client.realtime.setAuth();
  return client;
}

async function joinWith(token: string): Promise<{ status: string; error?: Error }> {
  const client = await clientWithToken({ token });
  const channel = client.channel(uniqueTopic('token'));
  const result = await subscribe(channel);
  await client.removeChannel(channel);
  return result;
}

describe('tokens at join', () => {
  it("refuse forged, expired, malformed and claim-less tokens with Supabase's messages", async () => {
    const user = await signedInRealtimeClient(server);
    tracked(user.client);
    const [header, payload] = user.accessToken.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    const cases: [string, RegExp][] = [
      [forged, /Failed to validate JWT signature/],
      [await tokenLike(user.accessToken, -30), /Token has expired \d+ seconds ago/],
      ['not-a-token', /The token provided is not a valid JWT/],
      [
        await server.keys.ring.sign({ sub: user.id, exp: Math.floor(Date.now() / 1000) + 60 }),
        /Fields `role` and `exp` are required in JWT/,
      ],
      [
        await server.keys.ring.sign({ sub: user.id, role: 'postgres' }, { expiresInSeconds: 60 }),
        /not an API role/,
      ],
    ];
    for (const [token, message] of cases) {
      const result = await joinWith(token);
      expect(result.status, String(message)).toBe('CHANNEL_ERROR');
      expect(result.error?.message).toMatch(message);
    }
    expect((await joinWith(user.accessToken)).status).toBe('SUBSCRIBED');
  });
});

describe('tokens on an open channel', () => {
  it('keeps a channel open past the first token when a new one is pushed', async () => {
    const user = await signedInRealtimeClient(server);
    const current = { token: await tokenLike(user.accessToken, 2) };
    const client = await clientWithToken(current);
    const topic = uniqueTopic('refresh');
    const channel = client.channel(topic);
    const inbox = new Inbox();
    const system = new Inbox<{ message: string }>();
    channel.on('broadcast', { event: 'tick' }, inbox.push);
    channel.on('system', {}, system.push);
    await subscribed(channel);
    current.token = await tokenLike(user.accessToken, 60);
    await client.realtime.setAuth();
    await delay(3000);
    expect(channel.state).toBe('joined');
    expect(system.items).toEqual([]);
    const sender = tracked(realtimeClient(server)).channel(topic);
    await subscribed(sender);
    await sender.send({ type: 'broadcast', event: 'tick', payload: {} });
    await inbox.waitFor(1);
  });

  it('closes a channel with a system message when its token expires', async () => {
    const user = await signedInRealtimeClient(server);
    const client = await clientWithToken({ token: await tokenLike(user.accessToken, 2) });
    const channel = client.channel(uniqueTopic('expiry'));
    const system = new Inbox<{ status: string; message: string; extension: string }>();
    channel.on('system', {}, system.push);
    await subscribed(channel);
    const [message] = await system.waitFor(1, 6000);
    expect(message).toMatchObject({ extension: 'system', status: 'error' });
    expect(message!.message).toMatch(/^Token has expired \d+ seconds ago$/);
    await delay(100);
    expect(channel.state).toBe('closed');
  });

  it('closes a channel pushed a bad token, and one whose session ends', async () => {
    const user = await signedInRealtimeClient(server);
    tracked(user.client);
    const channel = user.client.channel(uniqueTopic('bad-push'));
    const system = new Inbox<{ message: string }>();
    channel.on('system', {}, system.push);
    await subscribed(channel);
    await user.client.realtime.setAuth('header.payload.signature');
    expect((await system.waitFor(1))[0]!.message).toMatch(/not a valid JWT|signature/);

    // Signing out everywhere ends the session: its channels close at once. The user signs
    // out on another device: a client that signs out itself also hands its channels the
    // anon key, which may reach the server first and leave the channel open as anon.
    const other = await signedInRealtimeClient(server);
    const watched = other.client.channel(uniqueTopic('session'));
    const notices = new Inbox<{ message: string }>();
    watched.on('system', {}, notices.push);
    await subscribed(watched);
    const otherDevice = tracked(realtimeClient(server));
    const signedIn = await otherDevice.auth.signInWithPassword({
      email: other.email,
      password: PASSWORD,
    });
    expect(signedIn.error).toBeNull();
    const { error } = await otherDevice.auth.signOut({ scope: 'global' });
    expect(error).toBeNull();
    const [notice] = await notices.waitFor(1);
    expect(notice!.message).toBe('Token has been revoked: its session has ended');
    // …and the ended session's token cannot join again.
    const again = await joinWith(other.accessToken);
    expect(again.status).toBe('CHANNEL_ERROR');
    expect(again.error?.message).toContain('The session of this token has ended');
  });

  // PostgreSQL only: PGlite has no connection to lose.
  it.runIf(testDatabaseKind() === 'postgres')(
    'closes a channel whose session ended while the server could not hear it',
    async () => {
      const user = await signedInRealtimeClient(server);
      const channel = user.client.channel(uniqueTopic('missed'));
      const notices = new Inbox<{ message: string }>();
      channel.on('system', {}, notices.push);
      await subscribed(channel);
      const otherDevice = tracked(realtimeClient(server));
      const signedIn = await otherDevice.auth.signInWithPassword({
        email: user.email,
        password: PASSWORD,
      });
      expect(signedIn.error).toBeNull();
      // The server's listening connection is cut, and the session ends before it listens again.
      await server.db.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where application_name = 'cervana-listen' and datname = current_database()`,
      );
      const { error } = await otherDevice.auth.signOut({ scope: 'global' });
      expect(error).toBeNull();
      const [notice] = await notices.waitFor(1);
      expect(notice!.message).toBe('Token has been revoked: its session has ended');
    },
  );
});
