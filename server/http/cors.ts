import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

const EXPOSE_HEADERS = [
  'Content-Range',
  'X-Total-Count',
  'Link',
  'X-Supabase-Api-Version',
  'Location',
  'ETag',
  'Content-Location',
  'Preference-Applied',
  'Content-Disposition',
  'Content-Length',
  'Last-Modified',
  // Storage's image transformations say what they applied.
  'X-Transformations',
].join(',');

/**
 * CORS for the Supabase-compatible mounts (contract §1.2). Any origin may call
 * them: access is decided by the API key and the bearer token, never by cookies.
 * Requested headers are echoed, as Supabase's gateway does, so the official
 * client's headers (apikey, x-client-info, prefer, range, x-upsert…) all pass.
 *
 * Preflights are Hono's `cors`. Other requests get their two headers once the
 * handler has answered, on its response: Hono's `cors` sets them on `c.res`
 * before the handler runs, which makes Hono copy the handler's response into a
 * new one (`new Response(res.body, res)`), turning a string body into a web
 * stream that is then read back chunk by chunk; that copy was about a tenth of
 * the CPU time of a data API read (decision 032).
 */
export function supabaseCors(): MiddlewareHandler {
  const preflight = cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposeHeaders: EXPOSE_HEADERS.split(','),
    maxAge: 86400,
  });
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    await next();
    let headers = c.res.headers;
    try {
      headers.set('Access-Control-Allow-Origin', '*');
    } catch {
      // Immutable headers (a Response.redirect, a fetched response): answer a copy.
      c.res = new Response(c.res.body, c.res);
      headers = c.res.headers;
      headers.set('Access-Control-Allow-Origin', '*');
    }
    headers.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  };
}
