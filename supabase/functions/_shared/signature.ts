/**
 * The `X-Cervana-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256>`.
 * During a secret rotation a sender may put several `v1=` values (one per
 * secret); a request verifies when any of them does. Unknown schemes (v0=, …)
 * are ignored, as Stripe-style signature headers do.
 */

export interface ParsedSignature {
  /** The `t` value, digits only. */
  timestamp: string;
  /** The `v1` values, lower-case hex. */
  signatures: string[];
}

/** At most this many v1 values are checked. */
export const MAX_SIGNATURES = 8;

/** The header's parts, or null when it is missing or malformed. */
export function parseSignatureHeader(header: string | null): ParsedSignature | null {
  if (header === null || header.length > 2048) return null;
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const item = part.trim();
    const equals = item.indexOf('=');
    if (equals <= 0) return null;
    const key = item.slice(0, equals);
    const value = item.slice(equals + 1);
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return null;
      timestamp = value;
    } else if (key === 'v1') {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) return null;
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === undefined || signatures.length === 0 || signatures.length > MAX_SIGNATURES) {
    return null;
  }
  return { timestamp, signatures };
}
