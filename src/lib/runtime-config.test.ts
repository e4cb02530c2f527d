import { describe, expect, it } from 'vitest';
import { RuntimeConfigError, parseRuntimeConfig } from './runtime-config';

describe('parseRuntimeConfig', () => {
  it('accepts the shape /config.json serves', () => {
    expect(
      parseRuntimeConfig({
        url: 'http://localhost:3000',
        anonKey: 'a.b.c',
        scheduler: {
          url: 'https://calendly.com/x/30min',
          scriptUrl: 'https://assets.calendly.com/w.js',
        },
      }),
    ).toEqual({
      url: 'http://localhost:3000',
      anonKey: 'a.b.c',
      scheduler: {
        url: 'https://calendly.com/x/30min',
        scriptUrl: 'https://assets.calendly.com/w.js',
      },
    });
  });

  it('treats a missing or malformed scheduler as no scheduler', () => {
    expect(parseRuntimeConfig({ url: 'https://x', anonKey: 'k' }).scheduler).toBeUndefined();
    expect(
      parseRuntimeConfig({
        url: 'https://x',
        anonKey: 'k',
        scheduler: { url: 'javascript:alert(1)', scriptUrl: 'https://y' },
      }).scheduler,
    ).toBeUndefined();
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
