import { domainToASCII } from 'node:url';
import type { AuthConfig } from './auth-config';

/**
 * Where a flow may send the browser back to (`redirect_to`, GoTrue's
 * IsRedirectURLValid): the site itself, or an address the allow list
 * (`URI_ALLOW_LIST`) names. Anything else falls back to the site URL.
 *
 * The emailed link redirects with the session in the fragment, so a wrong
 * "yes" hands an account to another host. GoTrue matches its globs over the
 * raw string, with `.` and `/` as separators; here the address is parsed
 * first and each part compared on its own, so nothing in a query, fragment
 * or userinfo can stand in for the host:
 *
 * - **Canonical form only.** The address must come out of `new URL()`
 *   unchanged (`href === input`), except for the `/` a bare origin gains
 *   (`https://a.example` → `https://a.example/`, which GoTrue accepts too).
 *   That refuses upper-case or Unicode hosts (write them as the browser
 *   would: lower-case, punycode), percent-encoded dots, `..` segments,
 *   default ports, and the like: what is checked is what the browser visits.
 * - Refused outright: ASCII control characters and spaces (as GoTrue),
 *   backslashes, userinfo (`https://good@evil`), and `javascript:`, `data:`,
 *   `vbscript:`, `file:` and `blob:`.
 * - **Schemes**: `http:` and `https:`; any other (a mobile deep link such as
 *   `com.cervana.app://callback`) only when an allow-list entry names that
 *   scheme. Schemes must match exactly, with no globs.
 * - **Host**: `*` matches within one label (never across `.`), `**` across
 *   labels. A wildcard never matches an IP address; hosts of http(s) URLs must
 *   be ordinary names (letters, digits, `-`, `.`). IP literals and exact
 *   hosts compare as written (entries are lower-cased, Unicode labels put in
 *   punycode).
 * - **Port**: none in the entry means the scheme's default; `:*` any port.
 * - **Path and query** (the fragment is ignored, as GoTrue does): with globs,
 *   `*` matches within a path segment and `**` across segments; without, the
 *   entry is a prefix at a `/` boundary (`https://a.example/app` admits
 *   `/app` and `/app/...`, not `/apple`). An entry without a path admits the
 *   whole origin.
 * - **The site**: same scheme and host, and the same port except on loopback
 *   addresses (RFC 8252 §7.3, as GoTrue).
 */

const REFUSED_SCHEMES = new Set(['javascript', 'data', 'vbscript', 'file', 'blob']);
const REGULAR_HOSTNAME = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/;
const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };
/** scheme ":" ["//" authority] rest ["#" fragment] */
const URL_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*):(?:\/\/([^/?#]*))?([^#]*)(?:#.*)?$/s;

interface Entry {
  scheme: string;
  /** undefined: the entry has no `//authority` part. */
  host?: { literal: string } | { pattern: RegExp };
  /** '' for no port (the default), '*' for any. */
  port: string;
  rest: { prefix: string } | { pattern: RegExp };
}

interface Candidate {
  url: URL;
  scheme: string;
  hasAuthority: boolean;
  rest: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A glob where `*` stays inside one `separator`-delimited part and `**` crosses them. */
function globToRegExp(glob: string, separator: string): RegExp {
  const one = `[^${escapeRegExp(separator)}]*`;
  const pattern = glob
    .split('**')
    .map((part) => part.split('*').map(escapeRegExp).join(one))
    .join('.*');
  return new RegExp(`^${pattern}$`, 's');
}

function splitHostPort(authority: string): { host: string; port: string } | undefined {
  if (authority.startsWith('[')) {
    const end = authority.indexOf(']');
    if (end < 0) return undefined;
    const after = authority.slice(end + 1);
    if (after !== '' && !after.startsWith(':')) return undefined;
    return { host: authority.slice(0, end + 1), port: after.slice(1) };
  }
  const colon = authority.lastIndexOf(':');
  if (colon < 0) return { host: authority, port: '' };
  return { host: authority.slice(0, colon), port: authority.slice(colon + 1) };
}

/** One allow-list entry, or undefined for an entry that can never match (it is ignored). */
function compileEntry(text: string): Entry | undefined {
  const parts = URL_PARTS.exec(text.trim());
  if (!parts) return undefined;
  const scheme = parts[1]!.toLowerCase();
  const authority = parts[2];
  const rest = authority !== undefined && !parts[3]!.startsWith('/') ? `/${parts[3]!}` : parts[3]!;
  if (REFUSED_SCHEMES.has(scheme) || /[\s\\]/.test(text.trim())) return undefined;
  const entry: Entry = {
    scheme,
    port: '',
    rest: rest.includes('*') ? { pattern: globToRegExp(rest, '/') } : { prefix: rest },
  };
  if (authority !== undefined) {
    if (authority.includes('@')) return undefined;
    const split = splitHostPort(authority);
    if (!split || !/^(\d*|\*)$/.test(split.port)) return undefined;
    entry.port = split.port === DEFAULT_PORTS[scheme] ? '' : split.port;
    // As the browser writes it: lower case, Unicode labels in punycode.
    const host = split.host
      .toLowerCase()
      .split('.')
      .map((label) => (/^[\x20-\x7e]*$/.test(label) ? label : domainToASCII(label) || label))
      .join('.');
    entry.host = host.includes('*') ? { pattern: globToRegExp(host, '.') } : { literal: host };
  }
  return entry;
}

const compiled = new WeakMap<readonly string[], Entry[]>();

function entriesOf(allowList: readonly string[]): Entry[] {
  let entries = compiled.get(allowList);
  if (!entries) {
    entries = allowList.map(compileEntry).filter((entry): entry is Entry => entry !== undefined);
    compiled.set(allowList, entries);
  }
  return entries;
}

/** The address parsed, if it is canonical and free of the refused forms; else undefined. */
function parseCandidate(requested: string): Candidate | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f\\]/.test(requested)) return undefined;
  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    return undefined;
  }
  const isBareOrigin =
    url.pathname === '/' && url.search === '' && url.hash === '' && url.href === `${requested}/`;
  if (url.href !== requested && !isBareOrigin) return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  const scheme = url.protocol.slice(0, -1);
  if (REFUSED_SCHEMES.has(scheme)) return undefined;
  const parts = URL_PARTS.exec(url.href);
  if (!parts) return undefined;
  const hasAuthority = parts[2] !== undefined;
  // `app://callback` and `app://callback/` are one place, as `https://a.example` and `https://a.example/` are.
  const rest = hasAuthority && !parts[3]!.startsWith('/') ? `/${parts[3]!}` : parts[3]!;
  return { url, scheme, hasAuthority, rest };
}

