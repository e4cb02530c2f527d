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

/**
 * Fixed one-minute windows per key (`user:<id>` or `network:<address>`).
 *
 * The map is kept in the order the windows started (a key whose window starts
 * again is deleted and set anew, so it moves to the end), so the expired
 * windows are always at its front: each call drops them from there, stopping
 * at the first live one, which costs nothing when there are none.
 *
 * At most `maxKeys` windows live at once. A key beyond them (that many
 * distinct users or networks rendering within one minute: in practice someone
 * cycling addresses, e.g. through the 2^64 networks of an IPv6 /48) is
 * refused, with the wait until the oldest window ends, rather than sharing a
 * coarser key: that shared key would be exhausted by the same flood at once,
 * refusing every newcomer all the same, while known keys here keep their own
 * counts. Memory stays bounded (about 150 bytes a key) and every call is O(1)
 * amortized.
 */
export class RenderRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private static readonly WINDOW_MS = 60_000;
  /** The most windows kept at once, by default. */
  static readonly MAX_KEYS = 20_000;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys: number = RenderRateLimiter.MAX_KEYS,
  ) {}

  /** The seconds to wait when `key` may not render now, else undefined; counts nothing. */
  check(key: string): number | undefined {
    return this.admit(key, false);
  }

  /** Counts one render for `key`; the seconds to wait when over the limit, else undefined. */
  take(key: string): number | undefined {
    return this.admit(key, true);
  }

  /** How many keys are counted now. */
  get size(): number {
    return this.windows.size;
  }

  private admit(key: string, count: boolean): number | undefined {
    const now = this.now();
    const windowMs = RenderRateLimiter.WINDOW_MS;
    this.prune(now);
    let window = this.windows.get(key);
    if (!window) {
      if (this.windows.size >= this.maxKeys) {
        const oldest = this.windows.values().next().value!;
        return Math.max(1, Math.ceil((oldest.start + windowMs - now) / 1000));
      }
      if (!count) return undefined;
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    if (window.count >= this.perMinute) {
      return Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
    }
    if (count) window.count += 1;
    return undefined;
  }

  /** Drops the expired windows, all at the front of the map. */
  private prune(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.start < RenderRateLimiter.WINDOW_MS) break;
      this.windows.delete(key);
    }
  }
}

/**
 * Renders in flight (queued, or holding a slot) per key: one caller may not
 * take every slot and the queue. Entries go when their count is back to 0.
 */
export class RenderInFlight {
  private readonly counts = new Map<string, number>();

  constructor(private readonly perKey: number) {}

  /** Counts one more render for `key`, or false when it already has `perKey`. */
  enter(key: string): boolean {
    const count = this.counts.get(key) ?? 0;
    if (count >= this.perKey) return false;
    this.counts.set(key, count + 1);
    return true;
  }

  leave(key: string): void {
    const count = (this.counts.get(key) ?? 0) - 1;
    if (count > 0) this.counts.set(key, count);
    else this.counts.delete(key);
  }

  /** Renders in flight for `key`. */
  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  /** Keys with renders in flight. */
  get size(): number {
    return this.counts.size;
  }
}
