import path from 'node:path';
import { Readable } from 'node:stream';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../testing/harness';
import {
  rawRequest,
  blobNames,
  createBucket,
  expectNothingStored,
  expectStorageError,
  filesUnder,
  objectRow,
  objectRows,
  patternBytes,
  serviceClient,
  sha256,
  startStorageServer,
  uniqueBucket,
  upload,
  type StorageErrorBody,
} from './storage-testing';

/**
 * Limits and bad input (contract §4, errors; issue 8, "Limits and bad
 * input"): bucket and global size limits answered 413, MIME limits 415, and
 * hostile object keys refused with a 400-class storage error before anything
 * is stored. The global limit is STORAGE_FILE_SIZE_LIMIT = 1mb here.
 */

const GLOBAL_LIMIT = 1_000_000;
const TOO_LARGE = 'The object exceeded the maximum allowed size';

let server: TestServer;
let admin: SupabaseClient;

beforeAll(async () => {
  server = await startStorageServer({ STORAGE_FILE_SIZE_LIMIT: '1mb' });
  admin = serviceClient(server);
});
afterAll(() => server?.close());

describe('size limits', () => {
  it("accepts an object of exactly the bucket's limit and refuses one byte more", async () => {
    const bucket = await createBucket(admin, uniqueBucket('kb'), { fileSizeLimit: '1kb' });
    await upload(admin, bucket, 'exact.bin', patternBytes(1000, 1));
    expect((await objectRow(server, bucket, 'exact.bin'))?.metadata?.size).toBe(1000);

    const blobsBefore = await blobNames(server);
    const { data, error } = await admin.storage
      .from(bucket)
      .upload('over.bin', patternBytes(1001, 2));
    expect(data).toBeNull();
    expectStorageError(error, { statusCode: '413', message: TOO_LARGE });
    await expectNothingStored(server, bucket, blobsBefore, ['over.bin']);
  });

  it('refuses an oversized multipart upload (Blob) the same way', async () => {
    const bucket = await createBucket(admin, uniqueBucket('kb-multipart'), { fileSizeLimit: 1000 });
    const blobsBefore = await blobNames(server);
    const { error } = await admin.storage
      .from(bucket)
      .upload('over.png', new Blob([patternBytes(1500, 3)], { type: 'image/png' }));
    expectStorageError(error, { statusCode: '413', message: TOO_LARGE });
    await expectNothingStored(server, bucket, blobsBefore);
  });

  it('refuses an oversized streamed upload with no Content-Length', async () => {
    const bucket = await createBucket(admin, uniqueBucket('kb-stream'), { fileSizeLimit: 1000 });
    const blobsBefore = await blobNames(server);
    const chunks = [patternBytes(600, 4), patternBytes(600, 5), patternBytes(600, 6)];
    const { error } = await admin.storage
      .from(bucket)
      .upload('streamed.bin', Readable.from(chunks) as unknown as ReadableStream, {
        contentType: 'application/octet-stream',
        duplex: 'half',
      });
    expectStorageError(error, { statusCode: '413', message: TOO_LARGE });
    await expectNothingStored(server, bucket, blobsBefore);
  });

  it('applies the global limit to buckets without one', async () => {
    const bucket = await createBucket(admin, uniqueBucket('global'));
    const exact = patternBytes(GLOBAL_LIMIT, 7);
    await upload(admin, bucket, 'exact.bin', exact);
    const { data } = await admin.storage.from(bucket).download('exact.bin');
    expect(sha256(Buffer.from(await data!.arrayBuffer()))).toBe(sha256(exact));

    const blobsBefore = await blobNames(server);
    const { error } = await admin.storage
      .from(bucket)
      .upload('over.bin', patternBytes(GLOBAL_LIMIT + 1, 8));
    expectStorageError(error, { statusCode: '413', message: TOO_LARGE });
    await expectNothingStored(server, bucket, blobsBefore, ['over.bin']);
  });

  it('refuses a bucket limit above the global one', async () => {
    const id = uniqueBucket('too-big');
    const { data, error } = await admin.storage.createBucket(id, {
      public: false,
      fileSizeLimit: '2mb',
    });
    expect(data).toBeNull();
    // Supabase answers EntityTooLarge here; any 4xx storage error that creates nothing will do.
    expect((error as { status?: number }).status).toBe(400);
    expect((error as { statusCode?: string }).statusCode).toMatch(/^4\d\d$/);
    const { rows } = await server.db.query(`select 1 from storage.buckets where id = $1`, [id]);
    expect(rows).toEqual([]);
  });

  it('keeps the old object when an upsert or update is too large', async () => {
    const bucket = await createBucket(admin, uniqueBucket('kb-upsert'), { fileSizeLimit: 1000 });
    const original = patternBytes(500, 9);
    await upload(admin, bucket, 'doc.bin', original);
    const before = (await objectRow(server, bucket, 'doc.bin'))!;
    const blobsBefore = await blobNames(server);

    const upserted = await admin.storage
      .from(bucket)
      .upload('doc.bin', patternBytes(2000, 10), { upsert: true });
    expectStorageError(upserted.error, { statusCode: '413', message: TOO_LARGE });
    const updated = await admin.storage.from(bucket).update('doc.bin', patternBytes(2000, 11));
    expectStorageError(updated.error, { statusCode: '413', message: TOO_LARGE });

    const after = (await objectRow(server, bucket, 'doc.bin'))!;
    expect({ version: after.version, size: after.metadata!.size }).toEqual({
      version: before.version,
      size: 500,
    });
    const { data } = await admin.storage.from(bucket).download('doc.bin');
    expect(sha256(Buffer.from(await data!.arrayBuffer()))).toBe(sha256(original));
    await expectNothingStored(server, uniqueBucket('none'), blobsBefore);
  });

  it('applies a limit set later by updateBucket', async () => {
    const bucket = await createBucket(admin, uniqueBucket('later'));
    await upload(admin, bucket, 'before.txt', 'this is longer than ten');
    const updated = await admin.storage.updateBucket(bucket, { public: false, fileSizeLimit: 10 });
    expect(updated.error).toBeNull();
    await upload(admin, bucket, 'ten.txt', '0123456789');
    const { error } = await admin.storage.from(bucket).upload('eleven.txt', '0123456789A');
    expectStorageError(error, { statusCode: '413', message: TOO_LARGE });
    expect((await objectRows(server, bucket)).map((row) => row.name)).toEqual([
      'before.txt',
      'ten.txt',
    ]);
  });

  it('applies the limits to signed upload URLs', async () => {
    const bucket = await createBucket(admin, uniqueBucket('kb-signed'), {
      fileSizeLimit: 100,
      allowedMimeTypes: ['text/plain'],
    });
    const blobsBefore = await blobNames(server);
    const big = await admin.storage.from(bucket).createSignedUploadUrl('big.txt');
    const bigUpload = await admin.storage
      .from(bucket)
      .uploadToSignedUrl('big.txt', big.data!.token, 'x'.repeat(101), {
        contentType: 'text/plain',
      });
    expectStorageError(bigUpload.error, { statusCode: '413', message: TOO_LARGE });
    const typed = await admin.storage.from(bucket).createSignedUploadUrl('typed.jpg');
    const typedUpload = await admin.storage
      .from(bucket)
      .uploadToSignedUrl('typed.jpg', typed.data!.token, 'x', { contentType: 'image/jpeg' });
    expectStorageError(typedUpload.error, {
      statusCode: '415',
      message: 'mime type image/jpeg is not supported',
    });
    await expectNothingStored(server, bucket, blobsBefore);
  });
});

