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
  const add = (value: string, name: string) => {
    if (name === 'authorization' || name === 'cookie' || name === 'x-forwarded-for') return;
    const encoded = JSON.stringify(value);
    if (encoded.length > MAX_HEADER_VALUE_JSON) return;
    const entry = `${JSON.stringify(name)}:${encoded}`;
    if (length + entry.length + 1 > MAX_HEADERS_JSON) return;
    entries.push(entry);
    length += entry.length + 1;
  };
  const raw = rawHeadersOf(c);
  const listed = raw === undefined ? undefined : headerList(raw);
  if (listed) for (const [name, value] of listed) add(value, name);
  else c.req.raw.headers.forEach(add);
  return `{${entries.join(',')}}`;
}

/** The Node request's raw header list (@hono/node-server passes it as `c.env.incoming`). */
function rawHeadersOf(c: Context): readonly string[] | undefined {
  const env = c.env as { incoming?: { rawHeaders?: unknown } } | undefined;
  const raw = env?.incoming?.rawHeaders;
  return Array.isArray(raw) ? (raw as string[]) : undefined;
}

const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FORBIDDEN_VALUE = /[\0\r\n]/;

/**
 * The headers as `Headers#forEach` yields them (lower-case names in code-unit
 * order, repeated headers joined by ", " and `set-cookie` kept apart, values
 * trimmed of HTTP whitespace), read straight from Node's raw list instead of
 * building a `Headers` object (decision 032). Undefined for anything `Headers`
 * would refuse (never sent by Node's parser): the caller then uses `Headers`.
 */
export function headerList(raw: readonly string[]): [string, string][] | undefined {
  const joined = new Map<string, string>();
  const cookies: string[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const rawName = raw[index]!;
    if (rawName.startsWith(':')) continue; // HTTP/2 pseudo-headers, as @hono/node-server skips them
    if (!TOKEN.test(rawName)) return undefined;
    let value = raw[index + 1]!;
    if (value.length > 0) {
      const edge0 = value.charCodeAt(0);
      const edge1 = value.charCodeAt(value.length - 1);
      if (edge0 <= 32 || edge1 <= 32) value = value.replace(HTTP_WHITESPACE, '');
    }
    if (FORBIDDEN_VALUE.test(value)) return undefined;
    const name = rawName.toLowerCase();
    if (name === 'set-cookie') {
      cookies.push(value);
      continue;
    }
    const earlier = joined.get(name);
    joined.set(
      name,
      earlier === undefined ? value : `${earlier}${name === 'cookie' ? '; ' : ', '}${value}`,
    );
  }
  if (cookies.length > 0) joined.set('set-cookie', '');
  const names = [...joined.keys()].sort();
  const list: [string, string][] = [];
  for (const name of names) {
    if (name === 'set-cookie') for (const cookie of cookies) list.push([name, cookie]);
    else list.push([name, joined.get(name)!]);
  }
  return list;
}
