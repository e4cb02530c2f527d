import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestProxy, type TestProxy } from './test-proxy';

/** The test load balancer itself: round-robin, refused backends skipped, resets retried only when safe. */

const servers: Server[] = [];
let proxy: TestProxy | undefined;

async function backend(
  name: string,
  handler?: (request: import('node:http').IncomingMessage, socketDestroy: () => void) => boolean,
): Promise<string> {
  const server = createServer((request, response) => {
    if (handler?.(request, () => request.socket.destroy())) return;
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({ name, body, forwardedFor: request.headers['x-forwarded-for'] ?? null }),
      );
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function stoppedBackend(): Promise<string> {
  const url = await backend('gone');
  const server = servers.pop()!;
  await new Promise((resolve) => server.close(resolve));
  return url;
}

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

describe('the test proxy', () => {
  it('spreads requests round-robin, streams bodies and appends X-Forwarded-For', async () => {
    proxy = await startTestProxy({ backends: [await backend('a'), await backend('b')] });
    const names: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const answer = (await (
        await fetch(`${proxy.url}/echo`, {
          method: 'POST',
          body: `hello ${i}`,
          headers: { 'x-forwarded-for': '203.0.113.9' },
        })
      ).json()) as { name: string; body: string; forwardedFor: string };
      names.push(answer.name);
      expect(answer.body).toBe(`hello ${i}`);
      expect(answer.forwardedFor).toBe('203.0.113.9, 127.0.0.1');
    }
    expect(names).toEqual(['a', 'b', 'a', 'b']);
  });

  it('skips a backend that refuses the connection, for any method, and one marked down', async () => {
    proxy = await startTestProxy({ backends: [await stoppedBackend(), await backend('b')] });
    const answer = await fetch(`${proxy.url}/x`, { method: 'POST', body: 'kept' });
    expect(await answer.json()).toMatchObject({ name: 'b', body: 'kept' });
    expect(proxy.stats.refusedRetries).toBe(1);
    proxy.setDown(1, true);
    expect((await fetch(`${proxy.url}/x`)).status).toBe(502);
    expect(proxy.stats.failures).toBe(1);
  });

  it('retries a reset before the response for GET only', async () => {
    const resetting = await backend('reset', (_request, destroy) => {
      destroy();
      return true;
    });
    proxy = await startTestProxy({ backends: [resetting, await backend('b')] });
    expect(await (await fetch(`${proxy.url}/read`)).json()).toMatchObject({ name: 'b' });
    expect(proxy.stats.resetRetries).toBe(1);
    // The next POST goes to the resetting backend first (round-robin) and is not retried.
    expect(await (await fetch(`${proxy.url}/read`)).json()).toMatchObject({ name: 'b' });
    const post = await fetch(`${proxy.url}/write`, { method: 'POST', body: 'once' });
    expect(post.status).toBe(502);
    expect(proxy.stats.failures).toBe(1);
  });
});