function isIpAddress(hostname: string): boolean {
  return hostname.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function matches(entry: Entry, candidate: Candidate): boolean {
  const { url } = candidate;
  if (entry.scheme !== candidate.scheme) return false;
  if ((entry.host !== undefined) !== candidate.hasAuthority) return false;
  if (entry.host) {
    const hostname = url.hostname;
    if ('literal' in entry.host) {
      if (hostname !== entry.host.literal) return false;
    } else {
      if (isIpAddress(hostname)) return false;
      const isHttp = candidate.scheme === 'http' || candidate.scheme === 'https';
      if (isHttp && !REGULAR_HOSTNAME.test(hostname)) return false;
      if (!entry.host.pattern.test(hostname)) return false;
    }
    if (entry.port !== '*' && entry.port !== url.port) return false;
  }
  const rest = candidate.rest;
  if ('pattern' in entry.rest) return entry.rest.pattern.test(rest);
  const prefix = entry.rest.prefix;
  return rest === prefix || rest.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

function isSameSite(siteUrl: string, url: URL): boolean {
  let site: URL;
  try {
    site = new URL(siteUrl);
  } catch {
    return false;
  }
  return (
    url.protocol === site.protocol &&
    url.hostname === site.hostname &&
    (url.port === site.port || isLoopback(url.hostname))
  );
}

/** Whether `requested` may be redirected to (see above). */
export function isRedirectAllowed(
  config: Pick<AuthConfig, 'siteUrl' | 'redirectAllowList'>,
  requested: string,
): boolean {
  const candidate = parseCandidate(requested);
  if (!candidate) return false;
  const isHttp = candidate.scheme === 'http' || candidate.scheme === 'https';
  if (isHttp && isSameSite(config.siteUrl, candidate.url)) return true;
  return entriesOf(config.redirectAllowList).some((entry) => matches(entry, candidate));
}

/**
 * The `redirect_to` a flow uses: the requested address when allowed (as the
 * caller wrote it), else the site URL, as GoTrue does. Every flow that mails
 * a link or redirects goes through here, and `/verify` checks again when the
 * link is followed.
 */
export function resolveRedirect(
  config: Pick<AuthConfig, 'siteUrl' | 'redirectAllowList'>,
  requested: string | undefined,
): string {
  if (!requested) return config.siteUrl;
  return isRedirectAllowed(config, requested) ? requested : config.siteUrl;
}
