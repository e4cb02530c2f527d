import type { Readable } from 'node:stream';
import type { Context } from 'hono';
import { z } from 'zod';
import type { StorageConfig } from '../config';
import { clientIp, networkOf } from '../http/client-ip';
import type { Logger } from '../logger';
import { BlobNotFoundError } from './blob-store';
import type { Access, ObjectRow } from './download';
import { StorageError, storageErrors } from './errors';
import { RenderCache, RenderInFlight, RenderRateLimiter } from './render-limits';
import {
  RenderAbortedError,
  RenderBusyError,
  RenderFailedError,
  RenderPool,
  RenderRefusedError,
  RenderTimeoutError,
  type RenderJob,
  type RenderPoolOptions,
} from './render-pool';
import { callerFor, type StorageService } from './service';

/**
 * Image transformations (`/render/image/...`), as Supabase Storage offers
 * them: width, height, resize (cover, contain, fill), quality and format,
 * with the same limits and the `x-transformations` header naming what was
 * applied (imgproxy's words).
 *
 * Rendering is the most expensive thing a caller can ask for, so it is
 * bounded (security issue 24): only objects stored as PNG, JPEG, WebP, AVIF
 * or GIF whose bytes are that format are rendered (never SVG); at most
 * 25 megapixels in and 2,500 px a side out, the first frame of an animation
 * only; each render in a child process of its own (render-pool.ts) with a
 * deadline, stopped when the client leaves; a few at once and a short queue,
 * then 503; per user or client network, at most two renders at once (running
 * or queued) and a number of renders a minute, then 429; and results cached,
 * so the same thumbnail is rendered once.
 *
 * A render request has one deadline, from the moment it has its slot:
 * reading the source, starting a render process and rendering all fit in it,
 * so a slot is held at most that long (and the queue wait and Retry-After,
 * which assume as much, hold). A render counts against the per-minute limit
 * once it has a slot: a request refused with 503 (or 429 for too many at
 * once) costs the caller nothing. HEAD is answered like GET: from the cache
 * when the result is there (free), else by rendering it (counted once, and
 * cached, so the GET that follows is free).
 */

export interface Transform {
  width?: number;
  height?: number;
  resize?: 'cover' | 'contain' | 'fill';
  quality?: number;
  format?: 'origin' | 'avif' | 'webp';
}

/** The largest source image we transform (Supabase's limit is 25 MB). */
const MAX_SOURCE_BYTES = 25 * 1000 * 1000;
/** The most pixels a source may have (10,000 × 10,000 was 3.3 GB and minutes of CPU). */
export const MAX_INPUT_PIXELS = 25_000_000;
/** The longest side of a result, with or without a requested size. */
export const MAX_OUTPUT_SIDE = 2500;

const dimension = z.coerce
  .number()
  .int()
  .min(1)
  .transform((value) => Math.min(value, MAX_OUTPUT_SIDE));

export const transformSchema = z.object({
  width: dimension.optional(),
  height: dimension.optional(),
  resize: z.enum(['cover', 'contain', 'fill']).optional(),
  quality: z.coerce.number().int().min(20).max(100).optional(),
  format: z.enum(['origin', 'avif', 'webp']).optional(),
});

