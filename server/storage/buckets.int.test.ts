import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../testing/harness';
import {
  blobNames,
  createBucket,
  eventually,
  expectStorageError,
  objectRows,
  serviceClient,
  startStorageServer,
  uniqueBucket,
  upload,
} from './storage-testing';

/**
 * Buckets through the official client (contract §4, "Buckets"): list, get,
 * create with its options, update, empty, delete — the exact bodies and errors.
 */

let server: TestServer;
let admin: SupabaseClient;

beforeAll(async () => {
  server = await startStorageServer();
  admin = serviceClient(server);
});
afterAll(() => server?.close());

interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  public: boolean;
  file_size_limit: string | null;
  allowed_mime_types: string[] | null;
  created_at: string;
  updated_at: string;
}

async function bucketRow(id: string): Promise<BucketRow | undefined> {
  const { rows } = await server.db.query<BucketRow>(
    `select id, name, owner::text as owner, public, file_size_limit::text as file_size_limit,
            allowed_mime_types, created_at, updated_at
     from storage.buckets where id = $1`,
    [id],
  );
  return rows[0];
}

describe('creating and reading a bucket', () => {
  it('creates a private bucket and returns exactly the eight bucket fields', async () => {
    const id = uniqueBucket('plain');
    const created = await admin.storage.createBucket(id);
    expect(created).toEqual({ data: { name: id }, error: null });

    const { data, error } = await admin.storage.getBucket(id);
    expect(error).toBeNull();
    const row = (await bucketRow(id))!;
    expect(data).toEqual({
      id,
      name: id,
      owner: null, // the service role has no sub
      public: false,
      file_size_limit: null,
      allowed_mime_types: null,
      created_at: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
    });
  });

  it('creates a public bucket with a decimal size limit and wildcard MIME types', async () => {
    const id = uniqueBucket('limits');
    await createBucket(admin, id, {
      public: true,
      fileSizeLimit: '20mb',
      allowedMimeTypes: ['image/*', 'text/plain'],
    });
    const { data, error } = await admin.storage.getBucket(id);
    expect(error).toBeNull();
    expect({
      public: data!.public,
      file_size_limit: data!.file_size_limit,
      allowed_mime_types: data!.allowed_mime_types,
    }).toEqual({
      public: true,
      file_size_limit: 20_000_000,
      allowed_mime_types: ['image/*', 'text/plain'],
    });
    const row = (await bucketRow(id))!;
    expect({ limit: row.file_size_limit, public: row.public }).toEqual({
      limit: '20000000',
      public: true,
    });
  });

  it.each([
    [1024, 1024],
    ['1kb', 1000],
    ['3B', 3],
    ['400MB', 400_000_000],
    ['50MiB', 52_428_800],
  ])('reads a file_size_limit of %j as %d bytes', async (limit, bytes) => {
    const id = uniqueBucket('size');
    await createBucket(admin, id, { fileSizeLimit: limit });
    const { data } = await admin.storage.getBucket(id);
    expect(data?.file_size_limit).toBe(bytes);
  });

  it('refuses a file_size_limit that is not a size, and creates nothing', async () => {
    const id = uniqueBucket('badsize');
    const { data, error } = await admin.storage.createBucket(id, {
      public: false,
      fileSizeLimit: 'twenty megabytes',
    });
    expect(data).toBeNull();
    expectStorageError(error, {
      statusCode: '400',
      message: 'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B',
    });
    expect(await bucketRow(id)).toBeUndefined();
  });

  it('refuses a second bucket with the same id', async () => {
    const id = uniqueBucket('dup');
    await createBucket(admin, id, { public: true });
    const { data, error } = await admin.storage.createBucket(id, { public: false });
    expect(data).toBeNull();
    expectStorageError(error, { statusCode: '409', message: 'The resource already exists' });
    expect((await bucketRow(id))?.public).toBe(true);
  });

  it.each(['has/slash', '', 'x'.repeat(101)])('refuses the bucket name %j', async (name) => {
    const { data, error } = await admin.storage.createBucket(name);
    expect(data).toBeNull();
    expectStorageError(error, { statusCode: '400', message: 'Bucket name invalid' });
    const { rows } = await server.db.query(`select 1 from storage.buckets where id = $1`, [name]);
    expect(rows).toEqual([]);
  });

  it('answers "Bucket not found" for a bucket that does not exist', async () => {
    const { data, error } = await admin.storage.getBucket(uniqueBucket('missing'));
    expect(data).toBeNull();
    expectStorageError(error, { statusCode: '404', message: 'Bucket not found' });
  });
});

describe('listing buckets', () => {
  const prefix = `listed-${Date.now().toString(36)}`;
  const ids = [`${prefix}-c`, `${prefix}-a`, `${prefix}-b`];

  beforeAll(async () => {
    for (const id of ids) await createBucket(admin, id, { public: id.endsWith('-a') });
  });

  it('lists every bucket with its fields and type STANDARD', async () => {
    const { data, error } = await admin.storage.listBuckets();
    expect(error).toBeNull();
    const ours = data!.filter((bucket) => bucket.id.startsWith(prefix));
    expect(ours.map((bucket) => bucket.id).sort()).toEqual([...ids].sort());
    const a = ours.find((bucket) => bucket.id === `${prefix}-a`)!;
    const row = (await bucketRow(a.id))!;
    expect(a).toEqual({
      id: a.id,
      name: a.id,
      owner: null,
      public: true,
      file_size_limit: null,
      allowed_mime_types: null,
      type: 'STANDARD',
      created_at: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
    });
  });

  it('searches, sorts, limits and offsets', async () => {
    const asc = await admin.storage.listBuckets({
      search: prefix,
      sortColumn: 'name',
      sortOrder: 'asc',
    });
    expect(asc.error).toBeNull();
    expect(asc.data!.map((bucket) => bucket.id)).toEqual([
      `${prefix}-a`,
      `${prefix}-b`,
      `${prefix}-c`,
    ]);

    const desc = await admin.storage.listBuckets({
      search: prefix,
      sortColumn: 'name',
      sortOrder: 'desc',
    });
    expect(desc.data!.map((bucket) => bucket.id)).toEqual([
      `${prefix}-c`,
      `${prefix}-b`,
      `${prefix}-a`,
    ]);

    const page = await admin.storage.listBuckets({
      search: prefix,
      sortColumn: 'id',
      sortOrder: 'asc',
      limit: 1,
      offset: 1,
    });
    expect(page.data!.map((bucket) => bucket.id)).toEqual([`${prefix}-b`]);
  });
});

