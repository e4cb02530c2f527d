import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context } from 'hono';
import type { StagedFile } from './blob-store';
import { StorageError, storageErrors } from './errors';

/**
 * Streams an upload's body into a temporary file, hashing and counting as it
 * goes, never holding the object in memory. A raw body is the object; a
 * multipart body (what supabase-js sends for a Blob, File or FormData) carries
 * the file part plus `cacheControl`, `metadata` and `contentEncoding` fields.
 * Limits are enforced while streaming; on any failure the temporary file is
 * removed before the error propagates.
 */

export interface UploadLimits {
  /** Largest accepted size in bytes. */
  maxBytes: number;
  /** Throws when the MIME type is not accepted by the bucket. */
  checkMimeType(mimeType: string): void;
}

export interface StagedUpload extends StagedFile {
  /** Hex MD5 of the bytes (the object's ETag, as S3 computes it for a single PUT). */
  md5: string;
  mimeType: string;
  /** `cache-control` to serve, e.g. `max-age=3600`. */
  cacheControl: string;
  contentEncoding: string | undefined;
  /** User metadata (x-metadata header or the `metadata` field), or undefined. */
  userMetadata: Record<string, unknown> | undefined;
}

class Meter extends Transform {
  readonly hash = createHash('md5');
  bytes = 0;
  constructor(private readonly maxBytes: number) {
    super({ highWaterMark: 256 * 1024 });
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      done(storageErrors.tooLarge());
      return;
    }
    this.hash.update(chunk);
    done(null, chunk);
  }
}

function requestStream(c: Context): Readable {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming) return incoming;
  const body = c.req.raw.body;
  return body ? Readable.fromWeb(body as never) : Readable.from([]);
}

