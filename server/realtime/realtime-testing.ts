import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { WebSocket } from 'ws';
import { createSignedInUser, passSecondFactor, PASSWORD } from '../schema/test-world';
import { clientFor } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/** Helpers for realtime tests through the official client (contract §5). */

export type Vsn = '1.0.0' | '2.0.0';

/** A client of the server speaking `vsn`, heartbeating every `heartbeatIntervalMs` (default 25 s). */
export function realtimeClient(
  server: Pick<TestServer, 'url' | 'anonKey'>,
  options: {
    vsn?: Vsn;
    heartbeatIntervalMs?: number;
    key?: string;
    /** The token source (third-party auth mode): realtime joins and refreshes with what it returns. */
    accessToken?: () => Promise<string>;
  } = {},
): SupabaseClient {
  return clientFor(server, {
    ...(options.key ? { key: options.key } : {}),
    ...(options.accessToken ? { accessToken: options.accessToken } : {}),
    realtime: {
      ...(options.vsn ? { vsn: options.vsn } : {}),
      ...(options.heartbeatIntervalMs ? { heartbeatIntervalMs: options.heartbeatIntervalMs } : {}),
    } as never,
  });
}

/** A confirmed user, signed in on a realtime client of their own. */
export async function signedInRealtimeClient(
  server: TestServer,
  options: { vsn?: Vsn; role?: 'admin' | 'partner'; fullName?: string } = {},
): Promise<{ client: SupabaseClient; id: string; email: string; accessToken: string }> {
  const user = await createSignedInUser(server, {
    fullName: options.fullName ?? 'Riley Realtime',
    company: 'Realtime Test Co',
    ...(options.role ? { role: options.role } : {}),
  });
  const client = realtimeClient(server, { vsn: options.vsn });
  const { data, error } = await client.auth.signInWithPassword({
    email: user.email,
    password: PASSWORD,
  });
  if (error) throw error;
  const accessToken = user.factor
    ? await passSecondFactor(client, user.factor)
    : data.session.access_token;
  client.realtime.setAuth(accessToken);
  return { client, id: user.id, email: user.email, accessToken };
}

/** Subscribes and resolves with the status the channel settles in (SUBSCRIBED, CHANNEL_ERROR, TIMED_OUT, CLOSED). */
export function subscribe(
  channel: RealtimeChannel,
  timeoutMs = 8000,
): Promise<{ status: string; error?: Error }> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ status: 'TEST_TIMEOUT' }), timeoutMs);
    channel.subscribe((status, error) => {
      clearTimeout(timer);
      resolve({ status, ...(error ? { error } : {}) });
    });
  });
}

/** Subscribes, failing unless the channel is SUBSCRIBED. */
export async function subscribed(channel: RealtimeChannel): Promise<RealtimeChannel> {
  const result = await subscribe(channel);
  if (result.status !== 'SUBSCRIBED') {
    throw new Error(`${channel.topic}: ${result.status} ${result.error?.message ?? ''}`);
  }
  return channel;
}

/** Collects what a listener receives, and waits for it. */
export class Inbox<T = unknown> {
  readonly items: T[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];

  readonly push = (item: T): void => {
    this.items.push(item);
    this.waiters = this.waiters.filter((waiter) => {
      if (this.items.length >= waiter.count) waiter.resolve();
      return this.items.length < waiter.count;
    });
  };

  /** Resolves once `count` items have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs = 8000): Promise<T[]> {
    if (this.items.length >= count) return Promise.resolve(this.items);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`expected ${count} items, got ${this.items.length} within ${timeoutMs} ms`),
          ),
        timeoutMs,
      );
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve(this.items);
        },
      });
    });
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function uniqueTopic(label = 'room'): string {
  return `${label}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Waits until `check` holds, polling; rejects with `what` after `timeoutMs`. */
export async function waitUntil(
  check: () => boolean,
  what: string,
  timeoutMs = 8000,
  pollMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(pollMs);
  }
}

/** One websocket the official client opened (times from `performance.now()`). */
export interface SocketRecord {
  url: string;
  createdAt: number;
  openedAt?: number;
  /**
   * Every `close()` on the socket: the client's own (e.g. 1000 "heartbeat timeout"),
   * and ws's echo of a close frame the server sent.
   */
  closeCalls: { code?: number; reason?: string; at: number }[];
  /** How the socket ended, as the client saw it (a clean close has `wasClean`). */
  closed?: { code: number; reason: string; wasClean: boolean; at: number };
  error?: string;
}

/**
 * A `ws` transport for the official client (`realtime: { transport }`) that
 * records every socket the client opens: when it tried, when it opened, how it
 * closed. The client's reconnect schedule is read from `sockets[i].createdAt`.
 */
export function recordingTransport(): {
  transport: new (address: string, protocols?: string | string[]) => WebSocket;
  sockets: SocketRecord[];
} {
  const sockets: SocketRecord[] = [];
  class RecordingWebSocket extends WebSocket {
    private readonly record: SocketRecord;

    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols);
      const record: SocketRecord = {
        url: String(address),
        createdAt: performance.now(),
        closeCalls: [],
      };
      this.record = record;
      sockets.push(record);
      this.addEventListener('open', () => (record.openedAt = performance.now()));
      this.addEventListener('error', (event) => (record.error = event.message));
      this.addEventListener('close', (event) => {
        record.closed = {
          code: event.code,
          reason: event.reason,
          wasClean: event.wasClean,
          at: performance.now(),
        };
      });
    }

    override close(code?: number, reason?: string | Buffer): void {
      this.record.closeCalls.push({
        ...(code === undefined ? {} : { code }),
        ...(reason === undefined ? {} : { reason: reason.toString() }),
        at: performance.now(),
      });
      super.close(code, reason);
    }
  }
  return { transport: RecordingWebSocket, sockets };
}

/** Every status a channel's `subscribe` callback reports, in order (it reports again on each rejoin). */
export function subscribeRecording(
  channel: RealtimeChannel,
): { status: string; at: number; error?: Error }[] {
  const statuses: { status: string; at: number; error?: Error }[] = [];
  channel.subscribe((status, error) =>
    statuses.push({ status, at: performance.now(), ...(error ? { error } : {}) }),
  );
  return statuses;
}
