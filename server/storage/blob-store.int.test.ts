import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorageConfig } from '../config';
import { BlobNotFoundError, type BlobStore, type StagedFile } from './blob-store';
import { FsBlobStore } from './fs-store';
import { openS3BlobStore } from './s3-store';
import { startS3rver } from '../testing/s3rver';

/**
 * One suite of behaviours, run against every blob store: the filesystem store,
 * the S3 store against s3rver (an S3 server in this process, so the S3 half
 * always runs), and the S3 store against a real S3-compatible server when
 * STORAGE_TEST_S3_* say where one is (s3rver does not check what real servers
 * check, such as signatures and checksums): ENDPOINT, BUCKET, ACCESS_KEY_ID,
 * SECRET_ACCESS_KEY, and optionally REGION and FORCE_PATH_STYLE=false.
 */

interface Target {
  store: BlobStore;
  /** Where to stage uploads for `store` (the filesystem store renames from here). */
  stagingDir: string;
  /** A store of the same kind whose every write fails, with its own staging folder. */
  broken: { store: BlobStore; stagingDir: string };
  cleanup(): Promise<void>;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function stage(dir: string, bytes: Buffer): Promise<StagedFile> {
  const file = path.join(dir, `staged-${randomUUID()}`);
  await writeFile(file, bytes);
  return { path: file, size: bytes.length };
}

const newKey = (): string => randomUUID();
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** Known faults of a test server that the store is expected to catch. */
interface Quirks {
  /** s3rver answers `Range: bytes=0-0` with the whole blob. */
  widensFirstByteRange?: boolean;
}

function describeBlobStore(name: string, open: () => Promise<Target>, quirks: Quirks = {}): void {
  describe(name, () => {
    let target: Target;
    let store: BlobStore;

    /** Stages `bytes` and puts them under a new key. */
    async function putNew(bytes: Buffer): Promise<string> {
      const key = newKey();
      await store.put(key, await stage(target.stagingDir, bytes));
      return key;
    }

    beforeAll(async () => {
      target = await open();
      store = target.store;
    });
    afterAll(async () => {
      await target?.cleanup();
    });

    it('returns the bytes it was given', async () => {
      const bytes = randomBytes(100_000);
      const key = await putNew(bytes);
      expect((await readAll(await store.get(key))).equals(bytes)).toBe(true);
    });

    it('returns inclusive byte ranges', async () => {
      const bytes = randomBytes(10_000);
      const key = await putNew(bytes);
      const cases = [
        { start: 1, end: 1 },
        { start: 1000, end: 1999 },
        { start: 9999, end: 9999 },
        { start: 0, end: 9999 },
        { start: 0, end: 4999 },
      ];
      for (const range of cases) {
        const got = await readAll(await store.get(key, range));
        expect(got.length, `${range.start}-${range.end}`).toBe(range.end - range.start + 1);
        expect(got.equals(bytes.subarray(range.start, range.end + 1))).toBe(true);
      }
    });

    it('returns the first byte alone', async () => {
      const bytes = randomBytes(10_000);
      const key = await putNew(bytes);
      const got = store.get(key, { start: 0, end: 0 });
      if (quirks.widensFirstByteRange) {
        // Refusing beats sending 10,000 bytes where one was promised.
        await expect(got).rejects.toThrow(/answered bytes 0-9999\/10000 for bytes 0-0/);
        return;
      }
      expect([...(await readAll(await got))]).toEqual([bytes[0]]);
    });

    it('keeps other blobs when putting a new one', async () => {
      const first = randomBytes(5000);
      const second = randomBytes(7000);
      const firstKey = await putNew(first);
      const secondKey = await putNew(second);
      expect((await readAll(await store.get(firstKey))).equals(first)).toBe(true);
      expect((await readAll(await store.get(secondKey))).equals(second)).toBe(true);
    });

    it('removes the staged file after a put', async () => {
      const staged = await stage(target.stagingDir, randomBytes(1000));
      await store.put(newKey(), staged);
      expect(existsSync(staged.path)).toBe(false);
    });

    it('removes the staged file after a put that failed', async () => {
      const { broken } = target;
      const staged = await stage(broken.stagingDir, randomBytes(1000));
      await expect(broken.store.put(newKey(), staged)).rejects.toThrow();
      expect(existsSync(staged.path)).toBe(false);
    });

    it('rejects a missing key with BlobNotFoundError', async () => {
      const key = newKey();
      await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(store.get(key, { start: 0, end: 10 })).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('copies a blob to a new key and keeps the source', async () => {
      const bytes = randomBytes(50_000);
      const from = await putNew(bytes);
      const to = newKey();
      await store.copy(from, to);
      expect((await readAll(await store.get(to))).equals(bytes)).toBe(true);
      expect((await readAll(await store.get(from))).equals(bytes)).toBe(true);
      await expect(store.copy(newKey(), newKey())).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('deletes many blobs, missing ones included', async () => {
      const doomed = [await putNew(randomBytes(10)), await putNew(randomBytes(10))];
      const kept = await putNew(randomBytes(10));
      // More than one S3 DeleteObjects batch (1000 keys).
      const missing = Array.from({ length: 1200 }, newKey);
      await store.delete([...missing.slice(0, 600), ...doomed, ...missing.slice(600)]);
      for (const key of doomed) {
        expect(await store.exists(key)).toBe(false);
        await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
      }
      expect(await store.exists(kept)).toBe(true);
      await store.delete([]);
      await store.delete(doomed);
    });

    it('tells whether a blob exists', async () => {
      const key = await putNew(randomBytes(10));
      expect(await store.exists(key)).toBe(true);
      expect(await store.exists(newKey())).toBe(false);
    });

    it('lists the keys it holds, with their modification time', async () => {
      const keys = [await putNew(randomBytes(10)), await putNew(randomBytes(10))];
      const listed = new Map<string, Date>();
      for await (const { key, modifiedAt } of store.list()) listed.set(key, modifiedAt);
      for (const key of keys) {
        const modifiedAt = listed.get(key);
        expect(modifiedAt, key).toBeInstanceOf(Date);
        expect(Math.abs(Date.now() - (modifiedAt?.getTime() ?? 0))).toBeLessThan(10 * 60_000);
      }
      await store.delete(keys);
      const after: string[] = [];
      for await (const { key } of store.list()) after.push(key);
      expect(after).not.toContain(keys[0]);
      expect(after).not.toContain(keys[1]);
    });

    it('knows the blobs it wrote as its own, copies included', async () => {
      const key = await putNew(randomBytes(10));
      const copied = newKey();
      await store.copy(key, copied);
      expect(await store.ownKeys([key, copied])).toEqual([key, copied]);
      expect(await store.ownKeys([])).toEqual([]);
      await store.delete([key, copied]);
    });

    describe('refuses invalid keys', () => {
      const badKeys = ['../x', 'a/b', '', 'ABCDEF0123', '../0123456789', '0123abcd/0123abcd'];
      const refused = /invalid blob key/;

      it('to get', async () => {
        for (const bad of badKeys) await expect(store.get(bad), bad).rejects.toThrow(refused);
      });

      it('to put, and removes the staged file', async () => {
        for (const bad of badKeys) {
          const staged = await stage(target.stagingDir, randomBytes(10));
          await expect(store.put(bad, staged), bad).rejects.toThrow(refused);
          expect(existsSync(staged.path), bad).toBe(false);
        }
      });

      it('to copy, on either side', async () => {
        const good = await putNew(randomBytes(10));
        for (const bad of badKeys) {
          await expect(store.copy(bad, newKey()), bad).rejects.toThrow(refused);
          await expect(store.copy(good, bad), bad).rejects.toThrow(refused);
        }
      });

      it('to exists', async () => {
        for (const bad of badKeys) await expect(store.exists(bad), bad).rejects.toThrow(refused);
      });

      it('to delete, deleting nothing of that batch', async () => {
        const good = await putNew(randomBytes(10));
        for (const bad of badKeys) {
          await expect(store.delete([good, bad]), bad).rejects.toThrow(refused);
        }
        expect(await store.exists(good)).toBe(true);
      });
    });

    it('round-trips a 20 MB blob byte for byte', async () => {
      const bytes = randomBytes(20 * 1024 * 1024);
      const key = await putNew(bytes);
      const got = await readAll(await store.get(key));
      expect(got.length).toBe(bytes.length);
      expect(sha256(got)).toBe(sha256(bytes));
    });
  });
}

describeBlobStore('filesystem blob store', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cervana-blobs-'));
  const store = await new FsBlobStore(path.join(dir, 'store')).open();
  // A store whose blob folder is a file: every put fails.
  const brokenDir = path.join(dir, 'broken');
  await mkdir(path.join(brokenDir, 'tmp'), { recursive: true });
  await writeFile(path.join(brokenDir, 'blobs'), 'not a folder');
  return {
    store,
    stagingDir: store.tmpDir,
    broken: { store: new FsBlobStore(brokenDir), stagingDir: path.join(brokenDir, 'tmp') },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

/** The S3 store on `s3`, under a fresh prefix so runs never see each other's blobs. */
async function openS3Target(
  s3: Omit<StorageConfig['s3'], 'prefix'>,
  cleanup: () => Promise<void>,
): Promise<Target> {
  const prefix = `cervana-test-${randomUUID()}/`;
  const store = await openS3BlobStore({ ...s3, prefix });
  const broken = await openS3BlobStore({ ...s3, prefix, bucket: `missing-${randomUUID()}` });
  const stagingDir = await mkdtemp(path.join(tmpdir(), 'cervana-s3-staging-'));
  return {
    store,
    stagingDir,
    broken: { store: broken, stagingDir },
    cleanup: async () => {
      const keys: string[] = [];
      for await (const { key } of store.list()) keys.push(key);
      await store.delete(keys);
      await store.close?.();
      await broken.close?.();
      await rm(stagingDir, { recursive: true, force: true });
      await cleanup();
    },
  };
}

describeBlobStore(
  'S3 blob store (s3rver)',
  async () => {
    const s3 = await startS3rver();
    return openS3Target(
      {
        bucket: s3.bucket,
        region: 'us-east-1',
        endpoint: s3.endpoint,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
        forcePathStyle: true,
      },
      () => s3.close(),
    );
  },
  { widensFirstByteRange: true },
);

const external = process.env.STORAGE_TEST_S3_ENDPOINT;
describe.skipIf(!external)('with STORAGE_TEST_S3_ENDPOINT', () => {
  describeBlobStore(`S3 blob store (${external ?? 'unset'})`, () =>
    openS3Target(
      {
        bucket: process.env.STORAGE_TEST_S3_BUCKET ?? 'cervana-test',
        region: process.env.STORAGE_TEST_S3_REGION ?? 'us-east-1',
        endpoint: external,
        accessKeyId: process.env.STORAGE_TEST_S3_ACCESS_KEY_ID,
        secretAccessKey: process.env.STORAGE_TEST_S3_SECRET_ACCESS_KEY,
        forcePathStyle: process.env.STORAGE_TEST_S3_FORCE_PATH_STYLE !== 'false',
      },
      async () => {},
    ),
  );
});
