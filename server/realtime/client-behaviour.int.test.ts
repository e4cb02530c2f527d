import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientFor } from '../testing/clients';
import { cloneTestDatabase } from '../testing/harness';
import { startServerProcess, type ServerProcess } from '../testing/server-process';
import { copyPGliteTemplate } from '../testing/templates';
import {
  Inbox,
  recordingTransport,
  subscribeRecording,
  uniqueTopic,
  waitUntil,
  type SocketRecord,
  type Vsn,
} from './realtime-testing';

/**
 * What the official client does when the server goes away, observed over real
 * sockets against the server in its own process (spec §4 and §9, contract
 * §5.1): the reconnect schedule (1 s, 2 s, 5 s, then 10 s) and the rejoin after
 * a restart on the same port and data; a heartbeat left unanswered (the
 * process paused with SIGSTOP) closing the socket on the client's side; and a
 * stop (SIGTERM) closing every socket cleanly with 1001 and exiting 0 in time.
 *
 * The server's own sweep of silent sockets is in presence.int.test.ts, with a
 * short REALTIME_IDLE_TIMEOUT_MS.
 */

const SHUTDOWN_TIMEOUT_MS = 3000;
/** How far an observed gap may stray from the client's schedule. */
const TOLERANCE_MS = 400;

let folder: string;
let siteDir: string;

interface Backend {
  dataDir: string;
  /** PostgreSQL to run on; the embedded database in `dataDir` otherwise. */
  databaseUrl?: string;
  drop(): Promise<void>;
}

const backends: Backend[] = [];
const processes: ServerProcess[] = [];
const clients: SupabaseClient[] = [];
const rawSockets: WebSocket[] = [];

