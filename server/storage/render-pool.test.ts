import { once } from 'node:events';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ObjectRow } from './download';
import { StorageError, storageErrors } from './errors';
import { createRenderer, parseTransform, renderImage, type Renderer } from './render';
import {
  RenderBusyError,
  RenderPool,
  renderPoolStats,
  workerEnv,
  type RenderJob,
} from './render-pool';
import type { StorageService } from './service';

/**
 * The render pool's processes, for real: one that cannot be started, a
 * server that closes while renders hold slots, what a render process may see
 * of the environment, and through a small HTTP server around `renderImage`
 * (no database: a fixed object row and an in-memory store), one deadline per
 * request and the per-caller limits. The fake workers speak the real
 * worker's protocol.
 */

// Real processes: room for a loaded machine.
vi.setConfig({ testTimeout: 20_000 });

const logger = pino({ level: 'silent' });
let dir: string;
let picture: Buffer;

/** Answers with the input after `job.width` × 10 ms; never answers for width 13. */
const ECHO_WORKER = `
process.on('message', ({ id, job }) => {
  if (job.width === 13) return;
  setTimeout(() => process.send({ id, ok: true, data: job.input, format: 'png', width: 1, height: 1 }), job.width * 10);
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
`;
/** Answers with the names of its environment variables. */
const ENV_WORKER = `
process.on('message', ({ id }) => {
  const data = new TextEncoder().encode(JSON.stringify(Object.keys(process.env)));
  process.send({ id, ok: true, data, format: 'json', width: 0, height: 0 });
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cervana-render-pool-'));
  await writeFile(path.join(dir, 'echo-worker.mjs'), ECHO_WORKER);
  await writeFile(path.join(dir, 'env-worker.mjs'), ENV_WORKER);
  picture = await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 1, g: 2, b: 3 } },
  })
    .png()
    .toBuffer();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const job = (width = 16): RenderJob => ({
  input: picture,
  format: 'png',
  maxPixels: 1_000_000,
  maxSide: 100,
  width,
  fit: 'inside',
  quality: 80,
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Rejects (instead of hanging the test) when `promise` takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    sleep(ms, undefined, { ref: false }).then(() => {
      throw new Error(`${what} took over ${ms} ms`);
    }),
  ]);
}

/** Until `condition` holds (checked every 20 ms, for 10 s at most). */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`no ${what} within 10 s`);
    await sleep(20);
  }
}

interface RenderServer {
  url: string;
  renderer: Renderer;
  close(): Promise<void>;
}

/**
 * `GET /render/<name>?width=…` renders `picture` (read from the store after
 * `readDelayMs` when the name starts with `slow`), as a public object, the
 * caller's network being the last X-Forwarded-For address.
 */
async function renderServer(
  renderer: Renderer,
  options: { readDelayMs?: number } = {},
): Promise<RenderServer> {
  const service = {
    renderer,
    trustProxy: 1,
    store: {
      get: async (version: string) => {
        if (version.startsWith('slow') && options.readDelayMs) await sleep(options.readDelayMs);
        return Readable.from([picture]);
      },
    },
  } as unknown as StorageService;
  let version = 0;
  const app = new Hono();
  app.get('/render/:name', (c) => {
    const row: ObjectRow = {
      id: c.req.param('name'),
      name: c.req.param('name'),
      bucket_id: 'media',
      version: `${c.req.param('name')}-${(version += c.req.query('fresh') ? 1 : 0)}`,
      metadata: { mimetype: 'image/png', size: picture.length },
      user_metadata: null,
      created_at: '2024-01-01T00:00:00Z',
      updated_at: '2024-01-01T00:00:00Z',
    };
    const { fresh: _, ...query } = c.req.query();
    return renderImage(service, c, row, 'public', parseTransform(query));
  });
  app.onError((error, c) => {
    // As the storage routes answer (routes.ts).
    const answer = error instanceof StorageError ? error : storageErrors.internal();
    return c.json(answer.toJSON(), answer.httpStatus as 400);
  });
  const server = createAdaptorServer({ fetch: app.fetch });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    renderer,
    async close() {
      await within(renderer.close(), 5000, 'closing the render pool');
      server.close();
      (server as unknown as { closeAllConnections(): void }).closeAllConnections();
    },
  };
}

const config = (overrides: Partial<Parameters<typeof createRenderer>[0]> = {}) => ({
  concurrency: 1,
  queue: 0,
  timeoutMs: 5000,
  perMinute: 100,
  perCaller: 2,
  cacheBytes: 0,
  ...overrides,
});

const from = (address: string, signal?: AbortSignal): RequestInit => ({
  headers: { 'X-Forwarded-For': address },
  signal: signal ?? AbortSignal.timeout(10_000),
});

let open: RenderServer | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe('a render process that cannot be started', () => {
  it('answers at once with a 500, frees its slot, and the pool renders once it can start again', async () => {
    const node = path.join(dir, 'bin', 'node');
    open = await renderServer(
      createRenderer(config({ cacheBytes: 1_000_000 }), logger, { execPath: node }),
    );
    for (const attempt of [1, 2]) {
      // Spawning fails (ENOENT): 'error' and 'close', never 'exit'.
      const started = Date.now();
      const response = await fetch(`${open.url}/render/a.png?width=20`, from('10.0.0.1'));
      expect(response.status, `attempt ${attempt}`).toBe(500);
      expect(await response.json()).toEqual({
        statusCode: '500',
        code: 'InternalError',
        error: 'Internal',
        message: 'The image could not be transformed',
      });
      expect(Date.now() - started).toBeLessThan(3000);
    }
    expect(open.renderer.pool.processIds).toEqual([]);

    // The same pool, once the binary is there.
    await mkdir(path.dirname(node));
    await symlink(process.execPath, node);
    const rendered = await fetch(`${open.url}/render/a.png?width=20`, from('10.0.0.1'));
    expect(rendered.status).toBe(200);
    expect(rendered.headers.get('x-cervana-render-cache')).toBe('miss');
    expect((await sharp(Buffer.from(await rendered.arrayBuffer())).metadata()).width).toBe(20);

    // HEAD is answered from the cache: no render, nothing counted.
    const renders = renderPoolStats.rendersStarted;
    const head = await fetch(`${open.url}/render/a.png?width=20`, {
      ...from('10.0.0.1'),
      method: 'HEAD',
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-cervana-render-cache')).toBe('hit');
    expect(renderPoolStats.rendersStarted).toBe(renders);

    const pids = open.renderer.pool.processIds;
    expect(pids).toHaveLength(1);
    await open.close();
    open = undefined;
    expect(pids.filter(isRunning)).toEqual([]);
  });
});

describe('closing the pool', () => {
  it('kills every render process, ends renders in flight, and starts none for a slot held across it', async () => {
    const pool = new RenderPool({
      concurrency: 2,
      queue: 1,
      timeoutMs: 20_000,
      logger,
      workerFile: path.join(dir, 'echo-worker.mjs'),
    });
    const first = await pool.acquire();
    const hanging = first.render(job(13));
    hanging.catch(() => {});
    const second = await pool.acquire();
    await second.render(job(1));
    const waiting = pool.acquire();
    waiting.catch(() => {});
    const pids = pool.processIds;
    expect(pids).toHaveLength(2);
    expect(pids.every(isRunning)).toBe(true);

    await within(pool.close(), 5000, 'close()');
    expect(pids.filter(isRunning)).toEqual([]);
    expect(pool.processIds).toEqual([]);
    await expect(hanging).rejects.toBeInstanceOf(RenderBusyError);
    await expect(waiting).rejects.toBeInstanceOf(RenderBusyError);

    // A slot taken before close() renders nothing after it.
    const started = renderPoolStats.processesStarted;
    await expect(second.render(job(1))).rejects.toBeInstanceOf(RenderBusyError);
    await expect(pool.acquire()).rejects.toBeInstanceOf(RenderBusyError);
    expect(renderPoolStats.processesStarted).toBe(started);
    expect(pool.processIds).toEqual([]);
    await within(Promise.all([first.release(), second.release()]), 3000, 'release()');
  });
});

describe('the environment of a render process', () => {
  it('holds none of the server secrets, only what Node.js, sharp and libvips read', async () => {
    const secrets = {
      DATABASE_URL: 'postgres://cervana:secret@db/cervana',
      JWT_SECRET: 'secret',
      STORAGE_S3_SECRET_ACCESS_KEY: 'secret',
      VIPS_WARNING: '0',
    };
    const saved = Object.fromEntries(Object.keys(secrets).map((name) => [name, process.env[name]]));
    Object.assign(process.env, secrets);
    const pool = new RenderPool({
      concurrency: 1,
      queue: 0,
      timeoutMs: 10_000,
      logger,
      workerFile: path.join(dir, 'env-worker.mjs'),
    });
    try {
      const slot = await pool.acquire();
      const result = await slot.render(job());
      await slot.release();
      const names = JSON.parse(new TextDecoder().decode(result.data)) as string[];
      expect(names).not.toContain('DATABASE_URL');
      expect(names).not.toContain('JWT_SECRET');
      expect(names).not.toContain('STORAGE_S3_SECRET_ACCESS_KEY');
      expect(names).toContain('VIPS_WARNING');
      expect(names.sort()).toEqual(Object.keys(workerEnv()).sort());
      expect(names.length).toBeLessThan(Object.keys(process.env).length);
    } finally {
      await pool.close();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

describe('limits per request and per caller', () => {
  it('gives a request one deadline for reading, starting and rendering', async () => {
    // Read 900 ms + render 900 ms: each within 1.5 s, together not.
    open = await renderServer(
      createRenderer(config({ timeoutMs: 1500 }), logger, {
        workerFile: path.join(dir, 'echo-worker.mjs'),
      }),
      { readDelayMs: 900 },
    );
    // The render process is running before the timing starts (it goes on
    // starting after a 503, should it take longer than a render may).
    await until(
      async () => (await fetch(`${open!.url}/render/fast.png?width=1`, from('10.0.0.9'))).ok,
      'a first render',
    );
    const killed = renderPoolStats.killedAtDeadline;
    const started = Date.now();
    const response = await fetch(`${open.url}/render/slow.png?width=90`, from('10.0.0.1'));
    const elapsed = Date.now() - started;
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      statusCode: '422',
      message: 'The image took too long to transform',
    });
    expect(renderPoolStats.killedAtDeadline).toBe(killed + 1);
    expect(elapsed).toBeLessThan(1500 + 2500);
  });

  it('lets a caller have two renders in flight, and counts a render only once it has a slot', async () => {
    open = await renderServer(
      createRenderer(config({ queue: 1, timeoutMs: 3000, perMinute: 2 }), logger, {
        workerFile: path.join(dir, 'echo-worker.mjs'),
      }),
    );
    const url = (width: number) => `${open!.url}/render/b.png?width=${width}&fresh=1`;
    const leaving = new AbortController();
    const renders = renderPoolStats.rendersStarted;
    // A's first render holds the only slot (width 13 never finishes), its second waits.
    const a1 = fetch(url(13), from('10.0.0.1', leaving.signal));
    a1.catch(() => {});
    await until(async () => renderPoolStats.rendersStarted > renders, 'the first render to start');
    const a2 = fetch(url(2), from('10.0.0.1'));
    await until(
      async () => open!.renderer.inFlight.count('network:10.0.0.1') === 2,
      'a queued render',
    );

    // A third one from A is refused at once, and does not queue.
    const a3 = await fetch(url(3), from('10.0.0.1'));
    expect(a3.status).toBe(429);
    expect(a3.headers.get('retry-after')).toBe('3');
    expect(await a3.json()).toMatchObject({
      statusCode: '429',
      code: 'SlowDown',
      message: 'Too many image transformations at once; try again shortly',
    });
    // B finds the slot and the queue taken: 503, which costs B nothing.
    const b1 = await fetch(url(4), from('10.0.0.2'));
    expect(b1.status).toBe(503);

    // A leaves; A's second render gets the slot, and spends A's second render of the minute.
    leaving.abort();
    expect((await a2).status).toBe(200);
    const a4 = await fetch(url(7), from('10.0.0.1'));
    expect(a4.status).toBe(429);
    expect(await a4.json()).toMatchObject({
      message: 'Too many image transformations; try again later',
    });
    // B still has both of its renders of the minute.
    expect((await fetch(url(5), from('10.0.0.2'))).status).toBe(200);
    expect((await fetch(url(6), from('10.0.0.2'))).status).toBe(200);
    expect((await fetch(url(8), from('10.0.0.2'))).status).toBe(429);
    expect(open.renderer.inFlight.size).toBe(0);
  });
});
