import type { Context } from 'hono';

/**
 * `request.headers` stays small: a header whose value takes more than this in
 * JSON is left out, and so is any header once the whole would pass
 * MAX_HEADERS_JSON. The caller's address never depends on it: it goes first,
 * and the request context also sets it on its own (`request.client_ip`).
 */
export const MAX_HEADER_VALUE_JSON = 4_096;
export const MAX_HEADERS_JSON = 16_384;

/**
 * `request.headers` for SQL, as JSON, without credentials. `x-forwarded-for`
 * is the caller's address as this server determined it (as Supabase's gateway
 * does), so SQL functions can rate-limit by it and no client can forge it.
 * Oversized headers are left out one by one (never all of them, and never the
 * address), so no header, however large, can take the address away.
 */
export function sqlHeadersJson(c: Context, address: string): string {
  const first = `"x-forwarded-for":${JSON.stringify(address)}`;
  const entries: string[] = [first];
  let length = first.length + 2;
  c.req.raw.headers.forEach((value, name) => {
    if (name === 'authorization' || name === 'cookie' || name === 'x-forwarded-for') return;
    const encoded = JSON.stringify(value);
    if (encoded.length > MAX_HEADER_VALUE_JSON) return;
    const entry = `${JSON.stringify(name)}:${encoded}`;
    if (length + entry.length + 1 > MAX_HEADERS_JSON) return;
    entries.push(entry);
    length += entry.length + 1;
  });
  return `{${entries.join(',')}}`;
}
