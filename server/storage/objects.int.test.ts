import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../testing/harness';
import {
  authHeaders,
  blobNames,
  blobSizeOf,
  bytesOf,
  createBucket,
  eventually,
  expectErrorResponse,
  expectStorageError,
  objectRow,
  objectRows,
  parseDisposition,
  patternBytes,
  serviceClient,
  sha256,
  startStorageServer,
  storageFetch,
  uniqueBucket,
  upload,
} from './storage-testing';

/**
 * Objects through the official client and plain HTTP (contract §4,
 * "Objects"): every upload form, download with its headers, ranges and
 * conditional requests, info, both list APIs, move, copy and remove.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: TestServer;
let admin: SupabaseClient;

beforeAll(async () => {
  server = await startStorageServer();
  admin = serviceClient(server);
});
afterAll(() => server?.close());

function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

/** GET an object over plain HTTP with the service role. */
function getObject(
  bucket: string,
  key: string,
  headers: Record<string, string> = {},
  query = '',
): Promise<Response> {
  return storageFetch(server, `/object/${bucket}/${encodeKey(key)}${query}`, {
    key: server.serviceRoleKey,
    headers,
  });
}

describe('uploading', () => {
  it('uploads a Buffer as a raw body and stores exactly its bytes', async () => {
    const bucket = await createBucket(admin, uniqueBucket('raw'));
    const bytes = patternBytes(5000, 7);
    const { data, error } = await admin.storage
      .from(bucket)
      .upload('docs/report.bin', bytes, { contentType: 'application/octet-stream' });
    expect(error).toBeNull();
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      path: 'docs/report.bin',
      fullPath: `${bucket}/docs/report.bin`,
    });

    const row = (await objectRow(server, bucket, 'docs/report.bin'))!;
    expect(row.id).toBe(data!.id);
    expect(row.owner_id).toBeNull(); // the service role has no sub
    expect(row.metadata).toEqual({
      eTag: expect.stringMatching(/^".+"$/),
      size: 5000,
      mimetype: 'application/octet-stream',
      cacheControl: 'max-age=3600',
      lastModified: expect.any(String),
      contentLength: 5000,
      httpStatusCode: 200,
    });
    expect(await blobSizeOf(server, row.version!)).toBe(5000);

    const downloaded = await admin.storage.from(bucket).download('docs/report.bin');
    expect(downloaded.error).toBeNull();
    expect(sha256(await bytesOf(downloaded.data!))).toBe(sha256(bytes));
    expect(downloaded.data!.type).toBe('application/octet-stream');
  });

  it('uploads a string with the client default content type and cache control', async () => {
    const bucket = await createBucket(admin, uniqueBucket('text'));
    await upload(admin, bucket, 'hello.txt', 'hello, world');
    const row = (await objectRow(server, bucket, 'hello.txt'))!;
    expect({
      mimetype: row.metadata!.mimetype,
      cacheControl: row.metadata!.cacheControl,
      size: row.metadata!.size,
    }).toEqual({ mimetype: 'text/plain;charset=UTF-8', cacheControl: 'max-age=3600', size: 12 });

    const response = await getObject(bucket, 'hello.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')?.toLowerCase()).toBe('text/plain;charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('max-age=3600');
    expect(response.headers.get('content-length')).toBe('12');
    expect(await response.text()).toBe('hello, world');

    const { data } = await admin.storage.from(bucket).download('hello.txt');
    expect(data!.type).toBe('text/plain;charset=utf-8');
    expect(await data!.text()).toBe('hello, world');
  });

  it('uploads an ArrayBuffer with an explicit content type and user metadata (x-metadata)', async () => {
    const bucket = await createBucket(admin, uniqueBucket('arraybuffer'));
    const bytes = patternBytes(3000, 11);
    const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    await upload(admin, bucket, 'scans/page-1.pdf', arrayBuffer, {
      contentType: 'application/pdf',
      cacheControl: '120',
      metadata: { team: 'sales', pages: 3, tags: ['q4', 'draft'] },
    });
    const row = (await objectRow(server, bucket, 'scans/page-1.pdf'))!;
    expect(row.metadata!.mimetype).toBe('application/pdf');
    expect(row.metadata!.cacheControl).toBe('max-age=120');
    expect(row.user_metadata).toEqual({ team: 'sales', pages: 3, tags: ['q4', 'draft'] });

    const info = await admin.storage.from(bucket).info('scans/page-1.pdf');
    expect(info.error).toBeNull();
    expect(info.data!.metadata).toEqual({ team: 'sales', pages: 3, tags: ['q4', 'draft'] });

    const response = await getObject(bucket, 'scans/page-1.pdf');
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('cache-control')).toBe('max-age=120');
    expect(sha256(Buffer.from(await response.arrayBuffer()))).toBe(sha256(bytes));
  });

  it('uploads a Blob as multipart: type from the part, cacheControl and metadata fields', async () => {
    const bucket = await createBucket(admin, uniqueBucket('multipart'));
    const bytes = patternBytes(4096, 3);
    const result = await admin.storage
      .from(bucket)
      .upload('avatars/me.png', new Blob([bytes], { type: 'image/png' }), {
        cacheControl: '60',
        metadata: { kind: 'avatar', width: 64 },
      });
    expect(result.error).toBeNull();
    expect(result.data).toEqual({
      id: expect.stringMatching(UUID),
      path: 'avatars/me.png',
      fullPath: `${bucket}/avatars/me.png`,
    });
    const row = (await objectRow(server, bucket, 'avatars/me.png'))!;
    expect(row.id).toBe(result.data!.id);
    expect({
      size: row.metadata!.size,
      mimetype: row.metadata!.mimetype,
      cacheControl: row.metadata!.cacheControl,
      user: row.user_metadata,
    }).toEqual({
      size: 4096,
      mimetype: 'image/png',
      cacheControl: 'max-age=60',
      user: { kind: 'avatar', width: 64 },
    });
    const response = await getObject(bucket, 'avatars/me.png');
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('max-age=60');
    // The stored bytes are the file's alone, no multipart framing.
    expect(sha256(Buffer.from(await response.arrayBuffer()))).toBe(sha256(bytes));
    expect(await blobSizeOf(server, row.version!)).toBe(4096);
  });

  it('uploads a File (multipart) under the given path, not the file name', async () => {
    const bucket = await createBucket(admin, uniqueBucket('file'));
    const text = '# Notes\n\nPlain markdown.\n';
    await upload(
      admin,
      bucket,
      'kb/notes.md',
      new File([text], 'ignored.txt', { type: 'text/markdown' }),
    );
    expect((await objectRows(server, bucket)).map((row) => row.name)).toEqual(['kb/notes.md']);
    const { data } = await admin.storage.from(bucket).download('kb/notes.md');
    expect(data!.type).toBe('text/markdown');
    expect(await data!.text()).toBe(text);
    const row = (await objectRow(server, bucket, 'kb/notes.md'))!;
    expect(row.metadata!.cacheControl).toBe('max-age=3600');
  });

  it('uploads FormData with its own cacheControl field', async () => {
    const bucket = await createBucket(admin, uniqueBucket('formdata'));
    const form = new FormData();
    form.append('cacheControl', '900');
    form.append('', new Blob(['{"a":1}'], { type: 'application/json' }));
    await upload(admin, bucket, 'data.json', form);
    const row = (await objectRow(server, bucket, 'data.json'))!;
    expect({
      mimetype: row.metadata!.mimetype,
      cacheControl: row.metadata!.cacheControl,
      size: row.metadata!.size,
    }).toEqual({ mimetype: 'application/json', cacheControl: 'max-age=900', size: 7 });
    const { data } = await admin.storage.from(bucket).download('data.json');
    expect(await data!.text()).toBe('{"a":1}');
  });

  it('cleans the path as the client does (leading, trailing and double slashes)', async () => {
    const bucket = await createBucket(admin, uniqueBucket('clean'));
    const { data } = await admin.storage.from(bucket).upload('/a//b/c.txt/', 'c');
    expect(data).toMatchObject({ path: 'a/b/c.txt', fullPath: `${bucket}/a/b/c.txt` });
    expect((await objectRows(server, bucket)).map((row) => row.name)).toEqual(['a/b/c.txt']);
  });

  it('refuses a second upload to the same key without upsert, keeping the first', async () => {
    const bucket = await createBucket(admin, uniqueBucket('dup'));
    await upload(admin, bucket, 'same.txt', 'first');
    const blobsBefore = await blobNames(server);
    const second = await admin.storage.from(bucket).upload('same.txt', 'second');
    expect(second.data).toBeNull();
    expectStorageError(second.error, { statusCode: '409', message: 'The resource already exists' });
    const { data } = await admin.storage.from(bucket).download('same.txt');
    expect(await data!.text()).toBe('first');
    expect(await blobNames(server)).toEqual(blobsBefore);
  });

  it('replaces an object with x-upsert, and the old blob goes', async () => {
    const bucket = await createBucket(admin, uniqueBucket('upsert'));
    await upload(admin, bucket, 'same.txt', 'first version', { contentType: 'text/plain' });
    const before = (await objectRow(server, bucket, 'same.txt'))!;
    const result = await admin.storage
      .from(bucket)
      .upload('same.txt', 'the second, longer version', {
        upsert: true,
        contentType: 'text/csv',
      });
    expect(result.error).toBeNull();
    expect(result.data).toMatchObject({ path: 'same.txt', fullPath: `${bucket}/same.txt` });
    const after = (await objectRow(server, bucket, 'same.txt'))!;
    expect(after.version).not.toBe(before.version);
    expect({ size: after.metadata!.size, mimetype: after.metadata!.mimetype }).toEqual({
      size: 26,
      mimetype: 'text/csv',
    });
    expect(await objectRows(server, bucket)).toHaveLength(1);
    const { data } = await admin.storage.from(bucket).download('same.txt');
    expect(await data!.text()).toBe('the second, longer version');
    expect(await blobSizeOf(server, after.version!)).toBe(26);
    await eventually(
      async () => !(await blobNames(server)).includes(before.version!),
      'the replaced blob to be deleted',
    );
  });

  it('update() replaces the content of an existing object', async () => {
    const bucket = await createBucket(admin, uniqueBucket('update'));
    await upload(admin, bucket, 'doc.txt', 'old content');
    const before = (await objectRow(server, bucket, 'doc.txt'))!;
    const updated = await admin.storage
      .from(bucket)
      .update('doc.txt', Buffer.from('new content, longer'), {
        contentType: 'text/markdown',
        metadata: { revision: 2 },
      });
    expect(updated.error).toBeNull();
    expect(updated.data).toMatchObject({ path: 'doc.txt', fullPath: `${bucket}/doc.txt` });
    const after = (await objectRow(server, bucket, 'doc.txt'))!;
    expect(after.version).not.toBe(before.version);
    expect({
      size: after.metadata!.size,
      mimetype: after.metadata!.mimetype,
      user: after.user_metadata,
    }).toEqual({ size: 19, mimetype: 'text/markdown', user: { revision: 2 } });
    expect(after.updated_at >= before.updated_at).toBe(true);
    const { data } = await admin.storage.from(bucket).download('doc.txt');
    expect(await data!.text()).toBe('new content, longer');
    await eventually(
      async () => !(await blobNames(server)).includes(before.version!),
      'the replaced blob to be deleted',
    );
  });

  it('answers "Bucket not found" for an upload into a missing bucket and stores nothing', async () => {
    const blobsBefore = await blobNames(server);
    const { data, error } = await admin.storage.from(uniqueBucket('nobucket')).upload('a.txt', 'a');
    expect(data).toBeNull();
    expectStorageError(error, { statusCode: '404', message: 'Bucket not found' });
    expect(await blobNames(server)).toEqual(blobsBefore);
  });
});

