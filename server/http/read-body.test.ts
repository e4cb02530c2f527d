import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, readBodyText } from './read-body';

/** The Fetch-body path (no Node request, as under `app.request()`); the Node path is in server/security/body-limits.int.test.ts. */
function appWithLimit(limit: number) {
  const app = new Hono();
  app.post('/', async (c) => {
    try {
      return c.json({ text: await readBodyText(c, limit) });
    } catch (error) {
      if (error instanceof BodyTooLargeError) return c.json({ tooLarge: error.limit }, 413);
      throw error;
    }
  });
  return app;
}

describe('readBodyText', () => {
  it('reads a body up to the limit, dropping a BOM as Request.text() does', async () => {
    const app = appWithLimit(8);
    const exact = await app.request('/', { method: 'POST', body: '12345678' });
    expect(await exact.json()).toEqual({ text: '12345678' });
    const bom = await app.request('/', { method: 'POST', body: '\uFEFF{}' });
    expect(await bom.json()).toEqual({ text: '{}' });
    const empty = await app.request('/', { method: 'POST' });
    expect(await empty.json()).toEqual({ text: '' });
  });

  it('refuses a declared length over the limit without reading', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(4));
      },
    });
    const response = await appWithLimit(8).request('/', {
      method: 'POST',
      body,
      headers: { 'content-length': '9' },
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1); // the stream's own first pull, never read
  });

  it('stops reading an endless stream just past the limit', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const response = await appWithLimit(10 * 1024).request('/', {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ tooLarge: 10 * 1024 });
    expect(pulled).toBeLessThan(16);
  });
});
