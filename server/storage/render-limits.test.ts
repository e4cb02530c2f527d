import { describe, expect, it } from 'vitest';
import { RenderCache, RenderRateLimiter } from './render-limits';
import { sniffImage } from './render';

const bytes = (size: number) => ({ data: new Uint8Array(size), contentType: 'image/png' });

describe('the render cache', () => {
  it('keeps at most its size in bytes, the least recently used going first', () => {
    const cache = new RenderCache(1000);
    cache.set('a', bytes(100));
    cache.set('b', bytes(100));
    expect(cache.get('a')).toBeDefined(); // now the most recent
    for (const key of ['c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']) cache.set(key, bytes(100));
    expect(cache.size.bytes).toBeLessThanOrEqual(1000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
  });

  it('does not keep an entry larger than an eighth of it', () => {
    const cache = new RenderCache(800);
    cache.set('big', bytes(200));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });
});

describe('the render rate limiter', () => {
  it('counts per key in one-minute windows and says how long to wait', () => {
    let now = 1_000_000;
    const limiter = new RenderRateLimiter(2, () => now);
    expect(limiter.take('user:a')).toBeUndefined();
    expect(limiter.take('user:a')).toBeUndefined();
    now += 15_000;
    expect(limiter.take('user:a')).toBe(45);
    expect(limiter.take('user:b')).toBeUndefined();
    now += 45_000;
    expect(limiter.take('user:a')).toBeUndefined();
  });
});

describe('sniffing image bytes', () => {
  const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));
  const box = (brands: string) => {
    const body = ascii(`ftyp${brands}`);
    return new Uint8Array([0, 0, 0, body.length + 4, ...body]);
  };

  it('knows the five formats by their first bytes, and nothing else', () => {
    expect(sniffImage(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(
      'png',
    );
    expect(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImage(new Uint8Array(ascii('GIF89a')))).toBe('gif');
    expect(sniffImage(new Uint8Array(ascii('RIFF\0\0\0\0WEBPVP8 ')))).toBe('webp');
    expect(sniffImage(box('avif\0\0\0\0mif1miaf'))).toBe('avif');
    expect(sniffImage(box('mif1\0\0\0\0mif1avif'))).toBe('avif');
    expect(sniffImage(box('heic\0\0\0\0mif1heic'))).toBeUndefined();
    expect(sniffImage(new Uint8Array(ascii('<svg xmlns="http://www.w3.org/2000/svg">')))).toBe(
      undefined,
    );
    expect(sniffImage(new Uint8Array(ascii('<?xml version="1.0"?><svg/>')))).toBeUndefined();
    expect(sniffImage(new Uint8Array([]))).toBeUndefined();
  });
});
