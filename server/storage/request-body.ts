import type { Context } from 'hono';
import type { z } from 'zod';
import { BodyReadError, BodyTooLargeError, readBodyText } from '../http/read-body';
import { storageErrors } from './errors';

/**
 * JSON bodies (bucket settings, lists, signing, move/copy, bulk delete) are
 * small for every role: 1 MB, counted while they stream in. Uploads are not
 * JSON and stream to disk with the bucket's limit (`upload-stream.ts`).
 */
export const MAX_JSON_BYTES = 1024 * 1024;

/** A JSON request body (at most 1 MB); an empty body reads as `{}`. */
export async function readJson(c: Context): Promise<unknown> {
  let text: string;
  try {
    text = await readBodyText(c, MAX_JSON_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw storageErrors.bodyTooLarge();
    if (error instanceof BodyReadError)
      throw storageErrors.invalidRequest('The request body could not be read');
    throw error;
  }
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
