import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { StorageConfig } from '../config';
import {
  assertBlobKey,
  BLOB_KEY_PATTERN,
  BlobNotFoundError,
  type BlobStore,
  type ByteRange,
  type StagedFile,
} from './blob-store';

/** S3 accepts at most this many keys in one DeleteObjects request. */
const DELETE_BATCH = 1000;
/** The SDK never retries a streamed body (it cannot rewind it), so `put` retries itself. */
const PUT_ATTEMPTS = 3;
/** How many HeadObject requests `ownKeys` has in flight at once. */
const HEAD_CONCURRENCY = 8;
/**
 * User metadata (`x-amz-meta-cervana-blob`) set on every blob this store
 * writes, holding the blob's key. Only objects whose marker equals the key the
 * store derived from their name are its own: not another program's objects,
 * and not another deployment's blobs under a prefix that extends ours
 * (prefix `a`, theirs `a-b`: their `a-b<uuid>` reads to us as key `-b<uuid>`,
 * but carries the marker `<uuid>`).
 */
const MARKER = 'cervana-blob';

/**
 * Keeps blobs in an S3 bucket (AWS or an S3-compatible server such as MinIO or
 * R2) so that several server instances can share the bytes and the server's
 * disk only ever holds uploads in flight.
 *
 * Only whole-object operations are used: a single PutObject or CopyObject is
 * atomic on S3, which gives the "complete or absent" promise of `BlobStore`
 * without multipart bookkeeping (the price is S3's 5 GB single-request limit).
 * Checksums are sent and checked only where S3 requires them, because many
 * S3-compatible servers reject the SDK's newer default checksum headers.
 *
 * Blobs live under `prefix` (STORAGE_S3_PREFIX, empty by default, so that
 * the keys stored in `storage.objects.version` keep resolving), and `list`
 * reports only keys shaped like blob keys. The orphan sweep deletes only what
 * `ownKeys` confirms carries this store's marker, so other objects in a shared
 * bucket, at its root or under another prefix, are never touched, whatever
 * their names. Blobs written before the marker existed carry none and are
 * never swept (they are only ever orphans after a crash).
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';

  constructor(
    private readonly sdk: typeof S3Sdk,
    private readonly client: S3Sdk.S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
  ) {}

  async put(key: string, file: StagedFile): Promise<void> {
    try {
      const Key = this.objectKey(key);
      for (let attempt = 1; ; attempt++) {
        const Body = createReadStream(file.path);
        try {
          await this.client.send(
            new this.sdk.PutObjectCommand({
              Bucket: this.bucket,
              Key,
              Body,
              ContentLength: file.size,
              Metadata: { [MARKER]: key },
            }),
          );
          return;
        } catch (error) {
          if (attempt >= PUT_ATTEMPTS || !this.isTransient(error)) throw error;
        } finally {
          Body.destroy();
        }
        await sleep(250 * attempt);
      }
    } finally {
      await rm(file.path, { force: true });
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const { Body, ContentRange } = await this.client.send(
        new this.sdk.GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      // In Node the SDK's body is the HTTP response itself, a Readable.
      if (!(Body instanceof Readable)) throw new Error(`S3 returned no readable body for ${key}`);
      // The caller has already promised a Content-Length; a server that ignored or
      // widened the range (s3rver does for bytes=0-0) must not break that promise.
      if (range && !ContentRange?.startsWith(`bytes ${range.start}-${range.end}/`)) {
        Body.destroy();
        throw new Error(
          `S3 answered ${ContentRange ?? 'the whole blob'} for bytes ${range.start}-${range.end} of ${key}`,
        );
      }
      return Body;
    } catch (error) {
      throw this.isNotFound(error) ? new BlobNotFoundError(key) : error;
    }
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    const source = this.objectKey(fromKey);
    try {
      await this.client.send(
        new this.sdk.CopyObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(toKey),
          // A URL path: encode each segment, keep the slashes.
          CopySource: `${this.bucket}/${source.split('/').map(encodeURIComponent).join('/')}`,
          // The copy's marker names the copy's key, not the source's.
          MetadataDirective: 'REPLACE',
          Metadata: { [MARKER]: toKey },
        }),
      );
    } catch (error) {
      throw this.isNotFound(error) ? new BlobNotFoundError(fromKey) : error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    const objectKeys = keys.map((key) => this.objectKey(key));
    for (let start = 0; start < objectKeys.length; start += DELETE_BATCH) {
      const batch = objectKeys.slice(start, start + DELETE_BATCH);
      const { Errors } = await this.client.send(
        new this.sdk.DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      // DeleteObjects answers 200 even when some keys failed; missing keys are not failures.
      const failed = (Errors ?? []).filter((error) => error.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        const [first] = failed;
        throw new Error(
          `S3 could not delete ${failed.length} blob(s), first ${first?.Key}: ${first?.Code} ${first?.Message}`,
        );
      }
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(
        new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return true;
    } catch (error) {
      if (this.isNotFound(error)) return false;
      throw error;
    }
  }

  async *list(): AsyncIterable<{ key: string; modifiedAt: Date }> {
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new this.sdk.ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.prefix || undefined,
          ContinuationToken,
        }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.prefix.length);
        if (key === undefined || !BLOB_KEY_PATTERN.test(key)) continue;
        yield { key, modifiedAt: object.LastModified ?? new Date(0) };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async ownKeys(keys: readonly string[]): Promise<string[]> {
    const own: string[] = [];
    for (let start = 0; start < keys.length; start += HEAD_CONCURRENCY) {
      const batch = keys.slice(start, start + HEAD_CONCURRENCY);
      const marks = await Promise.all(batch.map((key) => this.markerOf(key)));
      batch.forEach((key, index) => {
        if (marks[index] === key) own.push(key);
      });
    }
    return own;
  }

  /** The marker on the object at `key`, if it exists and has one. */
  private async markerOf(key: string): Promise<string | undefined> {
    try {
      const { Metadata } = await this.client.send(
        new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return Metadata?.[MARKER];
    } catch (error) {
      if (this.isNotFound(error)) return undefined;
      throw error;
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private objectKey(key: string): string {
    assertBlobKey(key);
    return this.prefix + key;
  }

  private isNotFound(error: unknown): boolean {
    return (
      error instanceof this.sdk.S3ServiceException &&
      (error.$metadata.httpStatusCode === 404 ||
        error.name === 'NoSuchKey' ||
        error.name === 'NotFound')
    );
  }

  /** Network failures, throttling and server errors; never a request S3 refused. */
  private isTransient(error: unknown): boolean {
    if (!(error instanceof this.sdk.S3ServiceException)) return true;
    const status = error.$metadata.httpStatusCode ?? 0;
    return error.$fault === 'server' || status === 429 || status >= 500;
  }
}

/**
 * Opens the S3 store. The SDK is imported here, not at the top, so that
 * filesystem deployments never load it.
 */
export async function openS3BlobStore(config: StorageConfig['s3']): Promise<BlobStore> {
  if (!config.bucket) throw new Error('STORAGE_S3_BUCKET is required for the S3 blob store');
  const sdk = await import('@aws-sdk/client-s3');
  const client = new sdk.S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    // Without both keys the SDK's default chain applies (environment, profile, instance role).
    credentials:
      config.accessKeyId && config.secretAccessKey
        ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
        : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return new S3BlobStore(sdk, client, config.bucket, config.prefix);
}
