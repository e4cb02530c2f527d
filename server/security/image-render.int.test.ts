import type { SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, type SignedIn } from '../forms/forms-testing';
import { renderPoolStats } from '../storage/render-pool';
import {
  authHeaders,
  eventually,
  expectErrorResponse,
  expectStorageError,
} from '../storage/storage-testing';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';
import { startS3rver, type LocalS3 } from '../testing/s3rver';

/**
 * Security issue 24, finding 2: image transformations had no limits. A
 * 199-byte SVG labelled text/plain rendered for minutes at 3.3 GB; three
 * 10,000 × 10,000 PNGs at once took 4.7 GB; a render went on after its client
 * left. Now only objects stored as PNG, JPEG, WebP, AVIF or GIF whose bytes
 * agree are rendered, within 25 megapixels in and 2,500 px a side out, a few
 * at a time with a deadline, stopped when the client leaves, so many a minute
 * per user, and a repeated render comes from the cache. The format and size
 * rules run on the filesystem and the S3 store; the capacity rules on one.
 */

const PNG_MIME = 'image/png';

/** A blurred 10,000 × 10,000 SVG, as in the finding (a milder blur: the old code must end). */
const SVG_BOMB =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10000" height="10000">' +
  '<filter id="b"><feGaussianBlur stdDeviation="40"/></filter>' +
  '<rect width="10000" height="10000" fill="red" filter="url(#b)"/></svg>';

async function solidPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();
}

/** 5,000 × 5,000 (the most pixels allowed), with detail, so that encoding it costs real time. */
async function detailedPng(): Promise<Buffer> {
  const side = 5000;
  const raw = Buffer.alloc(side * side * 3);
  for (let y = 0; y < side; y += 1) {
    for (let x = 0; x < side; x += 1) {
      const at = (y * side + x) * 3;
      raw[at] = x & 255;
      raw[at + 1] = y & 255;
      raw[at + 2] = (x ^ y) & 255;
    }
  }
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

const blob = (bytes: Buffer | string, type: string) =>
  new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type });

async function sizeOf(response: Response | Blob) {
  const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
  return { width: metadata.width, height: metadata.height, format: metadata.format };
}

async function workspaceOf(server: TestServer, userId: string): Promise<string> {
  const { rows } = await server.db.query<{ workspace_id: string }>(
    `select workspace_id from public.workspace_members where user_id = $1 and role = 'owner'`,
    [userId],
  );
  return rows[0]!.workspace_id;
}

let hugePng: Buffer;
let widePng: Buffer;
beforeAll(async () => {
  // 10,000 × 10,000: 100 megapixels in about a megabyte and a half.
  [hugePng, widePng] = await Promise.all([solidPng(10_000, 10_000), solidPng(3000, 1000)]);
}, 60_000);

