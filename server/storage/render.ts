import type { Context } from 'hono';
import { z } from 'zod';
import type { ObjectRow } from './download';
import { StorageError, storageErrors } from './errors';

/**
 * Image transformations (`/render/image/...`), as Supabase Storage offers
 * them: width, height, resize (cover, contain, fill), quality and format,
 * with the same limits and the `x-transformations` header naming what was
 * applied (imgproxy's words). Images are resized with sharp, loaded on first use.
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

const dimension = z.coerce
  .number()
  .int()
  .min(1)
  .transform((value) => Math.min(value, 2500));

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

const SHARP_FIT = { cover: 'cover', contain: 'inside', fill: 'fill' } as const;

type Sharp = typeof import('sharp').default;
let sharpModule: Promise<Sharp> | undefined;
const loadSharp = () =>
  (sharpModule ??= import('sharp').then((module) => (module.default ?? module) as Sharp));

/** The transformed image as a response. `source` is the object's whole bytes. */
export async function renderImage(
  c: Context,
  row: ObjectRow,
  source: NodeJS.ReadableStream,
  transform: Transform,
): Promise<Response> {
  if ((row.metadata?.size ?? 0) > MAX_SOURCE_BYTES) {
    throw new StorageError(
      413,
      'EntityTooLarge',
      'The image is too large to transform (25 MB at most)',
      'Payload too large',
    );
  }
  const sharp = await loadSharp();
  const accepts = c.req.header('accept') ?? '';
  const format =
    transform.format === 'avif' || transform.format === 'webp'
      ? transform.format
      : transform.format === undefined && /image\/webp/.test(accepts)
        ? 'webp'
        : undefined;
  let pipeline = sharp({ failOn: 'error', limitInputPixels: 100_000_000 }).rotate();
  if (transform.width || transform.height) {
    pipeline = pipeline.resize({
      width: transform.width,
      height: transform.height,
      fit: SHARP_FIT[transform.resize ?? 'cover'],
      withoutEnlargement: true,
    });
  }
  const quality = transform.quality ?? 80;
  if (format) pipeline = pipeline.toFormat(format, { quality });
  else
    pipeline = pipeline
      .jpeg({ quality, force: false })
      .png({ quality, force: false })
      .webp({ quality, force: false });
  source.pipe(pipeline);
  let output: { data: Buffer; info: { format: string; size: number } };
  try {
    output = await pipeline.toBuffer({ resolveWithObject: true });
  } catch {
    throw new StorageError(
      422,
      'InvalidRequest',
      'The object is not an image that can be transformed',
      'Invalid Input',
    );
  }
  return c.body(new Uint8Array(output.data), 200, {
    'Content-Type': `image/${output.info.format === 'heif' ? 'avif' : output.info.format}`,
    'Content-Length': String(output.info.size),
    'Cache-Control': row.metadata?.cacheControl ?? 'no-cache',
    'X-Transformations': describeTransform(transform),
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'X-Content-Type-Options': 'nosniff',
  });
}