/** A migrated database of the project's kind, and a data folder for the keys. */
async function freshBackend(): Promise<Backend> {
  const dataDir = await mkdtemp(path.join(folder, 'data-'));
  const template = inject('testDatabase');
  let backend: Backend;
  if (template.kind === 'pglite') {
    await copyPGliteTemplate(template.templateDir, path.join(dataDir, 'pgdata'));
    backend = { dataDir, drop: () => rm(dataDir, { recursive: true, force: true }) };
  } else {
    const database = await cloneTestDatabase();
    // The server connects by URL: find the clone's.
    const { rows } = await database.db.query<{ url: string }>(
      `select 'postgres://postgres@127.0.0.1:' || current_setting('port') || '/' || current_database() as url`,
    );
    backend = {
      dataDir,
      databaseUrl: rows[0]!.url,
      async drop() {
        await database.drop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  backends.push(backend);
  return backend;
}

async function startOn(backend: Backend, port?: number): Promise<ServerProcess> {
  const server = await startServerProcess({
    dataDir: backend.dataDir,
    siteDir,
    ...(backend.databaseUrl ? { databaseUrl: backend.databaseUrl } : {}),
    ...(port ? { port } : {}),
    env: { SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) },
  });
  processes.push(server);
  return server;
}

async function anonKeyOf(server: ServerProcess): Promise<string> {
  const config = (await (await fetch(`${server.url}/config.json`)).json()) as { anonKey: string };
  return config.anonKey;
}

/** The official client on a transport that records each socket it opens. */
function recordedClient(
  server: { url: string; anonKey: string },
  options: { heartbeatIntervalMs?: number; vsn?: Vsn } = {},
): { client: SupabaseClient; sockets: SocketRecord[] } {
  const { transport, sockets } = recordingTransport();
  const client = clientFor(server, {
    realtime: {
      transport: transport as never,
      ...(options.heartbeatIntervalMs ? { heartbeatIntervalMs: options.heartbeatIntervalMs } : {}),
      ...(options.vsn ? { vsn: options.vsn } : {}),
    } as never,
  });
  clients.push(client);
  return { client, sockets };
}

function countOf(statuses: { status: string }[], status: string): number {
  return statuses.filter((entry) => entry.status === status).length;
}

async function broadcastOverRest(
  url: string,
  anonKey: string,
  message: { topic: string; event: string; payload: unknown },
): Promise<number> {
  const response = await fetch(`${url}/realtime/v1/api/broadcast`, {
    method: 'POST',
    headers: { apikey: anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ messages: [message] }),
  });
  return response.status;
}

/**
 * Something else on the stopped server's port: it records each connection
 * and the request that comes on it, and answers 503, so every reconnection
 * attempt is seen on the wire.
 */
async function standIn(port: number): Promise<{
  boundAt: number;
  attempts: { at: number; head?: string }[];
  close(): Promise<void>;
}> {
  const attempts: { at: number; head?: string }[] = [];
  const open = new Set<Socket>();
  const server = createServer((socket) => {
    const attempt: { at: number; head?: string } = { at: performance.now() };
    attempts.push(attempt);
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      if (attempt.head !== undefined) return;
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      attempt.head = received.slice(0, end);
      socket.end(
        'HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    boundAt: performance.now(),
    attempts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function stopProcess(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGCONT'); // a paused process would not die of anything but SIGKILL
  server.child.kill('SIGKILL');
  await server.exited;
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cervana-realtime-client-'));
  siteDir = path.join(folder, 'site');
  await mkdir(siteDir);
  await writeFile(path.join(siteDir, 'index.html'), '<!doctype html><title>shell</title>');
});

afterEach(async () => {
  for (const client of clients.splice(0)) {
    for (const channel of client.realtime.getChannels()) channel.teardown();
    await client.realtime.disconnect().catch(() => undefined);
  }
  for (const socket of rawSockets.splice(0)) socket.terminate();
  await Promise.all(processes.splice(0).map(stopProcess));
  await Promise.all(backends.splice(0).map((backend) => backend.drop()));
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('the official client, when the server goes away', () => {
  it('reconnects after 1 s, 2 s, 5 s and 10 s, and rejoins on its own once the server is back', async () => {
    const backend = await freshBackend();
    const first = await startOn(backend);
    const port = Number(new URL(first.url).port);
    const anonKey = await anonKeyOf(first);
    const { client, sockets } = recordedClient({ url: first.url, anonKey });
    const topic = uniqueTopic('restart');
    const channel = client.channel(topic);
    const inbox = new Inbox<{ event: string; payload: unknown }>();
    channel.on('broadcast', { event: '*' }, inbox.push);
    const statuses = subscribeRecording(channel);
    await waitUntil(() => countOf(statuses, 'SUBSCRIBED') === 1, 'the channel to join');

    // The stop closes the socket cleanly, from the server's side (its code and reason).
    first.child.kill('SIGTERM');
    await waitUntil(() => sockets[0]!.closed !== undefined, 'the server to close the socket');
    expect(sockets[0]!.closed).toMatchObject({
      code: 1001,
      reason: 'server shutting down',
      wasClean: true,
    });
    expect(await first.exited).toBe(0);

    // While the server is away, a stand-in on its port sees the attempts arrive.
    const wire = await standIn(port);
    try {
      // sockets[1..3]: the attempts 1 s, 3 s and 8 s after the close.
      await waitUntil(
        () => sockets[3]?.closed !== undefined,
        'three reconnection attempts',
        8000 + 3000,
      );
    } finally {
      await wire.close();
    }
    // The next attempt comes 10 s later: the server is back by then, on the same port and data.
    const restarted = await startOn(backend, port);
    expect(restarted.url).toBe(first.url);
    await waitUntil(() => countOf(statuses, 'SUBSCRIBED') === 2, 'the channel to rejoin', 25_000);

    const closedAt = sockets[0]!.closed!.at;
    const attempts = sockets.slice(1, 5).map((socket) => socket.createdAt);
    expect(attempts).toHaveLength(4);
    const gaps = attempts.map((at, index) => at - (index === 0 ? closedAt : attempts[index - 1]!));
    console.info(
      `[${inject('testDatabase').kind}] reconnect gaps (ms): ${gaps.map((gap) => Math.round(gap)).join(', ')}; ` +
        `attempts in all: ${sockets.length - 1}, seen by the stand-in: ${wire.attempts.length}`,
    );
    [1000, 2000, 5000, 10_000].forEach((expected, index) => {
      expect(Math.abs(gaps[index]! - expected), `gap ${index + 1}: ${gaps[index]} ms`).toBeLessThan(
        TOLERANCE_MS,
      );
    });
    // The attempts made while the stand-in listened reached it as websocket upgrades.
    const whileListening = sockets.slice(1, 4).filter((socket) => socket.createdAt > wire.boundAt);
    expect(whileListening.length).toBeGreaterThanOrEqual(2);
    expect(wire.attempts).toHaveLength(whileListening.length);
    wire.attempts.forEach((attempt, index) => {
      expect(attempt.head).toMatch(/^GET \/realtime\/v1\/websocket\?apikey=[^&\s]+&vsn=2\.0\.0 /);
      expect(attempt.head).toMatch(/^upgrade: websocket$/im);
      expect(attempt.at - whileListening[index]!.createdAt).toBeGreaterThanOrEqual(0);
      expect(attempt.at - whileListening[index]!.createdAt).toBeLessThan(300);
    });
    // The last attempt got through; the channel errored once and joined again.
    expect(sockets.at(-1)!.openedAt).toBeDefined();
    expect(statuses.map((entry) => entry.status)).toEqual([
      'SUBSCRIBED',
      'CHANNEL_ERROR',
      'SUBSCRIBED',
    ]);

    // And it hears what is sent after the restart.
    expect(
      await broadcastOverRest(restarted.url, anonKey, {
        topic,
        event: 'after-restart',
        payload: { n: 1 },
      }),
    ).toBe(202);
    const [received] = await inbox.waitFor(1);
    expect(received).toMatchObject({ event: 'after-restart', payload: { n: 1 } });
  }, 70_000);

  it('closes the socket itself when a heartbeat goes unanswered, and rejoins once the server answers', async () => {
    const heartbeatIntervalMs = 500;
    const server = await startOn(await freshBackend());
    const anonKey = await anonKeyOf(server);
    const { client, sockets } = recordedClient(
      { url: server.url, anonKey },
      { heartbeatIntervalMs },
    );
    const heartbeats: { status: string; at: number }[] = [];
    client.realtime.onHeartbeat((status) => heartbeats.push({ status, at: performance.now() }));
    const topic = uniqueTopic('heartbeat');
    const channel = client.channel(topic);
    const inbox = new Inbox<{ event: string; payload: unknown }>();
    channel.on('broadcast', { event: '*' }, inbox.push);
    const statuses = subscribeRecording(channel);
    await waitUntil(() => countOf(statuses, 'SUBSCRIBED') === 1, 'the channel to join');
    await waitUntil(() => heartbeats.some((beat) => beat.status === 'ok'), 'a heartbeat reply');

    const pausedAt = performance.now();
    server.child.kill('SIGSTOP');
    try {
      await waitUntil(
        () => heartbeats.some((beat) => beat.status === 'timeout'),
        'the heartbeat to time out',
        2 * heartbeatIntervalMs + 1500,
      );
      // The heartbeat after the pause goes out within one interval, and is given one to be answered.
      const timedOutAt = heartbeats.find((beat) => beat.status === 'timeout')!.at;
      expect(timedOutAt - pausedAt).toBeLessThan(2 * heartbeatIntervalMs + TOLERANCE_MS);
      expect(sockets[0]!.closeCalls).toEqual([
        { code: 1000, reason: 'heartbeat timeout', at: expect.any(Number) as number },
      ]);
      expect(sockets[0]!.closeCalls[0]!.at - timedOutAt).toBeLessThan(100);
      await waitUntil(() => countOf(statuses, 'CHANNEL_ERROR') === 1, 'the channel to error');
      // It tries again (after waiting up to 1.5 s for the close, then 1 s): the paused server cannot answer.
      await waitUntil(() => sockets.length === 2, 'a new connection attempt', 4000);
      expect(sockets[1]!.openedAt).toBeUndefined();
    } finally {
      server.child.kill('SIGCONT');
    }
    const resumedAt = performance.now();
    await waitUntil(() => countOf(statuses, 'SUBSCRIBED') === 2, 'the channel to rejoin', 15_000);
    expect(sockets[1]!.openedAt).toBeDefined();
    const timedOutAt = heartbeats.find((beat) => beat.status === 'timeout')!.at;
    console.info(
      `[${inject('testDatabase').kind}] after SIGSTOP: heartbeat timeout at ${Math.round(timedOutAt - pausedAt)} ms, ` +
        `next attempt ${Math.round(sockets[1]!.createdAt - timedOutAt)} ms later; ` +
        `after SIGCONT: open in ${Math.round(sockets[1]!.openedAt! - resumedAt)} ms, ` +
        `rejoined in ${Math.round(statuses.at(-1)!.at - resumedAt)} ms`,
    );
    const resumedBeats = heartbeats.length;
    await waitUntil(
      () => heartbeats.slice(resumedBeats).some((beat) => beat.status === 'ok'),
      'heartbeats answered again',
    );
    expect(
      await broadcastOverRest(server.url, anonKey, {
        topic,
        event: 'after-pause',
        payload: { n: 2 },
      }),
    ).toBe(202);
    const [received] = await inbox.waitFor(1);
    expect(received).toMatchObject({ event: 'after-pause', payload: { n: 2 } });
  }, 45_000);

  it('on SIGTERM closes every socket with 1001 and exits 0 within the shutdown timeout', async () => {
    const server = await startOn(await freshBackend());
    const anonKey = await anonKeyOf(server);
    const topic = uniqueTopic('stop');
    const connected = await Promise.all(
      (['1.0.0', '2.0.0', '2.0.0'] as const).map(async (vsn) => {
        const { client, sockets } = recordedClient({ url: server.url, anonKey }, { vsn });
        const statuses = subscribeRecording(client.channel(topic));
        await waitUntil(() => countOf(statuses, 'SUBSCRIBED') === 1, `a vsn ${vsn} join`);
        return sockets;
      }),
    );
    // And one socket that never reads again, so never answers the closing handshake.
    const deaf = new WebSocket(
      `${server.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${anonKey}&vsn=2.0.0`,
    );
    rawSockets.push(deaf);
    deaf.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      deaf.once('open', () => resolve());
      deaf.once('error', reject);
    });
    deaf.pause();

    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    const code = await server.exited;
    const elapsed = performance.now() - signalledAt;
    console.info(`[${inject('testDatabase').kind}] stopped in ${Math.round(elapsed)} ms`);
    expect(code).toBe(0);
    expect(elapsed).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    for (const sockets of connected) {
      await waitUntil(() => sockets[0]!.closed !== undefined, 'the close to reach the client');
      expect(sockets[0]!.closed).toMatchObject({
        code: 1001,
        reason: 'server shutting down',
        wasClean: true,
      });
      expect(sockets[0]!.closed!.at - signalledAt).toBeLessThan(elapsed);
    }
    // The websockets did not hold the HTTP server open until the deadline.
    expect(server.output()).not.toContain('shutdown timeout');
    expect(server.output()).toContain('stopped');
  }, 30_000);
});
