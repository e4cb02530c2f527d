import { cors } from 'hono/cors';

/**
 * CORS for the Supabase-compatible mounts (contract §1.2). Any origin may call
 * them: access is decided by the API key and the bearer token, never by cookies.
 * Requested headers are echoed, as Supabase's gateway does, so the official
 * client's headers (apikey, x-client-info, prefer, range, x-upsert…) all pass.
 */
export function supabaseCors() {
  return cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposeHeaders: [
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
    ],
    maxAge: 86400,
  });
}
