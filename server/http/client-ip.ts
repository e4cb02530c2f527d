import { isIP } from 'node:net';
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * The caller's address: the first `X-Forwarded-For` entry when the server sits
 * behind a proxy it trusts (`TRUST_PROXY`), else the socket's peer. Without
 * that setting a client cannot choose its own address by sending the header.
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? '127.0.0.1';
  } catch {
    return '127.0.0.1';
  }
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
  const address = ip.trim().replace(/^\[(.*)\]$/, '$1');
  const withoutZone = address.split('%')[0]!;
  const family = isIP(withoutZone);
  if (family === 4) return withoutZone;
  if (family !== 6) return `other:${address.slice(0, 100)}`;
  const groups = ipv6Groups(withoutZone.toLowerCase());
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${formatIpv6([...groups.slice(0, 4), 0, 0, 0, 0])}/64`;
}
