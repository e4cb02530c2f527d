import { describe, expect, it } from 'vitest';
import { RuntimeConfigError, parseRuntimeConfig } from './runtime-config';

describe('parseRuntimeConfig', () => {
  it('accepts the shape /config.json serves', () => {
    expect(parseRuntimeConfig({ url: 'http://localhost:3000', anonKey: 'a.b.c' })).toEqual({
      url: 'http://localhost:3000',
      anonKey: 'a.b.c',
    });
  });

  it.each([
    [null, 'not a JSON object'],
    [{ anonKey: 'k' }, 'no valid "url"'],
    [{ url: 'ftp://x', anonKey: 'k' }, 'no valid "url"'],
    [{ url: 'https://x' }, 'no "anonKey"'],
    [{ url: 'https://x', anonKey: '' }, 'no "anonKey"'],
  ])('refuses %j', (value, message) => {
    expect(() => parseRuntimeConfig(value)).toThrow(RuntimeConfigError);
    expect(() => parseRuntimeConfig(value)).toThrow(message);
  });
});
