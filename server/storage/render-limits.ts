/**
 * The cheap half of the image-render limits: a cache of rendered results,
 * bounded in bytes, and a count of renders per user or client network.
 * Both live in this process's memory, as the renders they protect do.
 */

export interface CachedRender {
  data: Uint8Array;
  contentType: string;
}

/**
 * Rendered images by object version and transformation, least recently used
 * first out. A key names the object's blob (a fresh one for every upload), so
 * a changed object misses, and its old renders age out. One entry may take at
 * most an eighth of the cache, so one large result cannot empty it.
 */
export class RenderCache {
  private readonly entries = new Map<string, CachedRender>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): CachedRender | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: CachedRender): void {
    const size = entry.data.byteLength + key.length;
    if (size > this.maxBytes / 8) return;
    this.delete(key);
    this.entries.set(key, entry);
    this.bytes += size;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.data.byteLength + key.length;
  }
}

/** Fixed one-minute windows per key (`user:<id>` or `network:<address>`). */
export class RenderRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private static readonly WINDOW_MS = 60_000;
  /** Past this many keys, expired windows are dropped (memory stays bounded by traffic). */
  private static readonly PRUNE_AT = 10_000;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one render for `key`; the seconds to wait when over the limit, else undefined. */
  take(key: string): number | undefined {
    const now = this.now();
    const windowMs = RenderRateLimiter.WINDOW_MS;
    let window = this.windows.get(key);
    if (!window || now - window.start >= windowMs) {
      if (this.windows.size >= RenderRateLimiter.PRUNE_AT) this.prune(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    if (window.count >= this.perMinute) {
      return Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
    }
    window.count += 1;
    return undefined;
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.start >= RenderRateLimiter.WINDOW_MS) this.windows.delete(key);
    }
  }
}
