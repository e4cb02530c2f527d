import { createServer, Agent, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { IDLE_GRACE_MS, trackConnections, type ConnectionDrain } from './drain';

/** A plain Node HTTP server (as @hono/node-server makes one) drained while requests are in flight. */

let server: Server;
let drain: ConnectionDrain;
let url = '';
let port = 0;
const release: (() => void)[] = [];

async function startServer(options?: { idleGraceMs?: number }): Promise<void> {
  server = createServer((req, res) => {
    if (req.url === '/slow') {
      release.push(() => res.end('slow done'));
      return;
    }
    res.end(`answer to ${req.url}`);
  });
  drain = trackConnections(server, options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;
}

function get(agent: Agent | false, pathname: string) {
  return new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    request(`${url}${pathname}`, { agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          connection: response.headers.connection,
          body,
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

const refused = () =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

afterEach(() => {
  drain.closeAll();
  server.close();
  release.length = 0;
});

describe('trackConnections', () => {
  it('answers a request sent on an idle kept-alive connection as the drain starts, with Connection: close', async () => {
    await startServer();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await get(agent, '/first')).connection).toBe('keep-alive');
    const drained = drain.drain();
    drain.stopListening();
    const second = await get(agent, '/second');
    expect(second).toEqual({ status: 200, connection: 'close', body: 'answer to /second' });
    expect(await refused()).toBe(true);
    await drained;
    expect(drain.count()).toBe(0);
    agent.destroy();
  });

  it('finishes a request in flight, marks it Connection: close, then closes', async () => {
    await startServer();
    const slow = get(false, '/slow');
    while (release.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    let isDrained = false;
    const drained = drain.drain().then(() => (isDrained = true));
    drain.stopListening();
    await new Promise((resolve) => setTimeout(resolve, IDLE_GRACE_MS + 100));
    expect(isDrained).toBe(false);
    release[0]!();
    expect(await slow).toEqual({ status: 200, connection: 'close', body: 'slow done' });
    await drained;
  });

  it('closes a connection idle through the drain after the quiet time', async () => {
    await startServer();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await get(agent, '/first');
    const started = Date.now();
    await drain.drain();
    expect(Date.now() - started).toBeGreaterThanOrEqual(IDLE_GRACE_MS - 5);
    // Swept every 25 ms; the margin is for a busy machine.
    expect(Date.now() - started).toBeLessThan(IDLE_GRACE_MS + 1000);
    agent.destroy();
  });

  it('waits the configured quiet time (SHUTDOWN_IDLE_GRACE_MS) before closing an idle connection', async () => {
    const graceMs = 1500;
    await startServer({ idleGraceMs: graceMs });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await get(agent, '/first');
    const started = Date.now();
    let isDrained = false;
    const drained = drain.drain().then(() => (isDrained = true));
    drain.stopListening();
    // Past the default, still open: a request sent now on the idle connection is answered.
    await new Promise((resolve) => setTimeout(resolve, IDLE_GRACE_MS + 400));
    expect(isDrained).toBe(false);
    expect(await get(agent, '/late')).toEqual({
      status: 200,
      connection: 'close',
      body: 'answer to /late',
    });
    await drained;
    expect(Date.now() - started).toBeLessThan(graceMs);
    agent.destroy();
  });

  it('closes an idle connection no sooner than the configured quiet time', async () => {
    const graceMs = 800;
    await startServer({ idleGraceMs: graceMs });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await get(agent, '/first');
    const started = Date.now();
    await drain.drain();
    expect(Date.now() - started).toBeGreaterThanOrEqual(graceMs - 5);
    agent.destroy();
  });
});
