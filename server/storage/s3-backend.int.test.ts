import { createHash, randomBytes, randomUUID } from 'node:crypto';
import * as S3Sdk from '@aws-sdk/client-s3';
import type { SupabaseClient } from '@supabase/supabase-js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';
import { startS3rver, type LocalS3 } from '../testing/s3rver';
import type { Logger } from '../logger';
import { openS3BlobStore } from './s3-store';
import type { BlobStore } from './blob-store';
import { sweepOrphanBlobs } from './sweep';

/**
 * The whole service with STORAGE_BACKEND=s3 (against s3rver): the official
 * client's operations round-trip their bytes through S3, the blobs in the
 * bucket are exactly the ones rows point to, and the orphan sweep leaves alone
 * every object in the bucket that is not a blob of this deployment.
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

describe('the orphan sweep in a bucket shared with others', () => {
  const HOUR = 60 * 60 * 1000;
  const quiet = { info() {}, warn() {} } as unknown as Logger;
  /** Sweeps `store` over this server's rows, as if two hours had passed. */
  const sweep = (store: BlobStore) =>
    sweepOrphanBlobs({ db: server.db, store, logger: quiet }, { now: Date.now() + 2 * HOUR });

  let raw: S3Sdk.S3Client;
  const putRaw = (Key: string, Metadata?: Record<string, string>) =>
    raw.send(new S3Sdk.PutObjectCommand({ Bucket: s3.bucket, Key, Body: 'not ours', Metadata }));
  async function objectNames(): Promise<string[]> {
    const page = await raw.send(new S3Sdk.ListObjectsV2Command({ Bucket: s3.bucket }));
    return (page.Contents ?? []).map((object) => object.Key!).sort();
  }
  async function putBlob(store: BlobStore): Promise<string> {
    const staging = await mkdtemp(path.join(tmpdir(), 'cervana-sweep-'));
    const file = path.join(staging, 'staged');
    await writeFile(file, 'an orphan');
    const key = randomUUID();
    await store.put(key, { path: file, size: 9 });
    await rm(staging, { recursive: true, force: true });
    return key;
  }

  beforeAll(() => {
    const { s3: settings } = server.config.storage;
    raw = new S3Sdk.S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
  });
  afterAll(() => raw?.destroy());

  it('deletes only its own orphans, never objects of other programs or deployments', async () => {
    const bucket = client.storage.from('calls');
    expect((await bucket.upload('kept.txt', 'a row points here')).error).toBeNull();
    const [kept] = await rowVersions();

    // Hex-named objects a sweep would once have taken for orphans: another
    // program's at the root, under its own prefix and under ours; one whose
    // marker names another key; and a blob of a second deployment whose prefix
    // extends ours ("objects/ab"), which reads to us as key "ab<uuid>".
    const foreign = [
      randomUUID(),
      `other-app/${randomUUID()}`,
      `${PREFIX}${randomUUID()}`,
      `${PREFIX}${randomUUID().replace(/-/g, '')}`,
    ];
    for (const name of foreign) await putRaw(name);
    const forged = `${PREFIX}${randomUUID()}`;
    await putRaw(forged, { 'cervana-blob': randomUUID() });
    const second = await openS3BlobStore({ ...server.config.storage.s3, prefix: `${PREFIX}ab` });
    const secondBlob = `${PREFIX}ab${await putBlob(second)}`;
    // A deployment with no prefix at all: it lists the whole bucket.
    const atRoot = await openS3BlobStore({ ...server.config.storage.s3, prefix: '' });

    // Our own orphans (blobs no row points to), one of them a copy.
    const orphan = await putBlob(blobs);
    const copied = randomUUID();
    await blobs.copy(orphan, copied);
    const rootOrphan = await putBlob(atRoot);

    const protectedNames = [...foreign, forged, secondBlob, `${PREFIX}${kept}`];
    try {
      expect(await sweep(blobs)).toBe(2);
      expect(await sweep(atRoot)).toBe(1);
      const left = await objectNames();
      for (const name of protectedNames) expect(left, name).toContain(name);
      for (const name of [`${PREFIX}${orphan}`, `${PREFIX}${copied}`, rootOrphan]) {
        expect(left, name).not.toContain(name);
      }
      // Within the hour, nothing is an orphan yet.
      const fresh = await putBlob(blobs);
      expect(await sweepOrphanBlobs({ db: server.db, store: blobs, logger: quiet })).toBe(0);
      expect(await blobs.exists(fresh)).toBe(true);
      await blobs.delete([fresh]);
    } finally {
      await raw.send(
        new S3Sdk.DeleteObjectsCommand({
          Bucket: s3.bucket,
          Delete: { Objects: [...foreign, forged, secondBlob].map((Key) => ({ Key })) },
        }),
      );
      await second.close?.();
      await atRoot.close?.();
      expect((await bucket.remove(['kept.txt'])).error).toBeNull();
    }
  });
});