describe('updating a bucket', () => {
  it('changes only the keys it is given', async () => {
    const id = uniqueBucket('update');
    await createBucket(admin, id, { fileSizeLimit: '1mb', allowedMimeTypes: ['image/png'] });
    const before = (await bucketRow(id))!;

    const updated = await admin.storage.updateBucket(id, { public: true });
    expect(updated).toEqual({ data: { message: 'Successfully updated' }, error: null });
    let { data } = await admin.storage.getBucket(id);
    expect({
      public: data!.public,
      file_size_limit: data!.file_size_limit,
      allowed_mime_types: data!.allowed_mime_types,
    }).toEqual({ public: true, file_size_limit: 1_000_000, allowed_mime_types: ['image/png'] });
    expect(new Date(data!.updated_at).getTime()).toBeGreaterThanOrEqual(
      new Date(before.updated_at).getTime(),
    );

    const second = await admin.storage.updateBucket(id, {
      public: false,
      fileSizeLimit: '5kb',
      allowedMimeTypes: ['text/*'],
    });
    expect(second.error).toBeNull();
    ({ data } = await admin.storage.getBucket(id));
    expect({
      public: data!.public,
      file_size_limit: data!.file_size_limit,
      allowed_mime_types: data!.allowed_mime_types,
    }).toEqual({ public: false, file_size_limit: 5000, allowed_mime_types: ['text/*'] });

    const cleared = await admin.storage.updateBucket(id, {
      public: false,
      fileSizeLimit: null,
      allowedMimeTypes: null,
    });
    expect(cleared.error).toBeNull();
    ({ data } = await admin.storage.getBucket(id));
    expect({
      file_size_limit: data!.file_size_limit,
      allowed_mime_types: data!.allowed_mime_types,
    }).toEqual({ file_size_limit: null, allowed_mime_types: null });
  });

  it('answers "Bucket not found" when updating a missing bucket', async () => {
    const { data, error } = await admin.storage.updateBucket(uniqueBucket('nope'), {
      public: true,
    });
    expect(data).toBeNull();
    expectStorageError(error, { statusCode: '404', message: 'Bucket not found' });
  });

  it('refuses an invalid size limit on update and keeps the old one', async () => {
    const id = uniqueBucket('badupdate');
    await createBucket(admin, id, { fileSizeLimit: 2048 });
    const { error } = await admin.storage.updateBucket(id, {
      public: false,
      fileSizeLimit: 'lots',
    });
    expectStorageError(error, {
      statusCode: '400',
      message: 'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B',
    });
    expect((await bucketRow(id))?.file_size_limit).toBe('2048');
  });
});

describe('emptying and deleting a bucket', () => {
  it('refuses to delete a bucket that holds objects, then deletes it once emptied', async () => {
    const id = uniqueBucket('full');
    await createBucket(admin, id);
    await upload(admin, id, 'one.txt', 'one');
    await upload(admin, id, 'folder/two.txt', 'two');
    await upload(admin, id, 'folder/deeper/three.txt', 'three');
    const versions = (await objectRows(server, id)).map((row) => row.version!);
    expect(versions).toHaveLength(3);

    const refused = await admin.storage.deleteBucket(id);
    expect(refused.data).toBeNull();
    expectStorageError(refused.error, {
      statusCode: '409',
      message: 'The bucket you tried to delete is not empty',
    });
    expect(await bucketRow(id)).toBeDefined();
    expect(await objectRows(server, id)).toHaveLength(3);

    const emptied = await admin.storage.emptyBucket(id);
    expect(emptied).toEqual({
      data: { message: 'Empty bucket has been queued. Completion may take up to an hour.' },
      error: null,
    });
    await eventually(
      async () => (await objectRows(server, id)).length === 0,
      'the bucket to be emptied',
    );
    await eventually(
      async () => (await blobNames(server)).every((name) => !versions.includes(name)),
      "the emptied objects' blobs to be deleted",
    );
    const listed = await admin.storage.from(id).list();
    expect(listed).toEqual({ data: [], error: null });
    // The bucket itself remains, with its settings.
    expect((await admin.storage.getBucket(id)).data?.id).toBe(id);

    const deleted = await admin.storage.deleteBucket(id);
    expect(deleted).toEqual({ data: { message: 'Successfully deleted' }, error: null });
    expect(await bucketRow(id)).toBeUndefined();
    expectStorageError((await admin.storage.getBucket(id)).error, {
      statusCode: '404',
      message: 'Bucket not found',
    });
  });

  it('answers "Bucket not found" when deleting or emptying a missing bucket', async () => {
    const id = uniqueBucket('ghost');
    expectStorageError((await admin.storage.deleteBucket(id)).error, {
      statusCode: '404',
      message: 'Bucket not found',
    });
    expectStorageError((await admin.storage.emptyBucket(id)).error, {
      statusCode: '404',
      message: 'Bucket not found',
    });
  });
});
