import type { Readable } from 'node:stream';

/**
 * Where object bytes live. Rows in `storage.objects` say which objects exist;
 * a blob store only keeps bytes under opaque keys that the storage service
 * chooses (one new key per upload, never an object's name), so no key a
 * client sends ever becomes a file path or an S3 key.
 *
 * Every upload is first staged to a local temporary file (hashing it and
 * enforcing limits as it streams); `put` then moves that file in as a whole:
 * a key holds either the complete blob or nothing.
 */

/** A finished upload in a local temporary file, not yet in the store. */
export interface StagedFile {
  /** Absolute path of the temporary file (under the staging folder). */
  path: string;
  size: number;
}

/** An inclusive byte range, as in `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobStore {
  readonly kind: 'fs' | 's3';
  /**
   * Moves a staged file in as `key`, durably: once this resolves the blob
   * survives a crash. The staged file is gone afterwards (moved or deleted).
   */
  put(key: string, file: StagedFile): Promise<void>;
  /**
   * The blob's bytes, whole or the inclusive range (which must lie inside the
   * blob). Rejects with `BlobNotFoundError` when missing.
   */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Copies a blob to a new key (the copy is complete or absent, as with put). */
  copy(fromKey: string, toKey: string): Promise<void>;
  /** Deletes blobs; missing keys are not an error; a batch with an invalid key deletes nothing. */
  delete(keys: readonly string[]): Promise<void>;
  /** Whether a blob exists. */
  exists(key: string): Promise<boolean>;
  /**
   * Every key in the store with its last-modified time (for the orphan sweep).
   * In a place shared with others (an S3 bucket) this may include keys the
   * store did not write: pass them through `ownKeys` before deleting any.
   */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
  /**
   * Of these listed keys, the ones this store wrote itself (a blob another
   * program or another deployment put in a shared bucket is never among
   * them); only these may be swept.
   */
  ownKeys(keys: readonly string[]): Promise<string[]>;
  close?(): Promise<void>;
}

export class BlobNotFoundError extends Error {
  override name = 'BlobNotFoundError';
  constructor(readonly key: string) {
    super(`blob ${key} not found`);
  }
}

/** Blob keys are made by the service: lower-case hex and dashes (UUIDs), no folders. */
export const BLOB_KEY_PATTERN = /^[0-9a-f-]{8,64}$/;

export function assertBlobKey(key: string): void {
  if (!BLOB_KEY_PATTERN.test(key)) throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
}
