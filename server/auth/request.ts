import type { Context } from 'hono';
import { z } from 'zod';
import { BodyReadError, BodyTooLargeError, readBodyText } from '../http/read-body';
import { errors } from './errors';

/**
 * Bodies above this size are refused, counted while they stream in (a larger
 * Content-Length before a byte is read). Every auth body is a few fields; the
 * largest legitimate one is user metadata.
 */
export const MAX_BODY_BYTES = 256 * 1024;

async function readText(c: Context): Promise<string> {
  try {
    return await readBodyText(c, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw errors.requestTooLarge();
    if (error instanceof BodyReadError) throw errors.badJson();
    throw error;
  }
}

/**
 * The request body as JSON, validated: a malformed or oversized body is a 4xx
 * in GoTrue's shape, never a 500. An empty body reads as `{}`.
 */
export async function readBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const text = await readText(c);
  let json: unknown = {};
  if (text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      throw errors.badJson();
    }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw errors.badJson();
  if (containsNul(json)) throw errors.validation('Invalid characters in request body');
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'body';
    throw errors.validation(`Invalid ${field}: ${issue?.message ?? 'invalid value'}`);
  }
  return parsed.data;
}

/** PostgreSQL cannot store U+0000 in text: such input is refused at the edge. */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || typeof value !== 'object' || value === null) return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  }
  return false;
}

/** GoTrue's token hashes: hex SHA-224. */
export function isTokenHash(value: string): boolean {
  return /^[0-9a-f]{56}$/.test(value);
}

/** Loose string fields: GoTrue ignores unknown keys, and treats null like absent. */
export const optionalString = z
  .union([z.string(), z.null()])
  .optional()
  .transform((value) => (value === null ? undefined : value));

export const metadataObject = z
  .union([z.record(z.string(), z.unknown()), z.null()])
  .optional()
  .transform((value) => value ?? undefined);

export { clientIp } from '../http/client-ip';

export function userAgent(c: Context): string | undefined {
  return c.req.header('user-agent')?.slice(0, 512);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