export function parseTransform(value: unknown): Transform {
  const parsed = transformSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw storageErrors.invalidRequest(`${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export function hasTransform(transform: Transform): boolean {
  return Object.values(transform).some((value) => value !== undefined);
}

const RESIZING_TYPES = { cover: 'fill', contain: 'fit', fill: 'force' } as const;

/** The `x-transformations` header and signed-token claim: `height:200,width:200,resizing_type:fill,quality:60`. */
export function describeTransform(transform: Transform): string {
  const segments: string[] = [];
  if (transform.height) segments.push(`height:${transform.height}`);
  if (transform.width) segments.push(`width:${transform.width}`);
  if (transform.width || transform.height) {
    segments.push(`resizing_type:${RESIZING_TYPES[transform.resize ?? 'cover']}`);
  }
  if (transform.quality) segments.push(`quality:${transform.quality}`);
  if (transform.format && transform.format !== 'origin')
    segments.push(`format:${transform.format}`);
  return segments.join(',');
}

/** The inverse, for a signed token's claim. */
export function transformFromDescription(text: string): Transform {
  const values: Record<string, string> = {};
  for (const segment of text.split(',')) {
    const [name, value] = segment.split(':');
    if (name && value) values[name] = value;
  }
  const resize = Object.entries(RESIZING_TYPES).find(
    ([, type]) => type === values.resizing_type,
  )?.[0];
  return parseTransform({ ...values, resize, resizing_type: undefined });
}

/** The formats we render, by stored content type, and what their bytes start with. */
const RENDERABLE = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
} as const;
type Renderable = (typeof RENDERABLE)[keyof typeof RENDERABLE];

const AVIF_BRANDS = new Set(['avif', 'avis']);

/** The format the bytes say they are (magic numbers), if it is one we render. */
export function sniffImage(bytes: Uint8Array): Renderable | undefined {
  const ascii = (start: number, end: number) =>
    String.fromCharCode(...bytes.subarray(start, Math.min(end, bytes.length)));
  if (
    bytes.length >= 8 &&
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, index) => bytes[index] === byte)
  ) {
    return 'png';
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return 'jpeg';
  }
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (bytes.length >= 16 && ascii(4, 8) === 'ftyp') {
    // An ISO media file: AVIF when its major or a compatible brand says so.
    const boxSize = Math.min(
      ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0,
      bytes.length,
      1024,
    );
    const brands = [ascii(8, 12)];
    for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(at, at + 4));
    if (brands.some((brand) => AVIF_BRANDS.has(brand))) return 'avif';
  }
  return undefined;
}

/** The stored content type as one of ours, or undefined (SVG, text, anything else). */
function declaredFormat(row: ObjectRow): Renderable | undefined {
  const type = (row.metadata?.mimetype ?? '').split(';')[0]!.trim().toLowerCase();
  return Object.hasOwn(RENDERABLE, type) ? RENDERABLE[type as keyof typeof RENDERABLE] : undefined;
}

const notAnImage = () =>
  new StorageError(
    422,
    'InvalidRequest',
    'The object is not an image that can be transformed',
    'Invalid Input',
  );
const tooManyPixels = () =>
  new StorageError(
    413,
    'EntityTooLarge',
    `The image is too large to transform (${MAX_INPUT_PIXELS / 1_000_000} megapixels at most)`,
    'Payload too large',
  );
const tooLong = () =>
  new StorageError(422, 'InvalidRequest', 'The image took too long to transform', 'Invalid Input');
const renderFailed = () =>
  new StorageError(500, 'InternalError', 'The image could not be transformed', 'Internal');

/** The renderer of one server: its processes, its cache and its counts. */
export interface Renderer {
  pool: RenderPool;
  cache: RenderCache | undefined;
  limiter: RenderRateLimiter;
  inFlight: RenderInFlight;
  timeoutMs: number;
  close(): Promise<void>;
}

export function createRenderer(
  config: StorageConfig['render'],
  logger: Logger,
  /** Test-only pool options (a missing Node.js binary, a worker of their own). */
  testing: Pick<RenderPoolOptions, 'execPath' | 'workerFile'> = {},
): Renderer {
  const pool = new RenderPool({
    concurrency: config.concurrency,
    queue: config.queue,
    timeoutMs: config.timeoutMs,
    logger,
    ...testing,
  });
  return {
    pool,
    cache: config.cacheBytes > 0 ? new RenderCache(config.cacheBytes) : undefined,
    limiter: new RenderRateLimiter(config.perMinute),
    inFlight: new RenderInFlight(config.perCaller),
    timeoutMs: config.timeoutMs,
    close: () => pool.close(),
  };
}

/** Who a render counts against: a signed-in user, else the client's network; none for the service role. */
async function rateLimitKey(
  service: StorageService,
  c: Context,
  access: Access,
): Promise<string | undefined> {
  if (access === 'caller') {
    const caller = await callerFor(service, c);
    if (caller.role === 'service_role') return undefined;
    if (caller.role === 'authenticated' && caller.owner) return `user:${caller.owner}`;
  }
  return `network:${networkOf(clientIp(c, service.trustProxy ?? false))}`;
}

/** A refusal that tells the client when to come back (a real 429 or 503, in Storage's shape). */
function retryLater(c: Context, status: 429 | 503, seconds: number, message: string): Response {
  const error = new StorageError(
    status,
    'SlowDown',
    message,
    status === 429 ? 'Too Many Requests' : 'Service Unavailable',
    status,
  );
  return c.body(JSON.stringify(error.toJSON()), status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Retry-After': String(seconds),
  });
}

/**
 * The whole blob, at most `limit` bytes. Reading is given up when the client
 * leaves or the render's time limit passes (a stalled store must not hold a
 * render slot either).
 */
async function readSource(
  open: () => Promise<Readable>,
  limit: number,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Buffer> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const stop = AbortSignal.any([signal, deadline]);
  const stopped = () =>
    deadline.aborted && !signal.aborted
      ? new RenderTimeoutError('reading the image took too long')
      : new RenderAbortedError('the client left');
  let onStop: (() => void) | undefined;
  const stopping = new Promise<never>((_, reject) => {
    onStop = () => reject(stopped());
    stop.addEventListener('abort', onStop, { once: true });
  });
  stopping.catch(() => {});
  let stream: Readable | undefined;
  try {
    if (stop.aborted) throw stopped();
    const opening = open();
    // A stream that opens after we gave up is closed at once.
    opening.then(
      (late) => stop.aborted && late.destroy(),
      () => {},
    );
    stream = await Promise.race([opening, stopping]);
    const chunks: Buffer[] = [];
    let size = 0;
    const reading = (async () => {
      for await (const chunk of stream) {
        const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        size += buffer.length;
        if (size > limit) throw storageErrors.tooLarge();
        chunks.push(buffer);
      }
    })();
    reading.catch(() => {});
    await Promise.race([reading, stopping]);
    return Buffer.concat(chunks, size);
  } catch (error) {
    if (error instanceof BlobNotFoundError) throw storageErrors.noSuchKey();
    throw error;
  } finally {
    if (onStop) stop.removeEventListener('abort', onStop);
    stream?.destroy();
  }
}

/** The transformed image as a response, within the limits above. */
export async function renderImage(
  service: StorageService,
  c: Context,
  row: ObjectRow,
  access: Access,
  transform: Transform,
): Promise<Response> {
  const { renderer } = service;
  if ((row.metadata?.size ?? 0) > MAX_SOURCE_BYTES) {
    throw new StorageError(
      413,
      'EntityTooLarge',
      'The image is too large to transform (25 MB at most)',
      'Payload too large',
    );
  }
  const declared = declaredFormat(row);
  if (!declared || !row.version) throw notAnImage();

  const accepts = c.req.header('accept') ?? '';
  const output: RenderJob['output'] =
    transform.format === 'avif' || transform.format === 'webp'
      ? transform.format
      : transform.format === undefined && /image\/webp/.test(accepts)
        ? 'webp'
        : undefined;
  const headers = (data: Uint8Array, contentType: string, cache: 'hit' | 'miss') => ({
    'Content-Type': contentType,
    'Content-Length': String(data.byteLength),
    'Cache-Control': row.metadata?.cacheControl ?? 'no-cache',
    'X-Transformations': describeTransform(transform),
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'X-Content-Type-Options': 'nosniff',
    'X-Cervana-Render-Cache': cache,
    ...(transform.format === undefined ? { Vary: 'Accept' } : {}),
  });
  // The blob's key is new for every upload, so a changed object is a new key.
  const cacheKey = JSON.stringify([
    row.bucket_id,
    row.name,
    row.id,
    row.version,
    row.metadata?.eTag ?? null,
    row.updated_at,
    declared,
    describeTransform(transform),
    output ?? 'origin',
  ]);
  const cached = renderer.cache?.get(cacheKey);
  if (cached) {
    return c.body(
      cached.data as Uint8Array<ArrayBuffer>,
      200,
      headers(cached.data, cached.contentType, 'hit'),
    );
  }

  const key = await rateLimitKey(service, c, access);
  const wait = key === undefined ? undefined : renderer.limiter.check(key);
  if (wait !== undefined) {
    return retryLater(c, 429, wait, 'Too many image transformations; try again later');
  }
  const renderSeconds = Math.max(1, Math.ceil(renderer.timeoutMs / 1000));
  if (key !== undefined && !renderer.inFlight.enter(key)) {
    return retryLater(
      c,
      429,
      renderSeconds,
      'Too many image transformations at once; try again shortly',
    );
  }
  const busy = () =>
    retryLater(c, 503, renderSeconds, 'Too many images are being transformed; try again shortly');

  const signal = c.req.raw.signal;
  let slot;
  try {
    try {
      slot = await renderer.pool.acquire(signal);
    } catch (error) {
      if (error instanceof RenderBusyError) return busy();
      throw renderError(error);
    }
    // Counted now that it renders (another request of the same caller may
    // have taken the last one since the check above).
    const refused = key === undefined ? undefined : renderer.limiter.take(key);
    if (refused !== undefined) {
      await slot.release();
      return retryLater(c, 429, refused, 'Too many image transformations; try again later');
    }
    // One deadline for reading, starting a render process and rendering.
    const deadline = Date.now() + renderer.timeoutMs;
    try {
      const version = row.version;
      const source = await readSource(
        () => service.store.get(version),
        MAX_SOURCE_BYTES,
        signal,
        Math.max(0, deadline - Date.now()),
      );
      // The bytes must be the format the object was stored as (SVG, or anything
      // else labelled as an image, never reaches the decoder).
      if (sniffImage(source) !== declared) throw notAnImage();
      const result = await slot.render(
        {
          input: source,
          format: declared === 'avif' ? 'heif' : declared,
          maxPixels: MAX_INPUT_PIXELS,
          maxSide: MAX_OUTPUT_SIDE,
          width: transform.width,
          height: transform.height,
          fit: SHARP_FIT[transform.resize ?? 'cover'],
          quality: transform.quality ?? 80,
          output,
        },
        signal,
        deadline,
      );
      const contentType = `image/${result.format === 'heif' ? 'avif' : result.format}`;
      renderer.cache?.set(cacheKey, { data: result.data, contentType });
      return c.body(
        result.data as Uint8Array<ArrayBuffer>,
        200,
        headers(result.data, contentType, 'miss'),
      );
    } catch (error) {
      if (error instanceof RenderBusyError) return busy();
      throw renderError(error);
    } finally {
      // The answer goes once the slot is free again (or a couple of seconds at
      // most), so a client that follows a refused render with another never
      // finds its own render in the way.
      await slot.release();
    }
  } finally {
    if (key !== undefined) renderer.inFlight.leave(key);
  }
}

const SHARP_FIT = { cover: 'cover', contain: 'inside', fill: 'fill' } as const;

function renderError(error: unknown): unknown {
  if (error instanceof RenderRefusedError) {
    return error.reason === 'pixels' ? tooManyPixels() : notAnImage();
  }
  if (error instanceof RenderTimeoutError) return tooLong();
  if (error instanceof RenderFailedError) return renderFailed();
  if (error instanceof RenderAbortedError) {
    // Nobody is listening any more; this answer only ends the request.
    return new StorageError(400, 'InvalidRequest', 'The request was aborted');
  }
  return error;
}
