import type { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import {
  canonicalIp,
  clientIp,
  forwardedProto,
  networkOf,
  parseTrustProxy,
  type TrustProxy,
} from './client-ip';

/** What a request looks like to `clientIp`: the socket's peer and its headers. */
function request(peer: string, forwardedFor?: string | string[], proto?: string): Context {
  const values = forwardedFor === undefined ? [] : [forwardedFor].flat();
  const headers: Record<string, string | undefined> = {
    'x-forwarded-for': values.length ? values.join(', ') : undefined,
    'x-forwarded-proto': proto,
  };
  return {
    // Node joins repeated X-Forwarded-For headers with ", ", as here.
    req: { header: (name: string) => headers[name] },
    env: { incoming: { socket: { remoteAddress: peer } } },
  } as unknown as Context;
}

function address(trust: TrustProxy, peer: string, forwardedFor?: string | string[]): string {
  return clientIp(request(peer, forwardedFor), trust);
}

describe('canonicalIp', () => {
  it('accepts one address in the forms headers carry, and writes it one way', () => {
    expect(canonicalIp(' 203.0.113.7 ')).toBe('203.0.113.7');
    expect(canonicalIp('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(canonicalIp('[2001:DB8:0:0::1]:443')).toBe('2001:db8::1');
    expect(canonicalIp('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(canonicalIp('fe80::1%eth0')).toBe('fe80::1');
    expect(canonicalIp('::ffff:198.51.100.1')).toBe('198.51.100.1');
    expect(canonicalIp('::1')).toBe('::1');
  });

  it('refuses anything that is not exactly one address', () => {
    for (const text of [
      '',
      'unknown',
      'not-an-ip',
      '<script>alert(1)</script>',
      'example.com',
      '203.0.113.7 203.0.113.8',
      '203.0.113.7;drop',
      '999.1.1.1',
      '1.2.3',
      '203.0.113.7:99999999',
      `${'1'.repeat(80)}`,
    ]) {
      expect(canonicalIp(text), text).toBeUndefined();
    }
    // An unbracketed IPv6 address cannot carry a port: this is the address `…:1:80`.
    expect(canonicalIp('2001:db8::1:80')).toBe('2001:db8::1:80');
  });
});

describe('parseTrustProxy', () => {
  it('reads booleans, hop counts and lists of proxies', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('yes')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(address(parseTrustProxy('loopback, 10.0.0.0/8'), '127.0.0.1', '198.51.100.3')).toBe(
      '198.51.100.3',
    );
    // An IPv4 range written as IPv6 is that IPv4 range.
    const mapped = parseTrustProxy('::ffff:10.0.0.0/104');
    expect(address(mapped, '10.9.9.9', '198.51.100.3')).toBe('198.51.100.3');
    expect(address(mapped, '11.0.0.1', '198.51.100.3')).toBe('11.0.0.1');
  });

  it('names the entry it cannot read', () => {
    expect(() => parseTrustProxy('10.0.0.0/8, proxy.internal')).toThrow(/'proxy.internal'/);
    expect(() => parseTrustProxy('10.0.0.0/8/junk')).toThrow(/'10.0.0.0\/8\/junk'/);
    expect(() => parseTrustProxy('10.0.0.5:80')).toThrow(/'10.0.0.5:80'/);
    expect(() => parseTrustProxy('[::1]')).toThrow(/not an IP address/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/prefix length/);
    expect(() => parseTrustProxy('10.0.0.0/x')).toThrow(/prefix length/);
    expect(() => parseTrustProxy('99')).toThrow(/at most 16/);
  });
});

describe('clientIp', () => {
  it('ignores X-Forwarded-For unless a proxy is trusted', () => {
    expect(address(false, '192.0.2.10', '1.1.1.1')).toBe('192.0.2.10');
    expect(address(0, '::ffff:192.0.2.10', '1.1.1.1')).toBe('192.0.2.10');
  });

  it('behind one proxy, takes the address the proxy appended, whatever the client wrote before it', () => {
    expect(address(true, '10.0.0.5', '198.51.100.1')).toBe('198.51.100.1');
    expect(address(1, '10.0.0.5', '6.6.6.6, 198.51.100.1')).toBe('198.51.100.1');
    expect(address(1, '10.0.0.5', ['6.6.6.6', '7.7.7.7, 198.51.100.1'])).toBe('198.51.100.1');
    expect(address(1, '10.0.0.5', '<b>x</b>, not-an-ip, 198.51.100.1')).toBe('198.51.100.1');
    expect(address(1, '10.0.0.5', '[2001:DB8::7]:443')).toBe('2001:db8::7');
  });

  it('behind two proxies, takes the second address from the right', () => {
    expect(address(2, '10.0.0.5', '6.6.6.6, 198.51.100.2, 10.0.0.9')).toBe('198.51.100.2');
    expect(address(2, '10.0.0.5', '198.51.100.2, 10.0.0.9')).toBe('198.51.100.2');
  });

  it('never returns an entry that is not an address: the hop that forwarded it stands instead', () => {
    expect(address(1, '10.0.0.5', 'not-an-ip')).toBe('10.0.0.5');
    expect(address(1, '10.0.0.5', '<script>')).toBe('10.0.0.5');
    expect(address(2, '10.0.0.5', 'unknown, 10.0.0.9')).toBe('10.0.0.9');
    expect(address(1, '10.0.0.5', '')).toBe('10.0.0.5');
    expect(address(1, '10.0.0.5', ' , ,')).toBe('10.0.0.5');
    expect(address(1, 'garbage', undefined)).toBe('127.0.0.1');
  });

  it('with a list of proxies, walks leftwards only through the listed ones', () => {
    const trust = parseTrustProxy('10.0.0.0/8, 2001:db8:ffff::/48');
    expect(address(trust, '10.0.0.5', '6.6.6.6, 198.51.100.3, 10.0.0.9')).toBe('198.51.100.3');
    expect(address(trust, '10.0.0.5', '6.6.6.6, 10.1.1.1, 10.0.0.9')).toBe('6.6.6.6');
    expect(address(trust, '2001:db8:ffff::1', '2001:db8:1::5')).toBe('2001:db8:1::5');
    // The peer is not a listed proxy: its header is the client's own words.
    expect(address(trust, '192.0.2.44', '198.51.100.3')).toBe('192.0.2.44');
    expect(address(trust, '10.0.0.5', 'bogus, 10.0.0.9')).toBe('10.0.0.9');
  });
});

describe('networkOf', () => {
  it('groups IPv6 by /64 and keeps IPv4 as is', () => {
    expect(networkOf('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(networkOf('[2001:db8:0:1::2]:80')).toBe('2001:db8:0:1::/64');
    expect(networkOf('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(networkOf('192.0.2.1')).toBe('192.0.2.1');
    expect(networkOf('nonsense')).toBe('other:nonsense');
  });
});

describe('forwardedProto', () => {
  const proto = (trust: TrustProxy, peer: string, value?: string) =>
    forwardedProto(request(peer, undefined, value), trust);

  it('is believed only from a trusted proxy', () => {
    expect(proto(false, '10.0.0.5', 'https')).toBeUndefined();
    expect(proto(1, '10.0.0.5', 'https')).toBe('https');
    const listed = parseTrustProxy('10.0.0.0/8');
    expect(proto(listed, '10.0.0.5', 'https')).toBe('https');
    expect(proto(listed, '192.0.2.44', 'https')).toBeUndefined();
  });

  it('takes the entry the trusted hops wrote, not one the client put in front', () => {
    expect(proto(1, '10.0.0.5', 'https, http')).toBe('http');
    expect(proto(2, '10.0.0.5', 'http, https, http')).toBe('https');
    expect(proto(2, '10.0.0.5', 'https')).toBe('https');
    expect(proto(1, '10.0.0.5', '')).toBeUndefined();
  });
});