for (const backend of ['fs', 's3'] as const) {
  describe(`what is rendered, and how large (${backend} store)`, () => {
    let s3: LocalS3 | undefined;
    let server: TestServer;
    let service: SupabaseClient;
    let anon: SupabaseClient;
    let owner: SignedIn & { workspace: string };

    beforeAll(async () => {
      let env: Record<string, string> = {};
      if (backend === 's3') {
        s3 = await startS3rver();
        env = {
          STORAGE_BACKEND: 's3',
          STORAGE_S3_BUCKET: s3.bucket,
          STORAGE_S3_ENDPOINT: s3.endpoint,
          STORAGE_S3_ACCESS_KEY_ID: s3.accessKeyId,
          STORAGE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        };
      }
      server = await startTestServer({ env });
      service = clientFor(server, { key: server.serviceRoleKey });
      anon = clientFor(server);
      const signedIn = await signedInClient(server, {
        fullName: 'Kim Knowledge',
        company: `Kim ${backend} Co`,
      });
      owner = { ...signedIn, workspace: await workspaceOf(server, signedIn.id) };
      expect((await service.storage.createBucket('media', { public: true })).error).toBeNull();
    }, 60_000);

    afterAll(async () => {
      await server?.close();
      await s3?.close();
    });

    it("refuses an SVG a customer stored as text/plain in their workspace's knowledge folder", async () => {
      const path = `${owner.workspace}/faq.txt`;
      const bucket = owner.client.storage.from('knowledge');
      expect((await bucket.upload(path, blob(SVG_BOMB, 'text/plain'))).error).toBeNull();

      const started = Date.now();
      const { data, error } = await bucket.download(path, { transform: { width: 100 } });
      expect(data).toBeNull();
      expectStorageError(error, {
        statusCode: '422',
        message: 'The object is not an image that can be transformed',
      });
      const signed = await bucket.createSignedUrl(path, 60, { transform: { width: 100 } });
      expect(signed.error).toBeNull();
      const body = await expectErrorResponse(await fetch(signed.data!.signedUrl), '422');
      expect(body.code).toBe('InvalidRequest');
      expect(Date.now() - started).toBeLessThan(3000);
      // The object itself still downloads as what it is.
      expect(await (await bucket.download(path)).data!.text()).toBe(SVG_BOMB);
    });

    it('refuses SVG however it is labelled, and bytes that are not the stored image type', async () => {
      const media = service.storage.from('media');
      const png = await solidPng(40, 30);
      const uploads: [string, Buffer | string, string][] = [
        ['bomb.svg', SVG_BOMB, 'image/svg+xml'],
        ['disguised.png', SVG_BOMB, PNG_MIME],
        ['png-as-jpeg.jpg', png, 'image/jpeg'],
        ['png-as-pdf.pdf', png, 'application/pdf'],
      ];
      for (const [name, bytes, type] of uploads) {
        expect((await media.upload(name, blob(bytes, type))).error).toBeNull();
      }
      for (const [name] of uploads) {
        const { data } = anon.storage
          .from('media')
          .getPublicUrl(name, { transform: { width: 20, height: 20 } });
        const body = await expectErrorResponse(await fetch(data.publicUrl), '422');
        expect(body.message, name).toBe('The object is not an image that can be transformed');
      }
    });

    it('refuses a source over 25 megapixels at once', async () => {
      const media = service.storage.from('media');
      expect((await media.upload('huge.png', blob(hugePng, PNG_MIME))).error).toBeNull();
      const started = Date.now();
      const { error } = await media.download('huge.png', { transform: { width: 100 } });
      expectStorageError(error, {
        statusCode: '413',
        message: 'The image is too large to transform (25 megapixels at most)',
      });
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it('never answers more than 2,500 px a side, even without a width or height', async () => {
      const media = service.storage.from('media');
      expect((await media.upload('wide.png', blob(widePng, PNG_MIME))).error).toBeNull();
      const quality = await media.download('wide.png', { transform: { quality: 70 } });
      expect(quality.error).toBeNull();
      expect(await sizeOf(quality.data!)).toEqual({ width: 2500, height: 833, format: 'png' });
      const heightOnly = await media.download('wide.png', { transform: { height: 2000 } });
      expect(await sizeOf(heightOnly.data!)).toEqual({ width: 2500, height: 833, format: 'png' });
    });

    it('serves a repeated render from the cache, and renders a changed object again', async () => {
      const media = service.storage.from('media');
      expect((await media.upload('logo.png', blob(await solidPng(600, 400), PNG_MIME))).error).toBe(
        null,
      );
      const { data } = anon.storage
        .from('media')
        .getPublicUrl('logo.png', { transform: { width: 120, height: 80 } });
      const first = await fetch(data.publicUrl);
      expect(first.status).toBe(200);
      expect(first.headers.get('x-cervana-render-cache')).toBe('miss');
      const firstBytes = Buffer.from(await first.arrayBuffer());
      const started = renderPoolStats.rendersStarted;
      const second = await fetch(data.publicUrl);
      expect(second.headers.get('x-cervana-render-cache')).toBe('hit');
      expect(Buffer.from(await second.arrayBuffer()).equals(firstBytes)).toBe(true);
      expect(renderPoolStats.rendersStarted).toBe(started);

      const replaced = await media.upload('logo.png', blob(await solidPng(60, 40), PNG_MIME), {
        upsert: true,
      });
      expect(replaced.error).toBeNull();
      const third = await fetch(data.publicUrl);
      expect(third.headers.get('x-cervana-render-cache')).toBe('miss');
      expect(await sizeOf(third)).toEqual({ width: 60, height: 40, format: 'png' });
    });
  });
}

describe('how many renders, for how long', () => {
  const TIMEOUT_MS = 1000;
  let server: TestServer;
  let service: SupabaseClient;
  let anon: SupabaseClient;
  let user: SignedIn;

  const heavyUrl = () =>
    `${server.url}/storage/v1/render/image/authenticated/limits/detailed.png?width=2500&height=2500&format=avif&quality=100`;
  const smallUrl = (width = 40) =>
    `${server.url}/storage/v1/render/image/authenticated/limits/small.png?width=${width}`;
  const asService = () => ({ headers: authHeaders(server.serviceRoleKey) });
  /** Until a render process has the job the last request asked for. */
  const renderStarted = (before: number) =>
    eventually(async () => renderPoolStats.rendersStarted > before, 'a render to start', 10_000);

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        STORAGE_RENDER_CONCURRENCY: '1',
        STORAGE_RENDER_QUEUE: '0',
        STORAGE_RENDER_TIMEOUT_MS: String(TIMEOUT_MS),
        STORAGE_RENDER_RATE_LIMIT: '4',
      },
    });
    service = clientFor(server, { key: server.serviceRoleKey });
    anon = clientFor(server);
    user = await signedInClient(server, { fullName: 'Rita Renders', company: 'Rita Co' });
    expect((await service.storage.createBucket('limits', { public: true })).error).toBeNull();
    const bucket = service.storage.from('limits');
    const [detailed, small] = await Promise.all([detailedPng(), solidPng(400, 300)]);
    expect((await bucket.upload('detailed.png', blob(detailed, PNG_MIME))).error).toBeNull();
    expect((await bucket.upload('small.png', blob(small, PNG_MIME))).error).toBeNull();
    // A render process is ready before the timing starts.
    expect((await fetch(smallUrl(10), asService())).status).toBe(200);
  }, 60_000);

  afterAll(() => server?.close());

  it('stops a render at its deadline, and its slot serves the next one', async () => {
    const killed = renderPoolStats.killedAtDeadline;
    const started = Date.now();
    const response = await fetch(heavyUrl(), asService());
    const elapsed = Date.now() - started;
    const body = await expectErrorResponse(response, '422');
    expect(body.message).toBe('The image took too long to transform');
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 5000);
    expect(renderPoolStats.killedAtDeadline).toBe(killed + 1);
    expect((await fetch(smallUrl(41), asService())).status).toBe(200);
  });

  it('answers 503 with Retry-After when every slot and the queue are taken', async () => {
    const before = renderPoolStats.rendersStarted;
    const heavy = fetch(heavyUrl(), asService());
    await renderStarted(before);
    const busy = await fetch(smallUrl(42), asService());
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(await busy.json()).toEqual({
      statusCode: '503',
      code: 'SlowDown',
      error: 'Service Unavailable',
      message: 'Too many images are being transformed; try again shortly',
    });
    await expectErrorResponse(await heavy, '422');
    expect((await fetch(smallUrl(42), asService())).status).toBe(200);
  });

  it('stops the render of a client that left, and frees its slot at once', async () => {
    const { killedAtDeadline, killedOnAbort, rendersStarted } = renderPoolStats;
    const controller = new AbortController();
    const heavy = fetch(heavyUrl(), { ...asService(), signal: controller.signal });
    heavy.catch(() => {});
    await renderStarted(rendersStarted);
    expect((await fetch(smallUrl(43), asService())).status).toBe(503);
    // A render refused for want of a slot costs its caller nothing (the next test spends all four).
    const token = (await user.client.auth.getSession()).data.session!.access_token;
    expect((await fetch(smallUrl(44), { headers: authHeaders(token) })).status).toBe(503);
    controller.abort();
    await expect(heavy).rejects.toThrow();
    await eventually(
      async () => (await fetch(smallUrl(43), asService())).status === 200,
      'a render after the client left',
    );
    // Stopped because the client left, not at its deadline.
    expect(renderPoolStats.killedOnAbort).toBe(killedOnAbort + 1);
    expect(renderPoolStats.killedAtDeadline).toBe(killedAtDeadline);
  });

  it('limits renders per user (429 with Retry-After); cached results and other callers are free', async () => {
    const bucket = user.client.storage.from('limits');
    for (const width of [50, 51, 52, 53]) {
      const { error } = await bucket.download('small.png', { transform: { width } });
      expect(error, `width ${width}`).toBeNull();
    }
    const refused = await bucket.download('small.png', { transform: { width: 54 } });
    expectStorageError(refused.error, {
      statusCode: '429',
      status: 429,
      message: 'Too many image transformations; try again later',
    });
    const raw = await fetch(
      `${server.url}/storage/v1/render/image/authenticated/limits/small.png?width=55`,
      {
        headers: authHeaders((await user.client.auth.getSession()).data.session!.access_token),
      },
    );
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(raw.headers.get('retry-after'))).toBeLessThanOrEqual(60);

    // A render already made costs nothing, so it is not refused.
    expect((await bucket.download('small.png', { transform: { width: 50 } })).error).toBeNull();
    // Another caller (anyone, by network) and the service role have their own counts.
    const { data } = anon.storage
      .from('limits')
      .getPublicUrl('small.png', { transform: { width: 56 } });
    expect((await fetch(data.publicUrl)).status).toBe(200);
    const serviceRender = await service.storage
      .from('limits')
      .download('small.png', { transform: { width: 57 } });
    expect(serviceRender.error).toBeNull();
  });
});
