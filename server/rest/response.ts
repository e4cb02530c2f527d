import type { Context } from 'hono';
import type { RestError } from './errors';
import type { ResponseMedia } from './parse/preferences';

/** Response framing shared by every /rest/v1 handler. */

export function contentRange(lower: number, upper: number, total: number | undefined): string {
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*';
  return `${range}/${total === undefined ? '*' : total}`;
}

/** 200, 206 when the page is part of a known total, 416 when it starts past the end. */
export function rangeStatus(
  lower: number,
  pageTotal: number,
  total: number | undefined,
): 200 | 206 | 416 {
  if (total === undefined) return 200;
  const upper = lower + pageTotal - 1;
  if (lower > total) return 416;
  if (1 + upper - lower < total) return 206;
  return 200;
}

export const CONTENT_TYPES: Record<Exclude<ResponseMedia, 'openapi'>, string> = {
  json: 'application/json; charset=utf-8',
  object: 'application/vnd.pgrst.object+json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

export function errorResponse(c: Context, error: RestError): Response {
  const body = JSON.stringify(error.toJSON());
  return new Response(c.req.method === 'HEAD' ? null : body, {
    status: error.status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Proxy-Status': `PostgREST; error=${error.code}`,
      ...error.headers,
    },
  });
}

export function respond(
  c: Context,
  status: number,
  body: string | null,
  headers: Record<string, string | undefined>,
): Response {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) clean[name] = value;
  return new Response(c.req.method === 'HEAD' || status === 204 ? null : body, {
    status,
    headers: clean,
  });
}
