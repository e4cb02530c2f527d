import type { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { MAX_HEADERS_JSON, headerList, sqlHeadersJson } from './sql-headers';

/** A raw header list as Node gives it: name, value, name, value… */
const RAW_LISTS: string[][] = [
  ['Host', '127.0.0.1:3000', 'Connection', 'keep-alive', 'apikey', 'abc'],
  ['Accept', 'a', 'X-Thing', 'one', 'accept', 'b', 'x-thing', 'two', 'ACCEPT', 'c'],
  ['Cookie', 'a=1', 'cookie', 'b=2', 'Set-Cookie', 'x=1', 'set-cookie', 'y=2', 'b', 'z'],
  ['Prefer', '  count=exact \t', 'Range', '\t0-9', 'Empty', '', 'Spaces', '   '],
  ['Authorization', 'Bearer secret', 'X-Forwarded-For', '6.6.6.6', 'Zeta', 'z', 'alpha', 'a'],
  ['x-client-info', 'supabase-js/2', 'X-Client-Info', 'again', 'ünicode-value', 'é'].slice(0, 4),
  ['Big', 'x'.repeat(5000), 'Small', 'y'],
  Array.from({ length: 40 }, (_, index) => [`h${index}`, 'v'.repeat(1000)]).flat(),
  [],
];

function viaHeaders(raw: string[]): [string, string][] {
  const headers = new Headers();
  for (let index = 0; index < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  const list: [string, string][] = [];
  headers.forEach((value, name) => list.push([name, value]));
  return list;
}

function context(raw: string[], withIncoming: boolean): Context {
  const headers = new Headers();
  for (let index = 0; index < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  return {
    req: { raw: { headers } },
    env: withIncoming ? { incoming: { rawHeaders: raw } } : undefined,
  } as unknown as Context;
}

describe('headerList', () => {
  it('lists the headers exactly as Headers#forEach does', () => {
    for (const raw of RAW_LISTS) expect(headerList(raw)).toEqual(viaHeaders(raw));
  });

  it('gives up (so Headers decides) on what Headers would refuse', () => {
    expect(headerList(['bad name', 'x'])).toBeUndefined();
    expect(headerList(['ok', 'a\u0000b'])).toBeUndefined();
  });

  it('skips HTTP/2 pseudo-headers', () => {
    expect(headerList([':path', '/x', 'a', 'b'])).toEqual([['a', 'b']]);
  });
});

describe('sqlHeadersJson', () => {
  it('is the same from the raw list as from the Headers object', () => {
    for (const raw of RAW_LISTS) {
      const fromRaw = sqlHeadersJson(context(raw, true), '10.0.0.1');
      expect(fromRaw).toBe(sqlHeadersJson(context(raw, false), '10.0.0.1'));
      const parsed = JSON.parse(fromRaw) as Record<string, string>;
      expect(parsed['x-forwarded-for']).toBe('10.0.0.1');
      expect(parsed.authorization).toBeUndefined();
      expect(parsed.cookie).toBeUndefined();
      expect(fromRaw.length).toBeLessThanOrEqual(MAX_HEADERS_JSON);
    }
  });

  it('joins a repeated header as Headers does', () => {
    const json = sqlHeadersJson(context(['Accept', 'a', 'accept', 'b'], true), '::1');
    expect(JSON.parse(json)).toEqual({ 'x-forwarded-for': '::1', accept: 'a, b' });
  });
});
