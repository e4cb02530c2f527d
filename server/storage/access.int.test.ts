import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, type SignedIn } from '../forms/forms-testing';
import { clientFor } from '../testing/clients';
import type { TestServer } from '../testing/harness';
import {
  blobNames,
  bytesOf,
  createBucket,
  expectNothingStored,
  expectStorageError,
  objectRow,
  objectRows,
  serviceClient,
  sha256,
  startStorageServer,
  uniqueBucket,
  upload,
} from './storage-testing';

/**
 * Row-level security on storage.objects and storage.buckets decides every
 * operation, with the caller's claims, as on Supabase (contract §4, "Auth"):
 * two signed-in users, an anonymous caller, and the service role that
 * bypasses it all. The policies are the usual Supabase ones: each user owns
 * the folder named after their id.
 */

let server: TestServer;
let admin: SupabaseClient;
let anon: SupabaseClient;
let alice: SignedIn;
let bob: SignedIn;
let privateBucket: string;
let publicBucket: string;
let dropBucket: string;
let closedBucket: string;

beforeAll(async () => {
  server = await startStorageServer();
  admin = serviceClient(server);
  anon = clientFor(server);
  [alice, bob] = await Promise.all([
    signedInClient(server, { fullName: 'Alice Access', company: 'Alice Co' }),
    signedInClient(server, { fullName: 'Bob Access', company: 'Bob Co' }),
  ]);
  privateBucket = await createBucket(admin, uniqueBucket('private-docs'));
  publicBucket = await createBucket(admin, uniqueBucket('public-assets'), { public: true });
  dropBucket = await createBucket(admin, uniqueBucket('anon-drop'));
  closedBucket = await createBucket(admin, uniqueBucket('closed'));

  const own = `bucket_id = '${privateBucket}' and (storage.foldername(name))[1] = auth.uid()::text`;
  for (const policy of [
    `create policy "own folder read" on storage.objects for select to authenticated using (${own})`,
    `create policy "own folder insert" on storage.objects for insert to authenticated with check (${own})`,
    `create policy "own folder update" on storage.objects for update to authenticated using (${own}) with check (${own})`,
    `create policy "own folder delete" on storage.objects for delete to authenticated using (${own} and owner_id = auth.uid()::text)`,
    `create policy "public assets by owner" on storage.objects for insert to authenticated with check (bucket_id = '${publicBucket}' and (storage.foldername(name))[1] = auth.uid()::text)`,
    `create policy "anon drop insert" on storage.objects for insert to anon with check (bucket_id = '${dropBucket}' and (storage.foldername(name))[1] = 'inbox')`,
    `create policy "anon drop read" on storage.objects for select to anon using (bucket_id = '${dropBucket}')`,
    `create policy "signed-in see their buckets" on storage.buckets for select to authenticated using (id in ('${privateBucket}', '${publicBucket}'))`,
  ]) {
    await server.db.query(policy);
  }

  await upload(alice.client, privateBucket, `${alice.id}/secret.txt`, 'alice secret');
  await upload(bob.client, privateBucket, `${bob.id}/notes.txt`, 'bob notes');
});
afterAll(() => server?.close());