describe('downloading', () => {
  const bytes = patternBytes(1000, 21);
  let bucket: string;
  let publicBucket: string;

  beforeAll(async () => {
    bucket = await createBucket(admin, uniqueBucket('download'));
    publicBucket = await createBucket(admin, uniqueBucket('public'), { public: true });
    await upload(admin, bucket, 'folder/data.bin', bytes, { contentType: 'application/x-thing' });
    await upload(admin, publicBucket, 'site/logo file.svg', '<svg/>', {
      contentType: 'image/svg+xml',
    });
  });

  it('serves the object with its headers on the authenticated routes', async () => {
    for (const route of [
      `/object/${bucket}/folder/data.bin`,
      `/object/authenticated/${bucket}/folder/data.bin`,
    ]) {
      const response = await storageFetch(server, route, { key: server.serviceRoleKey });
      expect(response.status, route).toBe(200);
      expect({
        type: response.headers.get('content-type'),
        length: response.headers.get('content-length'),
        cache: response.headers.get('cache-control'),
        etag: response.headers.get('etag'),
        lastModified: response.headers.get('last-modified'),
      }).toEqual({
        type: 'application/x-thing',
        length: '1000',
        cache: 'max-age=3600',
        etag: expect.stringMatching(/^"[^"]+"$/),
        lastModified: expect.stringMatching(/GMT$/),
      });
      expect(sha256(Buffer.from(await response.arrayBuffer()))).toBe(sha256(bytes));
    }
  });

  it('serves a public bucket to anyone at its public URL, and a private one to no one', async () => {
    const { data } = admin.storage.from(publicBucket).getPublicUrl('site/logo file.svg');
    expect(data.publicUrl).toBe(
      `${server.url}/storage/v1/object/public/${publicBucket}/site/logo%20file.svg`,
    );
    const response = await fetch(data.publicUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(await response.text()).toBe('<svg/>');

    const privateUrl = admin.storage.from(bucket).getPublicUrl('folder/data.bin').data.publicUrl;
    const refused = await fetch(privateUrl);
    const body = await expectErrorResponse(refused, '404');
    expect(body.message).toBe('Bucket not found');
  });

  it('answers "Object not found" for a missing object', async () => {
    const { data, error } = await admin.storage.from(bucket).download('folder/none.bin');
    expect(data).toBeNull();
    expectStorageError(error, { statusCode: '404', message: 'Object not found' });
    const publicMissing = await fetch(
      admin.storage.from(publicBucket).getPublicUrl('site/none.svg').data.publicUrl,
    );
    await expectErrorResponse(publicMissing, '404');
  });

  it('answers Range requests with 206 and Content-Range', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-9', 0, 9],
      ['bytes=990-', 990, 999],
      ['bytes=-5', 995, 999],
      ['bytes=100-1999', 100, 999],
    ];
    for (const [range, start, end] of cases) {
      const response = await getObject(bucket, 'folder/data.bin', { Range: range });
      expect(response.status, range).toBe(206);
      expect(response.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/1000`);
      expect(response.headers.get('content-length'), range).toBe(String(end - start + 1));
      const body = Buffer.from(await response.arrayBuffer());
      expect(sha256(body), range).toBe(sha256(bytes.subarray(start, end + 1)));
    }
    const publicRange = await fetch(
      admin.storage.from(publicBucket).getPublicUrl('site/logo file.svg').data.publicUrl,
      { headers: { Range: 'bytes=1-3' } },
    );
    expect(publicRange.status).toBe(206);
    expect(publicRange.headers.get('content-range')).toBe('bytes 1-3/6');
    expect(await publicRange.text()).toBe('svg');
  });

  it('answers an unsatisfiable range with 416', async () => {
    const response = await getObject(bucket, 'folder/data.bin', { Range: 'bytes=5000-6000' });
    expect(response.status).toBe(416);
    await response.arrayBuffer();
  });

  it('sends an attachment with download=', async () => {
    const named = await getObject(bucket, 'folder/data.bin', {}, '?download=report%20final.bin');
    expect(named.status).toBe(200);
    expect(parseDisposition(named.headers.get('content-disposition'))).toEqual({
      type: 'attachment',
      filename: 'report final.bin',
    });
    expect(sha256(Buffer.from(await named.arrayBuffer()))).toBe(sha256(bytes));

    const bare = await fetch(
      admin.storage.from(publicBucket).getPublicUrl('site/logo file.svg', { download: true }).data
        .publicUrl,
    );
    expect(bare.status).toBe(200);
    const bareDisposition = parseDisposition(bare.headers.get('content-disposition'));
    expect(bareDisposition.type).toBe('attachment');
    // Supabase names no file for a bare download=; the object's own name is as good.
    expect([undefined, 'logo file.svg']).toContain(bareDisposition.filename);
    await bare.arrayBuffer();

    const renamed = await fetch(
      admin.storage.from(publicBucket).getPublicUrl('site/logo file.svg', { download: 'logo.svg' })
        .data.publicUrl,
    );
    expect(parseDisposition(renamed.headers.get('content-disposition'))).toEqual({
      type: 'attachment',
      filename: 'logo.svg',
    });
    await renamed.arrayBuffer();

    const inline = await getObject(bucket, 'folder/data.bin');
    expect(parseDisposition(inline.headers.get('content-disposition')).type).not.toBe('attachment');
    await inline.arrayBuffer();
  });

  it('answers conditional requests: If-None-Match and If-Modified-Since give 304', async () => {
    const first = await getObject(bucket, 'folder/data.bin');
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    const info = await admin.storage.from(bucket).info('folder/data.bin');
    expect(info.data!.etag).toBe(etag);
    // Last-Modified is the blob's write time, info's lastModified the row's: the same
    // write, possibly either side of a second boundary.
    const rowSecond = Math.floor(new Date(info.data!.lastModified!).getTime() / 1000) * 1000;
    expect(Math.abs(new Date(lastModified).getTime() - rowSecond)).toBeLessThanOrEqual(1000);

    const notModified = await getObject(bucket, 'folder/data.bin', { 'If-None-Match': etag });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');

    const otherTag = await getObject(bucket, 'folder/data.bin', { 'If-None-Match': '"other"' });
    expect(otherTag.status).toBe(200);
    expect(sha256(Buffer.from(await otherTag.arrayBuffer()))).toBe(sha256(bytes));

    const since = await getObject(bucket, 'folder/data.bin', {
      'If-Modified-Since': lastModified,
    });
    expect(since.status).toBe(304);
    expect(await since.text()).toBe('');

    const earlier = new Date(new Date(lastModified).getTime() - 3600_000).toUTCString();
    const modified = await getObject(bucket, 'folder/data.bin', { 'If-Modified-Since': earlier });
    expect(modified.status).toBe(200);
    expect(sha256(Buffer.from(await modified.arrayBuffer()))).toBe(sha256(bytes));

    const publicUrl = admin.storage.from(publicBucket).getPublicUrl('site/logo file.svg')
      .data.publicUrl;
    const publicTag = (await fetch(publicUrl)).headers.get('etag')!;
    const publicNotModified = await fetch(publicUrl, { headers: { 'If-None-Match': publicTag } });
    expect(publicNotModified.status).toBe(304);
  });

  it('changes the ETag when the content changes, so the old one no longer matches', async () => {
    const own = await createBucket(admin, uniqueBucket('etag'));
    await upload(admin, own, 'e.txt', 'version one');
    const first = await getObject(own, 'e.txt');
    await first.arrayBuffer();
    const oldTag = first.headers.get('etag')!;
    await upload(admin, own, 'e.txt', 'version two', { upsert: true });
    const again = await getObject(own, 'e.txt', { 'If-None-Match': oldTag });
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).not.toBe(oldTag);
    expect(await again.text()).toBe('version two');
  });
});

describe('info and exists', () => {
  it('describes an object with exactly the info fields', async () => {
    const bucket = await createBucket(admin, uniqueBucket('info'));
    await upload(admin, bucket, 'a/b.txt', 'info body', {
      contentType: 'text/plain',
      metadata: { source: 'test' },
    });
    await upload(admin, bucket, 'plain.txt', 'x');
    const row = (await objectRow(server, bucket, 'a/b.txt'))!;
    const { data, error } = await admin.storage.from(bucket).info('a/b.txt');
    expect(error).toBeNull();
    const etag = (await getObject(bucket, 'a/b.txt')).headers.get('etag');
    expect(data).toEqual({
      id: row.id,
      name: 'a/b.txt',
      version: row.version,
      bucketId: bucket,
      size: 9,
      contentType: 'text/plain',
      cacheControl: 'max-age=3600',
      etag,
      metadata: { source: 'test' },
      lastModified: row.updated_at,
      createdAt: row.created_at,
    });

    const plain = await admin.storage.from(bucket).info('plain.txt');
    expect(plain.data!.metadata).toEqual({});

    const head = await storageFetch(server, `/object/info/${bucket}/a/b.txt`, {
      key: server.serviceRoleKey,
      method: 'HEAD',
    });
    expect(head.status).toBe(200);
  });

  it('exists() is true for an object and false for a missing one', async () => {
    const bucket = await createBucket(admin, uniqueBucket('exists'));
    await upload(admin, bucket, 'here.txt', 'here');
    expect((await admin.storage.from(bucket).exists('here.txt')).data).toBe(true);
    const missing = await admin.storage.from(bucket).exists('gone.txt');
    expect(missing.data).toBe(false);
    expectStorageError(missing.error, { statusCode: '404', message: 'Object not found' });
    const info = await admin.storage.from(bucket).info('gone.txt');
    expectStorageError(info.error, { statusCode: '404', message: 'Object not found' });
  });
});

describe('listing (v1)', () => {
  let bucket: string;
  const keys = [
    'a.txt',
    'B.txt',
    'c.txt',
    'folder/x.txt',
    'folder/z.txt',
    'folder/sub/y.txt',
    'zeta/q.txt',
  ];

  beforeAll(async () => {
    bucket = await createBucket(admin, uniqueBucket('list'));
    for (const key of keys) await upload(admin, bucket, key, `content of ${key}`);
  });

  const names = (entries: { name: string }[] | null) => (entries ?? []).map((entry) => entry.name);

  it('lists the immediate children, folders as entries with null ids, sorted by name', async () => {
    const { data, error } = await admin.storage.from(bucket).list();
    expect(error).toBeNull();
    expect(names(data)).toEqual(['a.txt', 'B.txt', 'c.txt', 'folder', 'zeta']);
    const folder = data!.find((entry) => entry.name === 'folder');
    expect(folder).toEqual({
      name: 'folder',
      id: null,
      updated_at: null,
      created_at: null,
      last_accessed_at: null,
      metadata: null,
    });
    const file = data!.find((entry) => entry.name === 'a.txt')!;
    const row = (await objectRow(server, bucket, 'a.txt'))!;
    expect(Object.keys(file).sort()).toEqual([
      'created_at',
      'id',
      'last_accessed_at',
      'metadata',
      'name',
      'updated_at',
    ]);
    expect(file.id).toBe(row.id);
    expect(new Date(file.created_at!).toISOString()).toBe(row.created_at);
    expect(new Date(file.updated_at!).toISOString()).toBe(row.updated_at);
    expect(file.metadata).toMatchObject({
      size: 'content of a.txt'.length,
      mimetype: 'text/plain;charset=UTF-8',
    });
  });

  it('lists inside a folder, with or without a trailing slash', async () => {
    for (const prefix of ['folder', 'folder/']) {
      const { data, error } = await admin.storage.from(bucket).list(prefix);
      expect(error).toBeNull();
      expect(names(data), prefix).toEqual(['sub', 'x.txt', 'z.txt']);
      expect(data!.find((entry) => entry.name === 'sub')?.id).toBeNull();
    }
    expect(names((await admin.storage.from(bucket).list('folder/sub')).data)).toEqual(['y.txt']);
    expect((await admin.storage.from(bucket).list('nowhere')).data).toEqual([]);
  });

  it('pages with limit and offset, and sorts descending', async () => {
    const page = await admin.storage.from(bucket).list('', { limit: 2, offset: 1 });
    expect(names(page.data)).toEqual(['B.txt', 'c.txt']);
    const desc = await admin.storage
      .from(bucket)
      .list('', { sortBy: { column: 'name', order: 'desc' } });
    expect(names(desc.data)).toEqual(['zeta', 'folder', 'c.txt', 'B.txt', 'a.txt']);
  });

  it('searches names within the folder, ignoring case', async () => {
    expect(names((await admin.storage.from(bucket).list('', { search: 'b' })).data)).toEqual([
      'B.txt',
    ]);
    expect(names((await admin.storage.from(bucket).list('folder', { search: 'Z' })).data)).toEqual([
      'z.txt',
    ]);
  });

  it('returns 100 entries by default', async () => {
    const many = await createBucket(admin, uniqueBucket('many'));
    const all = Array.from(
      { length: 105 },
      (_, index) => `f-${String(index).padStart(3, '0')}.txt`,
    );
    for (let start = 0; start < all.length; start += 15) {
      await Promise.all(all.slice(start, start + 15).map((key) => upload(admin, many, key, key)));
    }
    const first = await admin.storage.from(many).list();
    expect(names(first.data)).toEqual(all.slice(0, 100));
    const rest = await admin.storage.from(many).list('', { offset: 100 });
    expect(names(rest.data)).toEqual(all.slice(100));
  });
});

describe('listing (v2)', () => {
  let bucket: string;
  const keys = [
    'a.txt',
    'b.txt',
    'docs/1.txt',
    'docs/2.txt',
    'docs/3.txt',
    'docs/deep/4.txt',
    'pics/p.png',
  ];

  beforeAll(async () => {
    bucket = await createBucket(admin, uniqueBucket('listv2'));
    for (const key of keys) await upload(admin, bucket, key, key);
  });

  it('lists with a delimiter: folders end with a slash, objects are full keys', async () => {
    const root = await admin.storage.from(bucket).listV2({ with_delimiter: true });
    expect(root.error).toBeNull();
    expect(root.data!.hasNext).toBe(false);
    expect(root.data!.folders.map((folder) => folder.name)).toEqual(['docs/', 'pics/']);
    expect(root.data!.objects.map((object) => object.name)).toEqual(['a.txt', 'b.txt']);
    const row = (await objectRow(server, bucket, 'a.txt'))!;
    expect(root.data!.objects[0]).toMatchObject({ id: row.id, metadata: { size: 5 } });

    const docs = await admin.storage.from(bucket).listV2({ prefix: 'docs/', with_delimiter: true });
    expect(docs.data!.folders.map((folder) => folder.name)).toEqual(['docs/deep/']);
    expect(docs.data!.objects.map((object) => object.name)).toEqual([
      'docs/1.txt',
      'docs/2.txt',
      'docs/3.txt',
    ]);
  });

  it('lists everything under a prefix without a delimiter', async () => {
    const { data, error } = await admin.storage.from(bucket).listV2({ prefix: 'docs/' });
    expect(error).toBeNull();
    expect(data!.folders).toEqual([]);
    expect(data!.objects.map((object) => object.name)).toEqual([
      'docs/1.txt',
      'docs/2.txt',
      'docs/3.txt',
      'docs/deep/4.txt',
    ]);
    expect(data!.hasNext).toBe(false);
  });

  it('pages with limit and cursor until hasNext is false', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const { data, error } = await admin.storage
        .from(bucket)
        .listV2({ limit: 2, ...(cursor ? { cursor } : {}) });
      expect(error).toBeNull();
      pages += 1;
      seen.push(...data!.objects.map((object) => object.name));
      if (!data!.hasNext) {
        expect(data!.nextCursor ?? undefined).toBeUndefined();
        break;
      }
      expect(data!.objects).toHaveLength(2);
      expect(typeof data!.nextCursor).toBe('string');
      cursor = data!.nextCursor;
      if (pages > 10) throw new Error('listV2 never ended');
    }
    expect(seen).toEqual(keys);
    expect(pages).toBe(4);
  });
});

describe('moving, copying and removing', () => {
  it('moves an object within a bucket and to another bucket', async () => {
    const bucket = await createBucket(admin, uniqueBucket('move'));
    const other = await createBucket(admin, uniqueBucket('move-target'));
    const bytes = patternBytes(2048, 5);
    await upload(admin, bucket, 'src/a.bin', bytes, { contentType: 'application/x-a' });
    const moved = await admin.storage.from(bucket).move('src/a.bin', 'dst/b.bin');
    expect(moved.error).toBeNull();
    expect(moved.data).toMatchObject({ message: 'Successfully moved' });
    expect((await objectRows(server, bucket)).map((row) => row.name)).toEqual(['dst/b.bin']);
    expect((await admin.storage.from(bucket).exists('src/a.bin')).data).toBe(false);
    const { data } = await admin.storage.from(bucket).download('dst/b.bin');
    expect(sha256(await bytesOf(data!))).toBe(sha256(bytes));
    expect(data!.type).toBe('application/x-a');

    const across = await admin.storage
      .from(bucket)
      .move('dst/b.bin', 'elsewhere/c.bin', { destinationBucket: other });
    expect(across.data).toMatchObject({ message: 'Successfully moved' });
    expect(await objectRows(server, bucket)).toEqual([]);
    expect((await objectRows(server, other)).map((row) => row.name)).toEqual(['elsewhere/c.bin']);
    const again = await admin.storage.from(other).download('elsewhere/c.bin');
    expect(sha256(await bytesOf(again.data!))).toBe(sha256(bytes));
  });

  it('answers "Object not found" when moving a missing object', async () => {
    const bucket = await createBucket(admin, uniqueBucket('move-missing'));
    const { data, error } = await admin.storage.from(bucket).move('none.txt', 'other.txt');
    expect(data).toBeNull();
    expectStorageError(error, { statusCode: '404', message: 'Object not found' });
    expect(await objectRows(server, bucket)).toEqual([]);
  });

  it('copies an object to a new key and to another bucket, independent of the source', async () => {
    const bucket = await createBucket(admin, uniqueBucket('copy'));
    const other = await createBucket(admin, uniqueBucket('copy-target'));
    const bytes = patternBytes(3333, 9);
    await upload(admin, bucket, 'orig.bin', bytes, {
      contentType: 'application/x-orig',
      metadata: { origin: 'yes' },
    });
    const copied = await admin.storage.from(bucket).copy('orig.bin', 'copies/copy.bin');
    expect(copied).toEqual({ data: { path: `${bucket}/copies/copy.bin` }, error: null });
    const across = await admin.storage
      .from(bucket)
      .copy('orig.bin', 'there.bin', { destinationBucket: other });
    expect(across).toEqual({ data: { path: `${other}/there.bin` }, error: null });

    const source = (await objectRow(server, bucket, 'orig.bin'))!;
    const copy = (await objectRow(server, bucket, 'copies/copy.bin'))!;
    expect(copy.id).not.toBe(source.id);
    expect(copy.version).not.toBe(source.version);
    expect(copy.metadata!.mimetype).toBe('application/x-orig');
    expect(copy.metadata!.size).toBe(3333);

    await admin.storage.from(bucket).remove(['orig.bin']);
    for (const [b, key] of [
      [bucket, 'copies/copy.bin'],
      [other, 'there.bin'],
    ] as const) {
      const { data, error } = await admin.storage.from(b).download(key);
      expect(error).toBeNull();
      expect(sha256(await bytesOf(data!))).toBe(sha256(bytes));
    }
  });

  it('refuses to copy a missing object, or onto an existing key', async () => {
    const bucket = await createBucket(admin, uniqueBucket('copy-bad'));
    await upload(admin, bucket, 'one.txt', 'one');
    await upload(admin, bucket, 'two.txt', 'two');
    const missing = await admin.storage.from(bucket).copy('none.txt', 'x.txt');
    expectStorageError(missing.error, { statusCode: '404', message: 'Object not found' });
    const onto = await admin.storage.from(bucket).copy('one.txt', 'two.txt');
    expectStorageError(onto.error, { statusCode: '409', message: 'The resource already exists' });
    const { data } = await admin.storage.from(bucket).download('two.txt');
    expect(await data!.text()).toBe('two');
    expect((await objectRows(server, bucket)).map((row) => row.name)).toEqual([
      'one.txt',
      'two.txt',
    ]);
  });

  it('removes many objects at once, skipping missing keys, and their blobs go', async () => {
    const bucket = await createBucket(admin, uniqueBucket('remove'));
    for (const key of ['r/1.txt', 'r/2.txt', 'r/3.txt']) await upload(admin, bucket, key, key);
    const rows = await objectRows(server, bucket);
    const { data, error } = await admin.storage
      .from(bucket)
      .remove(['r/1.txt', 'r/2.txt', 'r/missing.txt']);
    expect(error).toBeNull();
    const removed = (data ?? []) as { name: string; id: string; bucket_id: string }[];
    expect(
      removed
        .map((entry) => ({ name: entry.name, id: entry.id, bucket_id: entry.bucket_id }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ).toEqual(
      rows
        .filter((row) => row.name !== 'r/3.txt')
        .map((row) => ({ name: row.name, id: row.id, bucket_id: bucket })),
    );
    expect((await objectRows(server, bucket)).map((row) => row.name)).toEqual(['r/3.txt']);
    const goneVersions = rows.filter((row) => row.name !== 'r/3.txt').map((row) => row.version!);
    await eventually(
      async () => (await blobNames(server)).every((name) => !goneVersions.includes(name)),
      'removed blobs to be deleted',
    );
    const kept = rows.find((row) => row.name === 'r/3.txt')!.version!;
    expect(await blobNames(server)).toContain(kept);

    const again = await admin.storage.from(bucket).remove(['r/1.txt']);
    expect(again).toEqual({ data: [], error: null });
  });

  it('answers plain HTTP without the client the same way (DELETE /object/{bucket})', async () => {
    const bucket = await createBucket(admin, uniqueBucket('remove-http'));
    await upload(admin, bucket, 'only.txt', 'only');
    const response = await storageFetch(server, `/object/${bucket}`, {
      method: 'DELETE',
      headers: { ...authHeaders(server.serviceRoleKey), 'Content-Type': 'application/json' },
      body: JSON.stringify({ prefixes: ['only.txt'] }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { name: string }[];
    expect(body.map((entry) => entry.name)).toEqual(['only.txt']);
    expect(await objectRows(server, bucket)).toEqual([]);
  });
});
