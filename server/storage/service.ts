import type { Context } from 'hono';
import type { StorageConfig } from '../config';
import type { Database, Transaction } from '../db/database';
import { withRequestContext } from '../db/request-context';
import type { KeyRing } from '../keys/key-ring';
import type { Logger } from '../logger';
import type { BlobStore } from './blob-store';
import { callerOf, requestContextOf, type Caller } from './caller';
import { fromDatabaseError, storageErrors } from './errors';
import type { Renderer } from './render';
import type { TrustProxy } from '../http/client-ip';

/** What every storage handler needs: the database, the blob store, the keys. */
export interface StorageService {
  db: Database;
  store: BlobStore;
  ring: KeyRing;
  config: StorageConfig;
  logger: Logger;
  /** Where uploads are staged (local disk, even with the S3 store). */
  tmpDir: string;
  /** Image transformations: render processes, their queue, cache and counts. */
  renderer: Renderer;
  /** Whether a trusted proxy's X-Forwarded-For gives the caller's address (TRUST_PROXY). */
  trustProxy?: TrustProxy;
}

/** The service role, for work done after a signed token was checked (as Supabase does). */
export const SERVICE_CALLER: Caller = {
  role: 'service_role',
  claims: { role: 'service_role' },
  owner: undefined,
};

/**
 * Runs `work` in one transaction as the caller, so row-level security on
 * storage.buckets and storage.objects decides; database refusals come back
 * as Storage's errors (42501 -> AccessDenied, and so on).
 */
export async function asCaller<T>(
  service: StorageService,
  c: Context,
  caller: Caller,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  try {
    return await withRequestContext(
      service.db,
      requestContextOf(c, caller, service.trustProxy),
      work,
    );
  } catch (error) {
    throw fromDatabaseError(error) ?? error;
  }
}

export async function callerFor(service: StorageService, c: Context): Promise<Caller> {
  return callerOf(c, service.ring);
}

/** ISO-8601 UTC with milliseconds, as Storage's JSON has it. */
export const iso = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface BucketRow {
  id: string;
  name: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
}

/** A bucket's limits, read without row-level security (uploads need them whoever asks). */
export async function bucketForUpload(
  service: StorageService,
  bucketId: string,
): Promise<BucketRow> {
  const { rows } = await service.db.query<BucketRow>(
    `select id, name, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1`,
    [bucketId],
  );
  if (!rows[0]) throw storageErrors.noSuchBucket();
  return rows[0];
}

/** Whether `mimeType` is allowed by a bucket's list (`image/*` and `*\/*` wildcards). */
export function mimeTypeAllowed(allowed: readonly string[] | null, mimeType: string): boolean {
  if (!allowed || allowed.length === 0) return true;
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  const [major] = type.split('/');
  return allowed.some((pattern) => {
    const wanted = pattern.trim().toLowerCase();
    return wanted === type || wanted === '*/*' || wanted === '*' || wanted === `${major}/*`;
  });
}

/** The upload limits for a bucket: its own size limit (or the server's) and MIME list. */
export function limitsFor(service: StorageService, bucket: BucketRow) {
  return {
    maxBytes: Math.min(bucket.file_size_limit ?? Infinity, service.config.fileSizeLimit),
    checkMimeType(mimeType: string) {
      if (!mimeTypeAllowed(bucket.allowed_mime_types, mimeType)) {
        throw storageErrors.mimeType(mimeType.split(';')[0]!.trim());
      }
    },
  };
}

/** Deletes blobs that rows no longer point to; a failure only leaves work for the sweep. */
export async function deleteBlobsLater(service: StorageService, versions: (string | null)[]) {
  const keys = versions.filter((version): version is string => typeof version === 'string');
  if (keys.length === 0) return;
  try {
    await service.store.delete(keys);
  } catch (error) {
    service.logger.warn({ err: error, count: keys.length }, 'storage: blobs left for the sweep');
  }
}
