import { Readable } from 'node:stream';
import type { Context } from 'hono';
import type { Transaction } from '../db/database';
import { BlobNotFoundError, type ByteRange } from './blob-store';
import { fromDatabaseError, storageErrors } from './errors';
import { baseName } from './names';
import { pipelineInRequestContext } from '../db/request-context';
import { requestContextOf, type Caller } from './caller';
import { callerFor, iso, SERVICE_CALLER, type StorageService } from './service';

/**
 * Reading objects: downloads (authenticated, public, signed), HEAD, and info.
 * The row is read as the caller (row-level security decides), the bytes are
 * streamed from the blob store outside the transaction. Answers carry ETag,
 * Last-Modified and Cache-Control, honour If-None-Match / If-Modified-Since
 * (304) and a single `Range` (206, or 416 when it cannot be satisfied).
 */

export interface ObjectRow {
  id: string;
  name: string;
  bucket_id: string;
  version: string | null;
  metadata: {
    eTag?: string;
    size?: number;
    mimetype?: string;
    cacheControl?: string;
    lastModified?: string;
    contentEncoding?: string;
  } | null;
  user_metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

const ROW = `id, name, bucket_id, version, metadata, user_metadata,
  ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at`;

export async function findObject(
  tx: Transaction,
  bucketId: string,
  key: string,
): Promise<ObjectRow> {
  const { rows } = await tx.query<ObjectRow>(
    `select ${ROW} from storage.objects where bucket_id = $1 and name = $2`,
    [bucketId, key],
  );
  if (!rows[0]) throw storageErrors.noSuchKey();
  return rows[0];
}

export type Access = 'caller' | 'public' | 'signed';

/** The object row, read as the caller, or (public bucket / checked token) without row-level security. */
export async function objectFor(
  service: StorageService,
  c: Context,
  access: Access,
  bucketId: string,
  key: string,
): Promise<ObjectRow> {
  if (access === 'public') {
    const { rows } = await service.db.query<{ public: boolean }>(
      `select public from storage.buckets where id = $1`,
      [bucketId],
    );
    if (rows[0]?.public !== true) throw storageErrors.noSuchBucket();
  }
  // The caller's token is checked even where the bucket is public.
  const caller = access === 'caller' ? await callerFor(service, c) : SERVICE_CALLER;
  const row = await readObject(service, c, caller, bucketId, key);
  if (row) return row;
  if (access === 'caller') {
    // Objects of a public bucket are anyone's to read, by any route (as Supabase does).
    const { rows } = await service.db.query<{ public: boolean }>(
      `select public from storage.buckets where id = $1`,
      [bucketId],
    );
    const hidden = rows[0]?.public
      ? await readObject(service, c, SERVICE_CALLER, bucketId, key)
      : undefined;
    if (hidden) return hidden;
  }
  throw storageErrors.noSuchKey();
}

/** One round trip: the caller's settings and the read go to the database together. */
async function readObject(
  service: StorageService,
  c: Context,
  caller: Caller,
  bucketId: string,
  key: string,
): Promise<ObjectRow | undefined> {
  let result;
  try {
    [result] = await pipelineInRequestContext(
      service.db,
      { ...requestContextOf(c, caller, service.trustProxy), readOnly: true },
      [
        {
          sql: `select ${ROW} from storage.objects where bucket_id = $1 and name = $2`,
          params: [bucketId, key],
        },
      ],
    );
  } catch (error) {
    throw fromDatabaseError(error) ?? error;
  }
  return result!.rows[0] as ObjectRow | undefined;
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` for one range; undefined = serve whole; null = unsatisfiable. */
export function parseRange(header: string | undefined, size: number): ByteRange | undefined | null {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined; // not a single byte range: ignore it
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return null;
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return null;
  return { start, end };
}

function contentDisposition(download: string, key: string): string {
  const filename = download === '' || download === 'true' ? baseName(key) : download;
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

function notModified(c: Context, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = c.req.header('if-none-match');
  if (ifNoneMatch !== undefined) {
    const tags = ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(etag);
  }
  const ifModifiedSince = c.req.header('if-modified-since');
  if (ifModifiedSince !== undefined) {
    const since = Date.parse(ifModifiedSince);
    return (
      !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000)
    );
  }
  return false;
}

/** The object's bytes (or, for HEAD, only its headers) as Storage serves them. */
export async function serveObject(
  service: StorageService,
  c: Context,
  row: ObjectRow,
  options: { head?: boolean } = {},
): Promise<Response> {
  const metadata = row.metadata ?? {};
  const size = metadata.size ?? 0;
  const etag = metadata.eTag ?? `"${row.version ?? row.id}"`;
  // The row's time, so the header and info().lastModified agree.
  const lastModified = new Date(row.updated_at);
  const headers: Record<string, string> = {
    'Content-Type': metadata.mimetype ?? 'application/octet-stream',
    'Cache-Control': metadata.cacheControl ?? 'no-cache',
    ETag: etag,
    'Last-Modified': lastModified.toUTCString(),
    'Accept-Ranges': 'bytes',
    // Uploaded HTML or SVG must never run as our origin's page.
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'X-Content-Type-Options': 'nosniff',
  };
  if (metadata.contentEncoding) headers['Content-Encoding'] = metadata.contentEncoding;
  const download = c.req.query('download');
  if (download !== undefined)
    headers['Content-Disposition'] = contentDisposition(download, row.name);

  if (notModified(c, etag, lastModified)) return c.body(null, 304, headers);

  const range = parseRange(c.req.header('range'), size);
  if (range === null) {
    return c.body(JSON.stringify(storageErrors.invalidRange().toJSON()), 416, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Range': `bytes */${size}`,
    });
  }
  const length = range ? range.end - range.start + 1 : size;
  headers['Content-Length'] = String(length);
  if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
  const status = range ? 206 : 200;
  if (options.head || c.req.method === 'HEAD') return c.body(null, status, headers);
  if (!row.version) throw storageErrors.noSuchKey();
  let stream: Readable;
  try {
    stream = await service.store.get(row.version, range ?? undefined);
  } catch (error) {
    if (error instanceof BlobNotFoundError) {
      service.logger.error({ bucket: row.bucket_id, key: row.name }, 'storage: a row has no blob');
      throw storageErrors.noSuchKey();
    }
    throw error;
  }
  return new Response(Readable.toWeb(stream) as ReadableStream, { status, headers });
}

/** `GET /object/info/...`: the object's facts as JSON (the client camel-cases them). */
export function objectInfo(c: Context, row: ObjectRow): Response {
  const metadata = row.metadata ?? {};
  return c.json({
    id: row.id,
    name: row.name,
    version: row.version,
    bucket_id: row.bucket_id,
    size: metadata.size ?? 0,
    content_type: metadata.mimetype ?? 'application/octet-stream',
    cache_control: metadata.cacheControl ?? 'no-cache',
    etag: metadata.eTag ?? null,
    metadata: row.user_metadata ?? {},
    last_modified: row.updated_at,
    created_at: row.created_at,
  });
}
