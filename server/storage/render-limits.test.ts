import { describe, expect, it } from 'vitest';
import { RenderCache, RenderInFlight, RenderRateLimiter } from './render-limits';
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

  it('checks without counting', () => {
    const limiter = new RenderRateLimiter(1, () => 0);
    expect(limiter.check('user:a')).toBeUndefined();
    expect(limiter.check('user:a')).toBeUndefined();
    expect(limiter.size).toBe(0);
    expect(limiter.take('user:a')).toBeUndefined();
    expect(limiter.check('user:a')).toBe(60);
    expect(limiter.take('user:a')).toBe(60);
  });

  it('keeps at most its cap of keys, refuses new ones beyond it, and drops expired ones from the front', () => {
    // 50,000 distinct networks (an IPv6 /48's worth of /64s, say) within one minute.
    let now = 5_000_000;
    const limiter = new RenderRateLimiter(3, () => now, 10_000);
    const network = (index: number) => `network:2001:db8:${index.toString(16)}::/64`;
    let refused = 0;
    for (let index = 0; index < 50_000; index += 1) {
      if (index === 25_000) now += 30_000;
      if (limiter.take(network(index)) !== undefined) refused += 1;
      if (index % 1000 === 0) expect(limiter.size).toBeLessThanOrEqual(10_000);
    }
    expect(refused).toBe(40_000);
    expect(limiter.size).toBe(10_000);
    // A new key waits until the oldest window ends; known keys keep their counts.
    expect(limiter.take('user:new')).toBe(30);
    expect(limiter.take(network(0))).toBeUndefined();
    expect(limiter.take(network(0))).toBeUndefined();
    expect(limiter.take(network(0))).toBe(30);

    // A minute after they started, those windows are gone and new keys count again.
    now += 30_000;
    expect(limiter.take('user:new')).toBeUndefined();
    expect(limiter.size).toBe(1);
    for (let index = 0; index < 50_000; index += 1) {
      now += 2; // 100 s in all: the windows keep expiring as new ones start
      limiter.take(network(index));
    }
    expect(limiter.size).toBe(10_000);
    now += 60_000;
    expect(limiter.check('user:other')).toBeUndefined();
    expect(limiter.size).toBe(0);
  });

  it('moves a key whose window starts again to the end, so pruning stops at the first live window', () => {
    let now = 0;
    const limiter = new RenderRateLimiter(5, () => now);
    limiter.take('a');
    now += 10_000;
    limiter.take('b');
    now += 55_000; // a expired, b live
    limiter.take('a'); // a starts again: now after b
    expect(limiter.size).toBe(2);
    now += 10_000; // b expired (75 s), a live (10 s)
    limiter.check('c');
    expect(limiter.size).toBe(1);
    expect(limiter.take('a')).toBeUndefined();
  });
});

describe('renders in flight per key', () => {
  it('admits up to the cap per key and forgets keys back at zero', () => {
    const inFlight = new RenderInFlight(2);
    expect(inFlight.enter('user:a')).toBe(true);
    expect(inFlight.enter('user:a')).toBe(true);
    expect(inFlight.enter('user:a')).toBe(false);
    expect(inFlight.enter('user:b')).toBe(true);
    inFlight.leave('user:a');
    expect(inFlight.enter('user:a')).toBe(true);
    inFlight.leave('user:a');
    inFlight.leave('user:a');
    inFlight.leave('user:b');
    expect(inFlight.size).toBe(0);
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
