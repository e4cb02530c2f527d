import type { Context } from 'hono';
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
