import { storageErrors } from './errors';

/**
 * Bucket ids and object keys, checked at the edge. The characters are
 * Supabase Storage's (S3's safe set), so anything stored here moves to a
 * hosted project unchanged. On top of that we refuse what could ever be read
 * as a path: `.`/`..` segments, empty segments, a leading slash, control
 * characters, and keys over 1,024 bytes. Keys never become file paths or S3
 * keys (blobs have keys of their own), so this is defence in depth.
 */

const BUCKET_CHARACTERS = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]+$/;
const KEY_CHARACTERS = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]+$/;
export const MAX_KEY_BYTES = 1024;

export function isValidBucketId(id: unknown): id is string {
  return (
    typeof id === 'string' &&
    id.length > 0 &&
    id.length <= 100 &&
    BUCKET_CHARACTERS.test(id) &&
    id !== '.' &&
    id !== '..'
  );
}

export function assertBucketId(id: unknown): asserts id is string {
  if (!isValidBucketId(id)) throw storageErrors.invalidBucketName();
}

export function isValidKey(key: unknown): key is string {
  if (typeof key !== 'string' || key.length === 0) return false;
  if (Buffer.byteLength(key) > MAX_KEY_BYTES || !KEY_CHARACTERS.test(key)) return false;
  return key.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

export function assertKey(key: unknown): asserts key is string {
  if (!isValidKey(key)) {
    // Name the key, but never echo control characters back.
    const shown =
      typeof key === 'string'
        ? [...key].map((ch) => (ch < ' ' || ch === '\u007f' ? '?' : ch)).join('')
        : '';
    throw storageErrors.invalidKey(shown.slice(0, 200));
  }
}

/** `bucket/key...` from the part of a URL path after a route prefix, decoded. */
export function splitObjectPath(rest: string): { bucketId: string; key: string } {
  const slash = rest.indexOf('/');
  const bucketId = decode(slash === -1 ? rest : rest.slice(0, slash));
  const key = slash === -1 ? '' : decode(rest.slice(slash + 1));
  assertBucketId(bucketId);
  assertKey(key);
  return { bucketId, key };
}

export function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw storageErrors.invalidKey(segment.slice(0, 200));
  }
}

/** The part of a key after its last `/`. */
export function baseName(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}
