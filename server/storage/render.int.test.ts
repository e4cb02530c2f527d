import type { SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Image transformations (`/render/image/...`) through the official client:
 * sizes and fits, format and quality, signed transformed URLs, public
 * buckets, and a clear refusal for what is not an image.
 */

let server: TestServer;
let admin: SupabaseClient;
let anon: SupabaseClient;

async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();
}

async function dimensionsOf(blob: Blob) {
  const metadata = await sharp(Buffer.from(await blob.arrayBuffer())).metadata();
  return { width: metadata.width, height: metadata.height, format: metadata.format };
}

beforeAll(async () => {
  server = await startTestServer();
  admin = clientFor(server, { key: server.serviceRoleKey });
  anon = clientFor(server);
  expect((await admin.storage.createBucket('photos', { public: false })).error).toBeNull();
  expect((await admin.storage.createBucket('press', { public: true })).error).toBeNull();
  const photo = new Blob([new Uint8Array(await png(400, 300))], { type: 'image/png' });
  expect((await admin.storage.from('photos').upload('team.png', photo)).error).toBeNull();
  expect((await admin.storage.from('press').upload('logo.png', photo)).error).toBeNull();
  const text = new Blob(['not an image'], { type: 'text/plain' });
  expect((await admin.storage.from('photos').upload('notes.txt', text)).error).toBeNull();
}, 60_000);

afterAll(() => server?.close());

describe('image transformations', () => {
  it('cover crops to the exact size, contain fits inside, fill stretches', async () => {
    const bucket = admin.storage.from('photos');
    const cover = await bucket.download('team.png', { transform: { width: 100, height: 100 } });
    expect(cover.error).toBeNull();
    expect(await dimensionsOf(cover.data!)).toEqual({ width: 100, height: 100, format: 'png' });
    expect(cover.data!.type).toBe('image/png');

    const contain = await bucket.download('team.png', {
      transform: { width: 100, height: 100, resize: 'contain' },
    });
    expect(await dimensionsOf(contain.data!)).toEqual({ width: 100, height: 75, format: 'png' });

    const fill = await bucket.download('team.png', {
      transform: { width: 50, height: 150, resize: 'fill' },
    });
    expect(await dimensionsOf(fill.data!)).toEqual({ width: 50, height: 150, format: 'png' });
  });

  it('never enlarges, and converts when asked', async () => {
    const { data } = await admin.storage
      .from('photos')
      .download('team.png', { transform: { width: 4000, format: 'webp' } as never });
    expect(await dimensionsOf(data!)).toEqual({ width: 400, height: 300, format: 'webp' });
  });

  it('signs a transformed URL whose token carries the transformation', async () => {
    const { data, error } = await admin.storage
      .from('photos')
      .createSignedUrl('team.png', 60, { transform: { width: 200, height: 200, quality: 60 } });
    expect(error).toBeNull();
    expect(data!.signedUrl).toContain('/storage/v1/render/image/sign/photos/team.png?token=');
    const response = await fetch(data!.signedUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-transformations')).toBe(
      'height:200,width:200,resizing_type:fill,quality:60',
    );
    // A browser on another origin may read it.
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Transformations');
    const image = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([image.width, image.height]).toEqual([200, 200]);
    // The token is for that object only.
    const other = data!.signedUrl.replace('team.png', 'notes.txt');
    expect((await fetch(other)).status).toBe(400);
  });

  it('serves public buckets to anyone and private ones to those who may read them', async () => {
    const { data } = anon.storage
      .from('press')
      .getPublicUrl('logo.png', { transform: { width: 40, height: 30 } });
    const response = await fetch(data.publicUrl);
    expect(response.status).toBe(200);
    const image = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([image.width, image.height]).toEqual([40, 30]);

    const denied = await anon.storage
      .from('photos')
      .download('team.png', { transform: { width: 10, height: 10 } });
    expect(denied.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
  });

  it('renders every stored image format it accepts (PNG, JPEG, WebP, AVIF, GIF)', async () => {
    const base = sharp({
      create: { width: 300, height: 200, channels: 3, background: { r: 10, g: 120, b: 200 } },
    });
    const formats = [
      ['jpeg', 'image/jpeg', 'jpeg'],
      ['webp', 'image/webp', 'webp'],
      ['avif', 'image/avif', 'heif'],
      ['gif', 'image/gif', 'gif'],
    ] as const;
    for (const [format, type, decoded] of formats) {
      const bytes = await base.clone().toFormat(format).toBuffer();
      const name = `formats/picture.${format}`;
      const uploaded = await admin.storage
        .from('photos')
        .upload(name, new Blob([new Uint8Array(bytes)], { type }));
      expect(uploaded.error, format).toBeNull();
      const { data, error } = await admin.storage
        .from('photos')
        .download(name, { transform: { width: 60, height: 40 } });
      expect(error, format).toBeNull();
      expect(data!.type, format).toBe(type);
      expect(await dimensionsOf(data!), format).toEqual({ width: 60, height: 40, format: decoded });
    }
  });

  it('refuses what is not an image, and nonsense sizes', async () => {
    const notImage = await admin.storage
      .from('photos')
      .download('notes.txt', { transform: { width: 10, height: 10 } });
    expect(notImage.error).toMatchObject({
      statusCode: '422',
      message: 'The object is not an image that can be transformed',
    });
    const response = await fetch(
      `${server.url}/storage/v1/render/image/authenticated/photos/team.png?width=-5`,
      { headers: { Authorization: `Bearer ${server.serviceRoleKey}` } },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: '400', code: 'InvalidRequest' });
  });
});
