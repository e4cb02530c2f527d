import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The platform's own error (config.json, health, unknown API paths). The
 * Supabase services answer in their own wire shapes (GoTrue, PostgREST,
 * Storage), each decided in one place inside that service.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function errorResponse(c: Context, error: HttpError): Response {
  return c.json({ error: error.code, message: error.message }, error.status);
}
