import { BlockList, isIP } from 'node:net';
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * Which proxies the server believes about the caller's address (`TRUST_PROXY`):
 * - `false`: none; the socket's peer is the caller, and `X-Forwarded-For` is ignored.
 * - a number N (`true` is 1): N proxies stand in front of the server, each of
 *   which appends the address it received the request from. The caller is the
 *   N-th address counted from the right, the socket's peer being the first.
 * - a list of addresses and ranges: the proxies' own addresses. The caller is
 *   the first address, walking from the socket's peer leftwards through
 *   `X-Forwarded-For`, that is not one of them.
 *
 * Every proxy appends on the right, so whatever the client wrote itself is on
 * the left and is never reached unless it claims to come from a trusted hop.
 */
export type TrustProxy = boolean | number | BlockList;

/** The most proxy hops a deployment may declare. */
export const MAX_PROXY_HOPS = 16;

/** Named groups of ranges, as `TRUST_PROXY=loopback,private` spells them. */
const NAMED_RANGES: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  // RFC 1918, shared address space (RFC 6598, used inside cloud and overlay networks) and IPv6 ULA.
  private: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['100.64.0.0', 10, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
};

/**
 * Reads `TRUST_PROXY`: a boolean spelling, a hop count, or a comma-separated
 * list of addresses, CIDR ranges and the names `loopback`, `private` and
 * `linklocal`. Throws an Error naming the entry it cannot read.
 */
export function parseTrustProxy(text: string): TrustProxy {
  const value = text.trim().toLowerCase();
  if (['', 'false', '0', 'no', 'off'].includes(value)) return false;
  if (['true', 'yes', 'on'].includes(value)) return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_PROXY_HOPS) throw new Error(`at most ${MAX_PROXY_HOPS} proxy hops`);
    return hops;
  }
  const list = new BlockList();
  for (const entry of value.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const named = NAMED_RANGES[entry];
    if (named) {
      for (const [network, prefix, family] of named) list.addSubnet(network, prefix, family);
      continue;
    }
    const [address = '', prefixText, ...rest] = entry.split('/');
    // A bare address only (no port, no brackets), so what is listed is what is meant.
    const canonical = isIP(address) ? canonicalIp(address) : undefined;
    if (!canonical || rest.length > 0) {
      throw new Error(`'${entry}' is not an IP address, a CIDR range or a known name`);
    }
    const family = isIP(canonical) === 4 ? 'ipv4' : 'ipv6';
    const maximum = family === 'ipv4' ? 32 : 128;
    // An IPv4 range written as IPv6 (`::ffff:10.0.0.0/104`) is that IPv4 range.
    const offset = isIP(address) === 6 && family === 'ipv4' ? 96 : 0;
    const prefix = prefixText === undefined ? maximum : Number(prefixText) - offset;
    if (
      (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) ||
      prefix < 0 ||
      prefix > maximum
    ) {
      throw new Error(`'${entry}' has a prefix length outside 0-${maximum + offset}`);
    }
    list.addSubnet(canonical, prefix, family);
  }
  return list;
}

/**
 * An address as one canonical text, or undefined when the text is not one
 * address: surrounding brackets, a port (`1.2.3.4:5678`, `[::1]:80`) and an
 * IPv6 zone are removed, IPv6 is written as RFC 5952 says, and an IPv4 address
 * written as IPv6 (`::ffff:1.2.3.4`) becomes plain IPv4. Anything else a header
 * may carry (a host name, `unknown`, markup) is refused.
 */
export function canonicalIp(text: string): string | undefined {
  let address = text.trim();
  if (address.length > 64) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  address = address.split('%')[0]!;
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return undefined;
  const groups = ipv6Groups(address.toLowerCase());
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return formatIpv6(groups);
}

function isTrustedHop(address: string, trust: TrustProxy): boolean {
  if (!(trust instanceof BlockList)) return false;
  return trust.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
}

function socketAddress(c: Context): string {
  try {
    return canonicalIp(getConnInfo(c).remote.address ?? '') ?? '127.0.0.1';
  } catch {
    return '127.0.0.1';
  }
}

/**
 * The caller's address, always one valid IP in canonical form: the socket's
 * peer, or (behind proxies the server trusts, see {@link TrustProxy}) the
 * address the last trusted proxy saw. An `X-Forwarded-For` entry that is not
 * an address stops the walk: the hop that forwarded it is taken instead.
 */
export function clientIp(c: Context, trust: TrustProxy): string {
  const peer = socketAddress(c);
  if (trust === false || trust === 0) return peer;
  const forwarded = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .reverse();
  const hops = trust === true ? 1 : typeof trust === 'number' ? trust : Infinity;
  let address = peer;
  for (let hop = 0; hop < hops && hop < forwarded.length; hop += 1) {
    if (hops === Infinity && !isTrustedHop(address, trust)) break;
    const next = canonicalIp(forwarded[hop]!);
    if (!next) break;
    address = next;
  }
  return address;
}

/**
 * The protocol the client used, as the trusted proxies report it in
 * `X-Forwarded-Proto`, or undefined when no trusted proxy sent the request.
 * With a hop count, the entry that many from the right (a proxy that
 * overwrites the header leaves one entry, which is taken); with a list, only
 * when the socket's peer is a listed proxy, and then the left-most entry (the
 * edge proxy's: proxies overwrite this header rather than append to it).
 */
export function forwardedProto(c: Context, trust: TrustProxy): string | undefined {
  if (trust === false || trust === 0) return undefined;
  const entries = (c.req.header('x-forwarded-proto') ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return undefined;
  if (trust instanceof BlockList) {
    return isTrustedHop(socketAddress(c), trust) ? entries[0] : undefined;
  }
  const hops = trust === true ? 1 : trust;
  return entries[Math.max(0, entries.length - hops)];
}

/** The eight 16-bit groups of an IPv6 address (`isIP(text) === 6`, zone removed). */
function ipv6Groups(text: string): number[] {
  // A dotted IPv4 tail (`::ffff:1.2.3.4`) becomes its two hex groups.
  const address = text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [((Number(a) << 8) | Number(b)).toString(16), ((Number(c) << 8) | Number(d)).toString(16)].join(
      ':',
    ),
  );
  const [head = '', tail] = address.split('::');
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => parseInt(group, 16));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** An IPv6 address in its canonical text (RFC 5952: lower case, longest zero run as `::`). */
function formatIpv6(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 0;
  for (let start = 0; start < groups.length;) {
    if (groups[start] !== 0) {
      start += 1;
      continue;
    }
    let end = start;
    while (end < groups.length && groups[end] === 0) end += 1;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestLength < 2) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/**
 * The network an address belongs to, as rate limits count it (the same rule as
 * the SQL `private.network_of`): an IPv4 address as itself, an IPv4 address
 * written as IPv6 (`::ffff:a.b.c.d`) as that IPv4 address, and any other IPv6
 * address as its /64 (what one subscriber is routed), e.g. `2001:db8:0:1::/64`.
 * Text that is no address at all is kept, bounded, so it still has a bucket.
 */
export function networkOf(ip: string): string {
  const address = canonicalIp(ip);
  if (address === undefined) return `other:${ip.trim().slice(0, 100)}`;
  if (isIP(address) === 4) return address;
  return `${formatIpv6([...ipv6Groups(address).slice(0, 4), 0, 0, 0, 0])}/64`;
}
