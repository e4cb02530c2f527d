/**
 * Sizes as Supabase Storage reads them (`file_size_limit`, the global limit):
 * a whole number of bytes, or a number with a unit. Decimal units are powers
 * of 1000 (`20mb` = 20,000,000 bytes), binary ones of 1024 (`50MiB`).
 */

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  tb: 1000 ** 4,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};

/** Bytes for a size such as `20mb`, `1.5GB`, `512` or 512; undefined when it is not one. */
export function parseByteSize(value: string | number): number | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  }
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  if (!match) return undefined;
  const unit = match[2]!.toLowerCase() || 'b';
  const multiplier = UNITS[unit];
  if (multiplier === undefined) return undefined;
  const bytes = Math.floor(Number(match[1]) * multiplier);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}