async function writeStaged(
  source: Readable,
  tmpDir: string,
  maxBytes: number,
): Promise<{ path: string; size: number; md5: string }> {
  const file = path.join(tmpDir, `upload-${randomUUID()}`);
  const meter = new Meter(maxBytes);
  try {
    await pipeline(source, meter, createWriteStream(file, { mode: 0o600 }));
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  return { path: file, size: meter.bytes, md5: meter.hash.digest('hex') };
}

function parseUserMetadata(
  text: string | undefined,
  encoding: 'base64' | 'json',
): Record<string, unknown> | undefined {
  if (text === undefined || text === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(
      encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text,
    );
  } catch {
    throw storageErrors.invalidRequest('metadata must be a JSON object');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw storageErrors.invalidRequest('metadata must be a JSON object');
  }
  if (JSON.stringify(parsed).length > 64 * 1024) {
    throw storageErrors.invalidRequest('metadata must be at most 64 KB');
  }
  return parsed as Record<string, unknown>;
}

function cacheControlFrom(value: string | undefined): string {
  if (value === undefined || value === '') return 'max-age=3600';
  if (/^\d+$/.test(value)) return `max-age=${value}`;
  if (!/^[\x20-\x7e]{1,200}$/.test(value))
    throw storageErrors.invalidRequest('cache-control is invalid');
  return value;
}

/** The declared size, when the client sent one, so a too-large upload is refused before a byte is read. */
export function declaredLength(c: Context): number | undefined {
  const header = c.req.header('content-length');
  return header && /^\d+$/.test(header) ? Number(header) : undefined;
}

export async function stageUpload(
  c: Context,
  tmpDir: string,
  limits: UploadLimits,
): Promise<StagedUpload> {
  const contentType = c.req.header('content-type') ?? '';
  const isMultipart = contentType.toLowerCase().startsWith('multipart/form-data');
  const declared = declaredLength(c);
  if (declared !== undefined) {
    if (declared > limits.maxBytes + (isMultipart ? MULTIPART_OVERHEAD : 0)) {
      throw storageErrors.tooLarge();
    }
  }
  if (isMultipart) {
    return stageMultipart(c, tmpDir, limits);
  }
  const mimeType = contentType.trim() || 'application/octet-stream';
  limits.checkMimeType(mimeType);
  const userMetadata = parseUserMetadata(c.req.header('x-metadata'), 'base64');
  const cacheControl = cacheControlFrom(c.req.header('cache-control'));
  const staged = await writeStaged(requestStream(c), tmpDir, limits.maxBytes);
  return {
    ...staged,
    mimeType,
    cacheControl,
    contentEncoding: c.req.header('content-encoding'),
    userMetadata,
  };
}

/**
 * What a multipart body may carry besides the file: its fields (at most 20 of
 * 128 KB, busboy's limits below), part headers and boundaries. Past the file
 * limit plus this, the body is not read any further.
 */
const MULTIPART_OVERHEAD = 20 * 128 * 1024 + 512 * 1024;

function stageMultipart(c: Context, tmpDir: string, limits: UploadLimits): Promise<StagedUpload> {
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string>();
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: Object.fromEntries(c.req.raw.headers),
        limits: { files: 1, fields: 20, fieldSize: 128 * 1024, fileSize: limits.maxBytes },
      });
    } catch {
      reject(storageErrors.invalidRequest('The multipart body could not be read'));
      return;
    }
    let staging: Promise<{ path: string; size: number; md5: string; mimeType: string }> | undefined;
    let failed: unknown;
    const fail = (error: unknown) => {
      failed ??= error;
    };
    parser.on('field', (name, value) => fields.set(name, value));
    parser.on('file', (_name, stream, info) => {
      if (staging) {
        stream.resume();
        return;
      }
      const mimeType = info.mimeType || 'application/octet-stream';
      try {
        limits.checkMimeType(mimeType);
      } catch (error) {
        fail(error);
        stream.resume();
        return;
      }
      // Past the limit busboy stops writing the part; the rest of the body is not read.
      stream.on('limit', () => stopReading(storageErrors.tooLarge()));
      staging = writeStaged(stream, tmpDir, limits.maxBytes).then((file) => ({
        ...file,
        mimeType,
      }));
      staging.catch(fail);
    });
    parser.on('error', (error) => {
      fail(
        error instanceof StorageError
          ? error
          : storageErrors.invalidRequest('The multipart body could not be read'),
      );
    });
    parser.on('close', () => {
      void (async () => {
        const file = staging ? await staging.catch(() => undefined) : undefined;
        if (failed !== undefined || !file) {
          if (file) await rm(file.path, { force: true });
          reject(failed ?? storageErrors.invalidRequest('The upload has no file part'));
          return;
        }
        try {
          resolve({
            path: file.path,
            size: file.size,
            md5: file.md5,
            mimeType: file.mimeType,
            cacheControl: cacheControlFrom(
              fields.get('cacheControl') ?? c.req.header('cache-control'),
            ),
            contentEncoding: fields.get('contentEncoding') ?? c.req.header('content-encoding'),
            userMetadata:
              parseUserMetadata(fields.get('metadata'), 'json') ??
              parseUserMetadata(c.req.header('x-metadata'), 'base64'),
          });
        } catch (error) {
          await rm(file.path, { force: true });
          reject(error);
        }
      })();
    });
    const source = requestStream(c);
    // Counted as it streams: a body that goes on past the limit (a second file,
    // endless padding) is cut off rather than read and skipped to its end.
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.maxBytes + MULTIPART_OVERHEAD) stopReading(storageErrors.tooLarge());
    };
    let stopped = false;
    function stopReading(error: StorageError) {
      fail(error);
      if (stopped) return;
      stopped = true;
      source.off('data', count);
      source.unpipe(parser);
      source.pause();
      // Ends the form early: busboy reports the truncated body, then closes (the answer is `failed`).
      process.nextTick(() => parser.end());
    }
    source.on('data', count);
    source.on('error', (error) => parser.destroy(error));
    source.on('aborted', () => parser.destroy(new Error('request aborted')));
    source.pipe(parser);
  });
}
