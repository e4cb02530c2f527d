import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { createSignedInUser, PASSWORD } from '../schema/test-world';
import { clientFor } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/** Helpers for realtime tests through the official client (contract §5). */

export type Vsn = '1.0.0' | '2.0.0';

/** A client of the server speaking `vsn`, heartbeating every `heartbeatIntervalMs` (default 25 s). */
export function realtimeClient(
  server: Pick<TestServer, 'url' | 'anonKey'>,
  options: { vsn?: Vsn; heartbeatIntervalMs?: number; key?: string } = {},
): SupabaseClient {
  return clientFor(server, {
    ...(options.key ? { key: options.key } : {}),
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
  client.realtime.setAuth(data.session.access_token);
  return { client, id: user.id, email: user.email, accessToken: data.session.access_token };
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
