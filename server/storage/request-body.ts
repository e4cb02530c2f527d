import type { Context } from 'hono';
import type { z } from 'zod';
import { storageErrors } from './errors';

const MAX_JSON_BYTES = 1024 * 1024;

/** A JSON request body (at most 1 MB); an empty body reads as `{}`. */
export async function readJson(c: Context): Promise<unknown> {
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > MAX_JSON_BYTES)
    throw storageErrors.invalidRequest('The request body is too large');
  const text = await c.req.text();
  if (Buffer.byteLength(text) > MAX_JSON_BYTES)
    throw storageErrors.invalidRequest('The request body is too large');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw storageErrors.invalidRequest('The request body is not valid JSON');
  }
}

/** A JSON body checked against `schema`; the first problem is the 400's message (`body/<field> ...`). */
export async function readBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  return checkBody(schema, await readJson(c));
}

export function checkBody<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw storageErrors.invalidRequest(`body/${issue.path.join('/')} ${issue.message}`);
  }
  return parsed.data;
}
