import { BodyReadError, BodyTooLargeError, readBodyText } from '../http/read-body';
import type { RestRequest } from './context';
import { restErrors } from './errors';

/**
 * Request bodies of /rest/v1 (table writes and RPC), counted while they stream
 * in (`server/http/read-body.ts`). Anonymous callers only ever send forms
 * (the public-form functions take a few kilobytes), so they get 1 MB; signed-in
 * users and the service role get 10 MB, enough for a batch insert.
 */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
export const MAX_ANON_BODY_BYTES = 1024 * 1024;

export function bodyLimitFor(request: Pick<RestRequest, 'role'>): number {
  return request.role.role === 'anon' ? MAX_ANON_BODY_BYTES : MAX_BODY_BYTES;
}

/** The body as text, or PostgREST-shaped 413 (too large) or 400 (the client went away). */
export async function readRestBody(request: RestRequest): Promise<string> {
  const limit = bodyLimitFor(request);
  try {
    return await readBodyText(request.c, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw restErrors.bodyTooLarge(limit, request.role.role);
    if (error instanceof BodyReadError) throw restErrors.invalidBody('Empty or invalid json');
    throw error;
  }
}