describe('signed-in users in their own folders', () => {
  it('records the uploader as owner and owner_id', async () => {
    const row = (await objectRow(server, privateBucket, `${alice.id}/secret.txt`))!;
    expect({ owner: row.owner, owner_id: row.owner_id }).toEqual({
      owner: alice.id,
      owner_id: alice.id,
    });
  });

  it('each user reads, lists and signs their own objects', async () => {
    const { data } = await alice.client.storage
      .from(privateBucket)
      .download(`${alice.id}/secret.txt`);
    expect(await data!.text()).toBe('alice secret');
    const listed = await alice.client.storage.from(privateBucket).list(alice.id);
    expect(listed.data!.map((entry) => entry.name)).toEqual(['secret.txt']);
    const root = await alice.client.storage.from(privateBucket).list();
    expect(root.data!.map((entry) => entry.name)).toEqual([alice.id]);
    const info = await alice.client.storage.from(privateBucket).info(`${alice.id}/secret.txt`);
    expect(info.data?.size).toBe(12);
    const signed = await alice.client.storage
      .from(privateBucket)
      .createSignedUrl(`${alice.id}/secret.txt`, 60);
    expect(await (await fetch(signed.data!.signedUrl)).text()).toBe('alice secret');
  });

  it("refuses an upload into another user's folder, storing nothing", async () => {
    const blobsBefore = await blobNames(server);
    const { data, error } = await alice.client.storage
      .from(privateBucket)
      .upload(`${bob.id}/planted.txt`, 'planted');
    expect(data).toBeNull();
    expectStorageError(error, {
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    await expectNothingStored(server, privateBucket, blobsBefore, [`${bob.id}/planted.txt`]);
  });

  it("hides another user's objects: download, info, exists, list and signing", async () => {
    const key = `${alice.id}/secret.txt`;
    const download = await bob.client.storage.from(privateBucket).download(key);
    expect(download.data).toBeNull();
    expectStorageError(download.error, { statusCode: '404', message: 'Object not found' });
    const info = await bob.client.storage.from(privateBucket).info(key);
    expectStorageError(info.error, { statusCode: '404', message: 'Object not found' });
    expect((await bob.client.storage.from(privateBucket).exists(key)).data).toBe(false);
    expect((await bob.client.storage.from(privateBucket).list(alice.id)).data).toEqual([]);
    expect(
      (await bob.client.storage.from(privateBucket).list()).data!.map((entry) => entry.name),
    ).toEqual([bob.id]);
    const signed = await bob.client.storage.from(privateBucket).createSignedUrl(key, 60);
    expectStorageError(signed.error, { statusCode: '404', message: 'Object not found' });
    const many = await bob.client.storage.from(privateBucket).createSignedUrls([key], 60);
    expect(many.data?.[0]?.signedUrl ?? null).toBeNull();
  });

  it("cannot change, move, copy or remove another user's object", async () => {
    const key = `${alice.id}/secret.txt`;
    const before = (await objectRow(server, privateBucket, key))!;

    const updated = await bob.client.storage.from(privateBucket).update(key, 'overwritten');
    expect(updated.data).toBeNull();
    expect((updated.error as { status?: number }).status).toBe(400);
    expect((updated.error as { statusCode?: string }).statusCode).toMatch(/^(403|404)$/);

    const upserted = await bob.client.storage
      .from(privateBucket)
      .upload(key, 'overwritten', { upsert: true });
    expect(upserted.data).toBeNull();
    expect((upserted.error as { statusCode?: string }).statusCode).toMatch(/^(403|404)$/);

    const moved = await bob.client.storage.from(privateBucket).move(key, `${bob.id}/stolen.txt`);
    expect(moved.data).toBeNull();
    expect((moved.error as { statusCode?: string }).statusCode).toMatch(/^(403|404)$/);

    const copied = await bob.client.storage.from(privateBucket).copy(key, `${bob.id}/copied.txt`);
    expect(copied.data).toBeNull();
    expect((copied.error as { statusCode?: string }).statusCode).toMatch(/^(403|404)$/);

    const removed = await bob.client.storage.from(privateBucket).remove([key]);
    expect(removed).toEqual({ data: [], error: null });

    const after = (await objectRow(server, privateBucket, key))!;
    expect({ id: after.id, version: after.version, metadata: after.metadata }).toEqual({
      id: before.id,
      version: before.version,
      metadata: before.metadata,
    });
    const names = (await objectRows(server, privateBucket)).map((row) => row.name);
    expect(names).not.toContain(`${bob.id}/stolen.txt`);
    expect(names).not.toContain(`${bob.id}/copied.txt`);
    const { data } = await admin.storage.from(privateBucket).download(key);
    expect(await data!.text()).toBe('alice secret');
  });

  it('updates, moves within, and removes their own objects', async () => {
    const key = `${bob.id}/draft.txt`;
    await upload(bob.client, privateBucket, key, 'draft one');
    const updated = await bob.client.storage.from(privateBucket).update(key, 'draft two');
    expect(updated.error).toBeNull();
    expect(await (await bob.client.storage.from(privateBucket).download(key)).data!.text()).toBe(
      'draft two',
    );
    const moved = await bob.client.storage.from(privateBucket).move(key, `${bob.id}/final.txt`);
    expect(moved.error).toBeNull();
    const removed = await bob.client.storage.from(privateBucket).remove([`${bob.id}/final.txt`]);
    expect(removed.error).toBeNull();
    expect((removed.data ?? []).map((entry) => entry.name)).toEqual([`${bob.id}/final.txt`]);
    expect(await objectRow(server, privateBucket, `${bob.id}/final.txt`)).toBeUndefined();
  });

  it('may not move their own object into a folder the policy forbids', async () => {
    const key = `${bob.id}/keep.txt`;
    await upload(bob.client, privateBucket, key, 'keep');
    const moved = await bob.client.storage.from(privateBucket).move(key, `${alice.id}/gift.txt`);
    expect(moved.data).toBeNull();
    expect((moved.error as { statusCode?: string }).statusCode).toMatch(/^(403|404)$/);
    expect(await objectRow(server, privateBucket, `${alice.id}/gift.txt`)).toBeUndefined();
    expect(await objectRow(server, privateBucket, key)).toBeDefined();
  });
});

describe('the anonymous caller', () => {
  it('cannot read, list, sign or upload in the private bucket', async () => {
    const key = `${alice.id}/secret.txt`;
    const download = await anon.storage.from(privateBucket).download(key);
    expectStorageError(download.error, { statusCode: '404', message: 'Object not found' });
    expect((await anon.storage.from(privateBucket).list(alice.id)).data).toEqual([]);
    expect((await anon.storage.from(privateBucket).list()).data).toEqual([]);
    const signed = await anon.storage.from(privateBucket).createSignedUrl(key, 60);
    expectStorageError(signed.error, { statusCode: '404', message: 'Object not found' });

    const blobsBefore = await blobNames(server);
    const uploaded = await anon.storage.from(privateBucket).upload('anon/x.txt', 'x');
    expectStorageError(uploaded.error, {
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    await expectNothingStored(server, privateBucket, blobsBefore, ['anon/x.txt']);
  });

  it('reads a public bucket without any policy, but may not write to it', async () => {
    await upload(alice.client, publicBucket, `${alice.id}/logo.txt`, 'public logo');
    const publicUrl = anon.storage.from(publicBucket).getPublicUrl(`${alice.id}/logo.txt`)
      .data.publicUrl;
    const response = await fetch(publicUrl);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('public logo');
    const viaClient = await anon.storage.from(publicBucket).download(`${alice.id}/logo.txt`);
    expect(viaClient.error).toBeNull();
    expect(await viaClient.data!.text()).toBe('public logo');

    const blobsBefore = await blobNames(server);
    const refused = await anon.storage.from(publicBucket).upload('anything.txt', 'x');
    expectStorageError(refused.error, {
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    await expectNothingStored(server, publicBucket, blobsBefore, ['anything.txt']);
  });

  it('uploads where an anon policy allows it, with no owner', async () => {
    const bytes = Buffer.from('dropped anonymously');
    await upload(anon, dropBucket, 'inbox/drop.txt', bytes);
    const row = (await objectRow(server, dropBucket, 'inbox/drop.txt'))!;
    expect({ owner: row.owner, owner_id: row.owner_id }).toEqual({ owner: null, owner_id: null });
    const { data } = await anon.storage.from(dropBucket).download('inbox/drop.txt');
    expect(sha256(await bytesOf(data!))).toBe(sha256(bytes));
    const outside = await anon.storage.from(dropBucket).upload('elsewhere/drop.txt', bytes);
    expectStorageError(outside.error, {
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    // Signed-in users have no policy on this bucket at all.
    const aliceRead = await alice.client.storage.from(dropBucket).download('inbox/drop.txt');
    expectStorageError(aliceRead.error, { statusCode: '404', message: 'Object not found' });
  });

  it('is refused with an invalid JWT', async () => {
    const forged = clientFor(server, { key: `${server.anonKey.slice(0, -4)}AAAA` });
    const { data, error } = await forged.storage.from(publicBucket).list();
    expect(data).toBeNull();
    expect((error as { status?: number }).status).toBe(400);
    expect((error as { statusCode?: string }).statusCode).toMatch(/^(400|403)$/);
  });
});

describe('buckets under RLS', () => {
  it('lists and gets only the buckets a policy shows; anon sees none', async () => {
    const listed = await alice.client.storage.listBuckets();
    expect(listed.error).toBeNull();
    // Only this file's buckets: the product's own buckets have policies of their own.
    const ours = [privateBucket, publicBucket, dropBucket, closedBucket];
    const mine = (ids: { id: string }[] | null) =>
      (ids ?? [])
        .map((bucket) => bucket.id)
        .filter((id) => ours.includes(id))
        .sort();
    expect(mine(listed.data)).toEqual([privateBucket, publicBucket].sort());
    expect((await alice.client.storage.getBucket(privateBucket)).data?.id).toBe(privateBucket);
    expectStorageError((await alice.client.storage.getBucket(closedBucket)).error, {
      statusCode: '404',
      message: 'Bucket not found',
    });
    const anonListed = await anon.storage.listBuckets();
    expect(anonListed.error).toBeNull();
    expect(mine(anonListed.data)).toEqual([]);
    const all = await admin.storage.listBuckets();
    expect(all.data!.map((bucket) => bucket.id)).toEqual(
      expect.arrayContaining([privateBucket, publicBucket, dropBucket, closedBucket]),
    );
  });

  it('refuses to create, update, empty or delete a bucket without a policy', async () => {
    const id = uniqueBucket('user-made');
    const created = await alice.client.storage.createBucket(id);
    expectStorageError(created.error, {
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    const { rows } = await server.db.query(`select 1 from storage.buckets where id = $1`, [id]);
    expect(rows).toEqual([]);

    const updated = await alice.client.storage.updateBucket(privateBucket, { public: true });
    expect(updated.data).toBeNull();
    expect((updated.error as { statusCode?: string }).statusCode).toMatch(/^(403|404)$/);
    expect((await admin.storage.getBucket(privateBucket)).data?.public).toBe(false);

    const deleted = await bob.client.storage.deleteBucket(closedBucket);
    expect(deleted.data).toBeNull();
    expect((deleted.error as { statusCode?: string }).statusCode).toMatch(/^(403|404)$/);
    expect((await admin.storage.getBucket(closedBucket)).data?.id).toBe(closedBucket);

    // Emptying is refused, or runs as Bob (who may delete only his own objects).
    const emptied = await bob.client.storage.emptyBucket(privateBucket);
    if (emptied.error) {
      expect((emptied.error as { statusCode?: string }).statusCode).toMatch(/^(403|404)$/);
    }
    expect(await objectRow(server, privateBucket, `${alice.id}/secret.txt`)).toBeDefined();
  });

  it('lets a user create a bucket when a policy allows it, owned by them', async () => {
    const id = uniqueBucket('alice-made');
    await server.db.query(
      `create policy "alice creates" on storage.buckets for insert to authenticated
       with check (id = '${id}' and auth.uid() = '${alice.id}'::uuid)`,
    );
    const created = await alice.client.storage.createBucket(id, { public: false });
    expect(created).toEqual({ data: { name: id }, error: null });
    const { data } = await admin.storage.getBucket(id);
    expect(data?.owner).toBe(alice.id);
    const { rows } = await server.db.query<{ owner_id: string }>(
      `select owner_id from storage.buckets where id = $1`,
      [id],
    );
    expect(rows[0]?.owner_id).toBe(alice.id);
  });
});

describe('the service role', () => {
  it('bypasses RLS: reads, lists and removes any object', async () => {
    await upload(bob.client, privateBucket, `${bob.id}/later.txt`, 'bob later');
    const { data } = await admin.storage.from(privateBucket).download(`${bob.id}/later.txt`);
    expect(await data!.text()).toBe('bob later');
    const secret = await admin.storage.from(privateBucket).download(`${alice.id}/secret.txt`);
    expect(await secret.data!.text()).toBe('alice secret');
    const listed = await admin.storage.from(privateBucket).list();
    expect(listed.data!.map((entry) => entry.name).sort()).toEqual([alice.id, bob.id].sort());
    await upload(admin, privateBucket, 'admin-only/x.txt', 'x');
    const removed = await admin.storage.from(privateBucket).remove(['admin-only/x.txt']);
    expect((removed.data ?? []).map((entry) => entry.name)).toEqual(['admin-only/x.txt']);
  });
});