describe('MIME type limits', () => {
  it('accepts listed and wildcard types and refuses others with 415', async () => {
    const bucket = await createBucket(admin, uniqueBucket('mime'), {
      allowedMimeTypes: ['image/png', 'text/*'],
    });
    await upload(admin, bucket, 'a.png', patternBytes(10, 1), { contentType: 'image/png' });
    await upload(admin, bucket, 'b.csv', 'a,b\n1,2\n', { contentType: 'text/csv' });
    await upload(admin, bucket, 'c.txt', 'plain'); // text/plain;charset=UTF-8, the client default

    const blobsBefore = await blobNames(server);
    const jpeg = await admin.storage
      .from(bucket)
      .upload('d.jpg', patternBytes(10, 2), { contentType: 'image/jpeg' });
    expect(jpeg.data).toBeNull();
    expectStorageError(jpeg.error, {
      statusCode: '415',
      message: 'mime type image/jpeg is not supported',
    });
    const multipart = await admin.storage
      .from(bucket)
      .upload('e.jpg', new Blob([patternBytes(10, 3)], { type: 'image/jpeg' }));
    expectStorageError(multipart.error, {
      statusCode: '415',
      message: 'mime type image/jpeg is not supported',
    });
    const pdf = await admin.storage
      .from(bucket)
      .upload('f.pdf', patternBytes(10, 4), { contentType: 'application/pdf' });
    expectStorageError(pdf.error, {
      statusCode: '415',
      message: 'mime type application/pdf is not supported',
    });
    await expectNothingStored(server, bucket, blobsBefore, ['d.jpg', 'e.jpg', 'f.pdf']);
    expect((await objectRows(server, bucket)).map((row) => row.name)).toEqual([
      'a.png',
      'b.csv',
      'c.txt',
    ]);
  });

  it('image/* admits every image type and nothing else', async () => {
    const bucket = await createBucket(admin, uniqueBucket('images'), {
      allowedMimeTypes: ['image/*'],
    });
    for (const type of ['image/webp', 'image/jpeg', 'image/svg+xml']) {
      await upload(admin, bucket, `x.${type.split('/')[1]!.replace('+', '')}`, 'x', {
        contentType: type,
      });
    }
    const { error } = await admin.storage
      .from(bucket)
      .upload('y.txt', 'y', { contentType: 'text/plain' });
    expectStorageError(error, {
      statusCode: '415',
      message: 'mime type text/plain is not supported',
    });
  });
});

