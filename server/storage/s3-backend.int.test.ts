import { createHash, randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';
import { startS3rver, type LocalS3 } from '../testing/s3rver';
import { openS3BlobStore } from './s3-store';
import type { BlobStore } from './blob-store';

/**
 * The whole service with STORAGE_BACKEND=s3 (against s3rver): the official
 * client's operations round-trip their bytes through S3, and the blobs in the
 * bucket are exactly the ones rows point to.
 */

let s3: LocalS3;
let server: TestServer;
let client: SupabaseClient;
let blobs: BlobStore;
const PREFIX = 'objects/';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function blobKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of blobs.list()) keys.push(key);
  return keys.sort();
}

async function rowVersions(): Promise<string[]> {
  const { rows } = await server.db.query<{ version: string }>(
    `select version from storage.objects where bucket_id = 'calls' order by version`,
  );
  return rows.map((row) => row.version);
}

beforeAll(async () => {
  s3 = await startS3rver();
  const settings = {
    STORAGE_BACKEND: 's3',
    STORAGE_S3_BUCKET: s3.bucket,
    STORAGE_S3_ENDPOINT: s3.endpoint,
    STORAGE_S3_ACCESS_KEY_ID: s3.accessKeyId,
    STORAGE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    STORAGE_S3_PREFIX: PREFIX,
  };
  server = await startTestServer({ env: settings });
  client = clientFor(server, { key: server.serviceRoleKey });
  blobs = await openS3BlobStore({ ...server.config.storage.s3 });
  const created = await client.storage.createBucket('calls', { public: false });
  expect(created.error).toBeNull();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await blobs?.close?.();
  await s3?.close();
});

describe('with the S3 blob store', () => {
  it('uploads, downloads, ranges, copies, moves and removes through S3', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 7);
    const bucket = client.storage.from('calls');
    const uploaded = await bucket.upload(
      '2026/call.wav',
      new Blob([new Uint8Array(bytes)], { type: 'audio/wav' }),
    );
    expect(uploaded.error).toBeNull();

    const downloaded = await bucket.download('2026/call.wav');
    expect(sha256(new Uint8Array(await downloaded.data!.arrayBuffer()))).toBe(sha256(bytes));

    const signed = await bucket.createSignedUrl('2026/call.wav', 60);
    const ranged = await fetch(signed.data!.signedUrl, { headers: { Range: 'bytes=100-199' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);

    expect((await bucket.copy('2026/call.wav', '2026/copy.wav')).error).toBeNull();
    expect((await bucket.move('2026/call.wav', 'archive/call.wav')).error).toBeNull();
    const copy = await bucket.download('2026/copy.wav');
    expect(sha256(new Uint8Array(await copy.data!.arrayBuffer()))).toBe(sha256(bytes));
    const moved = await bucket.download('archive/call.wav');
    expect(sha256(new Uint8Array(await moved.data!.arrayBuffer()))).toBe(sha256(bytes));

    // Two objects, two blobs in S3 (the move kept its blob; the copy has its own).
    expect(await blobKeys()).toEqual(await rowVersions());
    expect(await blobKeys()).toHaveLength(2);

    const replaced = await bucket.upload(
      '2026/copy.wav',
      new Blob(['new'], { type: 'audio/wav' }),
      {
        upsert: true,
      },
    );
    expect(replaced.error).toBeNull();
    expect(await blobKeys()).toEqual(await rowVersions());

    const removed = await bucket.remove(['2026/copy.wav', 'archive/call.wav']);
    expect(removed.data).toHaveLength(2);
    expect(await blobKeys()).toEqual([]);
  });

  it('refuses an upload over the bucket limit without writing to S3', async () => {
    const small = await client.storage.createBucket('small', {
      public: false,
      fileSizeLimit: '1kb',
    });
    expect(small.error).toBeNull();
    const before = await blobKeys();
    const { error } = await client.storage
      .from('small')
      .upload('big.bin', new Uint8Array(2000), { contentType: 'application/octet-stream' });
    expect(error).toMatchObject({
      statusCode: '413',
      message: 'The object exceeded the maximum allowed size',
    });
    expect(await blobKeys()).toEqual(before);
  });
});
