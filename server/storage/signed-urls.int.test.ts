import type { SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../testing/harness';
import {
  blobNames,
  bytesOf,
  createBucket,
  expectErrorResponse,
  expectNothingStored,
  expectStorageError,
  objectRow,
  objectRows,
  parseDisposition,
  patternBytes,
  serviceClient,
  sha256,
  startStorageServer,
  tokenOf,
  uniqueBucket,
  upload,
  waitUntilExpired,
} from './storage-testing';
import { signedInClient, type SignedIn } from '../forms/forms-testing';

/**
 * Signed download URLs (one and many) and signed upload URLs (contract §4,
 * "Sign", "Signed upload"): they work without credentials, only for their
 * object, and only until they expire. Signed upload URLs live
 * STORAGE_UPLOAD_URL_EXPIRES = 2 seconds here, so the expiry is testable.
 */

const UPLOAD_URL_SECONDS = 2;

let server: TestServer;
let admin: SupabaseClient;
let bucket: string;
const bytes = patternBytes(1500, 42);

beforeAll(async () => {
  server = await startStorageServer({ STORAGE_UPLOAD_URL_EXPIRES: String(UPLOAD_URL_SECONDS) });
  admin = serviceClient(server);
  bucket = await createBucket(admin, uniqueBucket('signed'));
  await upload(admin, bucket, 'calls/rec 1.bin', bytes, { contentType: 'audio/x-test' });
  await upload(admin, bucket, 'calls/rec-2.txt', 'second recording');
});
afterAll(() => server?.close());

describe('signed download URLs', () => {
  it('createSignedUrl gives a URL that downloads the object with no credentials', async () => {
    const { data, error } = await admin.storage.from(bucket).createSignedUrl('calls/rec 1.bin', 60);
    expect(error).toBeNull();
    const signedUrl = data!.signedUrl;
    expect(
      signedUrl.startsWith(
        `${server.url}/storage/v1/object/sign/${bucket}/calls/rec%201.bin?token=`,
      ),
    ).toBe(true);
    const claims = decodeJwt(tokenOf(signedUrl));
    expect(claims.exp! - claims.iat!).toBe(60);

    const response = await fetch(signedUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/x-test');
    expect(response.headers.get('content-length')).toBe('1500');
    expect(sha256(Buffer.from(await response.arrayBuffer()))).toBe(sha256(bytes));

    const range = await fetch(signedUrl, { headers: { Range: 'bytes=10-19' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe('bytes 10-19/1500');
    expect(sha256(Buffer.from(await range.arrayBuffer()))).toBe(sha256(bytes.subarray(10, 20)));
  });

  it('adds a download= attachment when asked', async () => {
    const named = await admin.storage
      .from(bucket)
      .createSignedUrl('calls/rec-2.txt', 60, { download: 'recording.txt' });
    const response = await fetch(named.data!.signedUrl);
    expect(response.status).toBe(200);
    expect(parseDisposition(response.headers.get('content-disposition'))).toEqual({
      type: 'attachment',
      filename: 'recording.txt',
    });
    expect(await response.text()).toBe('second recording');

    const bare = await admin.storage
      .from(bucket)
      .createSignedUrl('calls/rec-2.txt', 60, { download: true });
    const bareResponse = await fetch(bare.data!.signedUrl);
    const bareDisposition = parseDisposition(bareResponse.headers.get('content-disposition'));
    expect(bareDisposition.type).toBe('attachment');
    // Supabase names no file for a bare download=; the object's own name is as good.
    expect([undefined, 'rec-2.txt']).toContain(bareDisposition.filename);
    await bareResponse.arrayBuffer();
  });

  it('createSignedUrls signs many paths and reports the missing ones', async () => {
    const { data, error } = await admin.storage
      .from(bucket)
      .createSignedUrls(['calls/rec-2.txt', 'calls/none.txt', 'calls/rec 1.bin'], 60);
    expect(error).toBeNull();
    expect(data!.map((entry) => entry.path)).toEqual([
      'calls/rec-2.txt',
      'calls/none.txt',
      'calls/rec 1.bin',
    ]);
    const [second, missing, first] = data!;
    expect(second!.error).toBeNull();
    expect(first!.error).toBeNull();
    expect(missing!.signedUrl).toBeNull();
    expect(typeof missing!.error).toBe('string');
    expect(missing!.error!.length).toBeGreaterThan(0);

    const secondResponse = await fetch(second!.signedUrl!);
    expect(await secondResponse.text()).toBe('second recording');
    const firstResponse = await fetch(first!.signedUrl!);
    expect(sha256(Buffer.from(await firstResponse.arrayBuffer()))).toBe(sha256(bytes));
  });

  it('answers "Object not found" when signing a missing object', async () => {
    const { data, error } = await admin.storage.from(bucket).createSignedUrl('calls/none.txt', 60);
    expect(data).toBeNull();
    expectStorageError(error, { statusCode: '404', message: 'Object not found' });
  });

  it('refuses a token for another object, a tampered token, and no token', async () => {
    const { data } = await admin.storage.from(bucket).createSignedUrl('calls/rec-2.txt', 60);
    const token = tokenOf(data!.signedUrl);
    const base = `${server.url}/storage/v1/object/sign/${bucket}`;

    const otherObject = await fetch(`${base}/calls/rec%201.bin?token=${token}`);
    const otherBody = await expectErrorResponse(otherObject);
    expect(otherBody.message).not.toContain('second recording');

    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    await expectErrorResponse(
      await fetch(`${base}/calls/rec-2.txt?token=${header}.${payload}.${flipped}`),
    );

    // A token whose payload names another object, re-using the real signature.
    const forged = Buffer.from(
      JSON.stringify({ ...decodeJwt(token), url: `${bucket}/calls/rec 1.bin` }),
    ).toString('base64url');
    await expectErrorResponse(
      await fetch(`${base}/calls/rec%201.bin?token=${header}.${forged}.${signature}`),
    );

    await expectErrorResponse(await fetch(`${base}/calls/rec-2.txt`));
    await expectErrorResponse(await fetch(`${base}/calls/rec-2.txt?token=not-a-token`));
  });

  it('stops working once expired', async () => {
    const { data, error } = await admin.storage.from(bucket).createSignedUrl('calls/rec-2.txt', 1);
    expect(error).toBeNull();
    const token = tokenOf(data!.signedUrl);
    const claims = decodeJwt(token);
    expect(claims.exp! - claims.iat!).toBe(1);
    await waitUntilExpired(token);
    const expired = await fetch(data!.signedUrl);
    const body = await expectErrorResponse(expired, '400');
    expect(body.message).toBe('The provided token has expired.');
  });

  it('refuses an expiresIn below one second', async () => {
    const { data, error } = await admin.storage.from(bucket).createSignedUrl('calls/rec-2.txt', 0);
    expect(data).toBeNull();
    expect(error).not.toBeNull();
    expect((error as { status?: number; statusCode?: string }).status).toBe(400);
    expect((error as { statusCode?: string }).statusCode).toMatch(/^4\d\d$/);
  });
});

describe('signed upload URLs', () => {
  let alice: SignedIn;

  beforeAll(async () => {
    alice = await signedInClient(server, { fullName: 'Uma Uploader' });
    // Alice may upload into her own folder of the bucket (and read what she uploaded).
    await server.db.query(
      `create policy "signed-upload own folder" on storage.objects for insert to authenticated
       with check (bucket_id = '${bucket}' and (storage.foldername(name))[1] = auth.uid()::text)`,
    );
  });

  it('createSignedUploadUrl + uploadToSignedUrl stores the file once, a second use is refused', async () => {
    const key = 'incoming/form-1.pdf';
    const created = await admin.storage.from(bucket).createSignedUploadUrl(key);
    expect(created.error).toBeNull();
    const { signedUrl, token, path } = created.data!;
    expect(path).toBe(key);
    expect(signedUrl).toBe(
      `${server.url}/storage/v1/object/upload/sign/${bucket}/${key}?token=${token}`,
    );
    const claims = decodeJwt(token);
    expect(claims.exp! - claims.iat!).toBe(UPLOAD_URL_SECONDS);

    const body = patternBytes(777, 3);
    const uploaded = await admin.storage
      .from(bucket)
      .uploadToSignedUrl(key, token, body, { contentType: 'application/pdf' });
    expect(uploaded).toEqual({
      data: { path: key, fullPath: `${bucket}/${key}` },
      error: null,
    });
    const row = (await objectRow(server, bucket, key))!;
    expect({ size: row.metadata!.size, mimetype: row.metadata!.mimetype }).toEqual({
      size: 777,
      mimetype: 'application/pdf',
    });
    const { data } = await admin.storage.from(bucket).download(key);
    expect(sha256(await bytesOf(data!))).toBe(sha256(body));

    const blobsBefore = await blobNames(server);
    const again = await admin.storage
      .from(bucket)
      .uploadToSignedUrl(key, token, Buffer.from('replacement'), { contentType: 'text/plain' });
    expect(again.data).toBeNull();
    expectStorageError(again.error, { statusCode: '409', message: 'The resource already exists' });
    const still = await admin.storage.from(bucket).download(key);
    expect(sha256(await bytesOf(still.data!))).toBe(sha256(body));
    expect(await blobNames(server)).toEqual(blobsBefore);
  });

  it('refuses the service role a URL for a taken name or a missing bucket, as a write would', async () => {
    const before = await objectRows(server, bucket);
    const taken = await admin.storage.from(bucket).createSignedUploadUrl('calls/rec-2.txt');
    expect(taken.data).toBeNull();
    expectStorageError(taken.error, { statusCode: '409', message: 'The resource already exists' });
    // With upsert the name may be taken: the URL replaces the object.
    const replacing = await admin.storage
      .from(bucket)
      .createSignedUploadUrl('calls/rec-2.txt', { upsert: true });
    expect(replacing.error).toBeNull();
    const nowhere = await admin.storage
      .from(uniqueBucket('missing'))
      .createSignedUploadUrl('a.txt');
    expect(nowhere.data).toBeNull();
    expectStorageError(nowhere.error, { statusCode: '404', message: 'Bucket not found' });
    // Signing writes nothing.
    expect(await objectRows(server, bucket)).toEqual(before);
  });

  it('with upsert, the signed URL may replace the object', async () => {
    const key = 'incoming/replace.txt';
    await upload(admin, bucket, key, 'original');
    const created = await admin.storage.from(bucket).createSignedUploadUrl(key, { upsert: true });
    expect(created.error).toBeNull();
    const token = created.data!.token;
    expect(decodeJwt(token).upsert).toBe(true);
    const first = await admin.storage
      .from(bucket)
      .uploadToSignedUrl(key, token, 'replaced once', { upsert: true });
    expect(first.error).toBeNull();
    const second = await admin.storage
      .from(bucket)
      .uploadToSignedUrl(key, token, 'replaced twice', { upsert: true });
    expect(second.error).toBeNull();
    const { data } = await admin.storage.from(bucket).download(key);
    expect(await data!.text()).toBe('replaced twice');
    expect((await objectRows(server, bucket)).filter((row) => row.name === key)).toHaveLength(1);
  });

  it('uploads a multipart body through the signed URL', async () => {
    const key = 'incoming/photo.png';
    const { data: signed } = await admin.storage.from(bucket).createSignedUploadUrl(key);
    const pixels = patternBytes(2222, 8);
    const uploaded = await admin.storage
      .from(bucket)
      .uploadToSignedUrl(key, signed!.token, new Blob([pixels], { type: 'image/png' }));
    expect(uploaded.error).toBeNull();
    const row = (await objectRow(server, bucket, key))!;
    expect({ size: row.metadata!.size, mimetype: row.metadata!.mimetype }).toEqual({
      size: 2222,
      mimetype: 'image/png',
    });
  });

  it('is made by a signed-in user under RLS, and the object is theirs', async () => {
    const key = `${alice.id}/mine.txt`;
    const created = await alice.client.storage.from(bucket).createSignedUploadUrl(key);
    expect(created.error).toBeNull();
    // Anyone holding the URL may use it: here with no credentials at all.
    const response = await fetch(created.data!.signedUrl, {
      method: 'PUT',
      headers: { 'Content-Type': 'text/plain', 'x-upsert': 'false' },
      body: 'uploaded by URL',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ Key: `${bucket}/${key}` });
    const row = (await objectRow(server, bucket, key))!;
    expect({ owner: row.owner, owner_id: row.owner_id }).toEqual({
      owner: alice.id,
      owner_id: alice.id,
    });

    // Alice may not sign an upload outside her folder.
    const outside = await alice.client.storage
      .from(bucket)
      .createSignedUploadUrl('elsewhere/x.txt');
    expect(outside.data).toBeNull();
    expectStorageError(outside.error, {
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
  });

  it('refuses a token used for another path, and a tampered one, storing nothing', async () => {
    const created = await admin.storage.from(bucket).createSignedUploadUrl('incoming/a.txt');
    const token = created.data!.token;
    const blobsBefore = await blobNames(server);
    const other = await admin.storage.from(bucket).uploadToSignedUrl('incoming/b.txt', token, 'x');
    expect(other.data).toBeNull();
    expect((other.error as { status?: number }).status).toBe(400);
    expect((other.error as { statusCode?: string }).statusCode).toMatch(/^4\d\d$/);

    const [header, , signature] = token.split('.') as [string, string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...decodeJwt(token), url: `${bucket}/incoming/b.txt` }),
    ).toString('base64url');
    const tampered = await admin.storage
      .from(bucket)
      .uploadToSignedUrl('incoming/b.txt', `${header}.${forged}.${signature}`, 'x');
    expect((tampered.error as { status?: number }).status).toBe(400);
    await expectNothingStored(server, bucket, blobsBefore, ['incoming/a.txt', 'incoming/b.txt']);
  });

  it('stops working once expired, storing nothing', async () => {
    const created = await admin.storage.from(bucket).createSignedUploadUrl('incoming/late.txt');
    const token = created.data!.token;
    await waitUntilExpired(token);
    const blobsBefore = await blobNames(server);
    const late = await admin.storage
      .from(bucket)
      .uploadToSignedUrl('incoming/late.txt', token, 'late');
    expect(late.data).toBeNull();
    expectStorageError(late.error, {
      statusCode: '400',
      message: 'The provided token has expired.',
    });
    await expectNothingStored(server, bucket, blobsBefore, ['incoming/late.txt']);
  });
});

describe('signed upload URLs with upsert meet the UPDATE policies', () => {
  // The common Supabase pattern: anyone signed in may add objects, only the
  // owner may change one. A signed upload URL that may replace an object is
  // given only to a caller who may update it (as Supabase does: the check at
  // signing time is the upsert itself, rolled back), and the upload honours
  // the token's upsert flag, never the x-upsert header the uploader sends.
  const RLS_REFUSAL = 'new row violates row-level security policy';
  let shared: string;
  let owner: SignedIn;
  let other: SignedIn;
  const original = 'the owner wrote this';

  async function contentOf(key: string): Promise<string> {
    const { data, error } = await admin.storage.from(shared).download(key);
    expect(error).toBeNull();
    return data!.text();
  }

  beforeAll(async () => {
    shared = await createBucket(admin, uniqueBucket('upsert'));
    owner = await signedInClient(server, { fullName: 'Olive Owner' });
    other = await signedInClient(server, { fullName: 'Otto Other' });
    await server.db.exec(
      `create policy "upsert: anyone inserts" on storage.objects for insert to authenticated
         with check (bucket_id = '${shared}');
       create policy "upsert: anyone reads" on storage.objects for select to authenticated
         using (bucket_id = '${shared}');
       create policy "upsert: owners update" on storage.objects for update to authenticated
         using (bucket_id = '${shared}' and owner_id = (select auth.uid())::text)
         with check (bucket_id = '${shared}' and owner_id = (select auth.uid())::text);`,
    );
    const uploaded = await owner.client.storage.from(shared).upload('doc.txt', original);
    expect(uploaded.error).toBeNull();
  });

  it('is refused to a user who may insert but not update the existing object', async () => {
    const blobsBefore = await blobNames(server);
    const signed = await other.client.storage
      .from(shared)
      .createSignedUploadUrl('doc.txt', { upsert: true });
    expect(signed.data).toBeNull();
    expectStorageError(signed.error, { statusCode: '403', message: RLS_REFUSAL });

    // The same as their own upsert, which the UPDATE policy refuses too.
    const direct = await other.client.storage
      .from(shared)
      .upload('doc.txt', 'overwritten', { upsert: true });
    expect(direct.data).toBeNull();
    expectStorageError(direct.error, { statusCode: '403', message: RLS_REFUSAL });
    // Without upsert, the object exists.
    const plain = await other.client.storage.from(shared).createSignedUploadUrl('doc.txt');
    expectStorageError(plain.error, { statusCode: '409', message: 'The resource already exists' });

    expect(await contentOf('doc.txt')).toBe(original);
    expect((await objectRow(server, shared, 'doc.txt'))!.owner_id).toBe(owner.id);
    expect(await blobNames(server)).toEqual(blobsBefore);
  });

  it('is given to the owner, whose upload replaces the object', async () => {
    const signed = await owner.client.storage
      .from(shared)
      .createSignedUploadUrl('doc.txt', { upsert: true });
    expect(signed.error).toBeNull();
    expect(decodeJwt(signed.data!.token).upsert).toBe(true);
    const replaced = await admin.storage
      .from(shared)
      .uploadToSignedUrl('doc.txt', signed.data!.token, 'the owner replaced it', { upsert: true });
    expect(replaced.error).toBeNull();
    expect(await contentOf('doc.txt')).toBe('the owner replaced it');
    expect((await objectRow(server, shared, 'doc.txt'))!.owner_id).toBe(owner.id);
  });

  it('is given for a name nobody holds yet: the INSERT policy decides', async () => {
    const signed = await other.client.storage
      .from(shared)
      .createSignedUploadUrl('otto.txt', { upsert: true });
    expect(signed.error).toBeNull();
    const uploaded = await admin.storage
      .from(shared)
      .uploadToSignedUrl('otto.txt', signed.data!.token, 'mine', { upsert: true });
    expect(uploaded.error).toBeNull();
    expect((await objectRow(server, shared, 'otto.txt'))!.owner_id).toBe(other.id);
  });

  it('follows the token, not an x-upsert header added at upload', async () => {
    const signed = await other.client.storage.from(shared).createSignedUploadUrl('race.txt');
    expect(signed.error).toBeNull();
    expect(decodeJwt(signed.data!.token).upsert).toBe(false);
    // The owner takes the name after the URL was signed.
    expect((await owner.client.storage.from(shared).upload('race.txt', original)).error).toBeNull();
    const blobsBefore = await blobNames(server);
    // uploadToSignedUrl sends x-upsert: true; the token said no.
    const late = await other.client.storage
      .from(shared)
      .uploadToSignedUrl('race.txt', signed.data!.token, 'overwritten', { upsert: true });
    expect(late.data).toBeNull();
    expectStorageError(late.error, { statusCode: '409', message: 'The resource already exists' });
    expect(await contentOf('race.txt')).toBe(original);
    expect(await blobNames(server)).toEqual(blobsBefore);
  });
});