function expectRefused(answer: { status: number; text: string }, label: string): void {
  expect(answer.status, `${label}: ${answer.text}`).toBe(400);
  const body = JSON.parse(answer.text) as StorageErrorBody;
  expect(body.statusCode, `${label}: ${answer.text}`).toMatch(/^4\d\d$/);
  expect(typeof body.message, label).toBe('string');
  expect(typeof body.error, label).toBe('string');
}

describe('hostile object keys', () => {
  let bucket: string;
  let blobsBefore: string[];

  beforeAll(async () => {
    bucket = await createBucket(admin, uniqueBucket('hostile'));
    blobsBefore = await blobNames(server);
  });

  async function expectNothingEscaped(): Promise<void> {
    await expectNothingStored(server, bucket, blobsBefore);
    const everywhere = await filesUnder(server.dataDir);
    expect(everywhere.filter((file) => path.basename(file).startsWith('escape'))).toEqual([]);
  }

  const rawKeys: [string, string][] = [
    ['a ../ segment', '../escape.txt'],
    ['a nested ../ climb', 'a/../../escape.txt'],
    ['an encoded slash', '..%2Fescape.txt'],
    ['encoded dots', '%2E%2E/escape.txt'],
    ['encoded dots and slashes', 'a%2F%2e%2e%2F%2e%2e%2Fescape.txt'],
    ['a lone ..', '..'],
    ['a lone .', '.'],
    ['an empty key', ''],
    ['only a slash', '/'],
    ['an empty segment', 'a//escape.txt'],
    ['a NUL', 'escape%00.txt'],
    ['a control character', 'escape%01name.txt'],
    ['a newline', 'escape%0Aname.txt'],
    ['a tab', 'escape%09name.txt'],
    ['a DEL', 'escape%7Fname.txt'],
    ['a backslash climb', '..%5C..%5Cescape.txt'],
    ['over 1024 bytes', `escape-${'k'.repeat(1018)}`],
  ];

  it.each(rawKeys)('refuses an upload whose key has %s', async (label, rawKey) => {
    const answer = await rawRequest(
      server,
      'POST',
      `/storage/v1/object/${bucket}/${rawKey}`,
      Buffer.from('hostile'),
    );
    expectRefused(answer, label);
    await expectNothingEscaped();
  });

  it.each(rawKeys.filter(([, key]) => key !== ''))(
    'refuses a signed upload URL whose key has %s',
    async (label, rawKey) => {
      const answer = await rawRequest(
        server,
        'POST',
        `/storage/v1/object/upload/sign/${bucket}/${rawKey}`,
        Buffer.from('{}'),
        {
          'Content-Type': 'application/json',
        },
      );
      expectRefused(answer, label);
    },
  );

  it('refuses hostile destinations for move and copy (keys in a JSON body)', async () => {
    await upload(admin, bucket, 'legit.txt', 'legit');
    const legit = (await objectRow(server, bucket, 'legit.txt'))!;
    const destinations = [
      '../escape.txt',
      'a/../../escape.txt',
      '',
      'a//escape.txt',
      'escape\u0000.txt',
      'escape\nname.txt',
      `escape-${'k'.repeat(1018)}`,
    ];
    for (const destination of destinations) {
      const moved = await admin.storage.from(bucket).move('legit.txt', destination);
      expect(moved.data, JSON.stringify(destination)).toBeNull();
      expect((moved.error as { status?: number }).status, JSON.stringify(destination)).toBe(400);
      expect((moved.error as { statusCode?: string }).statusCode).toMatch(/^4\d\d$/);
      const copied = await admin.storage.from(bucket).copy('legit.txt', destination);
      expect(copied.data, JSON.stringify(destination)).toBeNull();
      expect((copied.error as { status?: number }).status).toBe(400);
      expect((copied.error as { statusCode?: string }).statusCode).toMatch(/^4\d\d$/);
    }
    const rows = await objectRows(server, bucket);
    expect(rows.map((row) => ({ name: row.name, version: row.version }))).toEqual([
      { name: 'legit.txt', version: legit.version },
    ]);
    await admin.storage.from(bucket).remove(['legit.txt']);
    await expectNothingEscaped();
  });

  it('accepts a key of exactly 1024 bytes', async () => {
    const own = await createBucket(admin, uniqueBucket('longkey'));
    const key = `dir/${'k'.repeat(1020)}`;
    expect(Buffer.byteLength(key)).toBe(1024);
    await upload(admin, own, key, 'long');
    const { data } = await admin.storage.from(own).download(key);
    expect(await data!.text()).toBe('long');
  });

  it('refuses an invalid key through the official client too', async () => {
    const own = await createBucket(admin, uniqueBucket('client-hostile'));
    const before = await blobNames(server);
    const { data, error } = await admin.storage
      .from(own)
      .upload(`too-long-${'k'.repeat(1020)}`, 'x');
    expect(data).toBeNull();
    expect((error as { status?: number }).status).toBe(400);
    expect((error as { statusCode?: string }).statusCode).toBe('400');
    expect((error as { message?: string }).message).toMatch(/^Invalid key: /);
    await expectNothingStored(server, own, before);
  });
});
