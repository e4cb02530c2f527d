import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';

/** A numeric one-time code of `length` digits. */
export function generateOtp(length: number): string {
  let code = '';
  for (let index = 0; index < length; index += 1) code += String(randomInt(0, 10));
  return code;
}

/** GoTrue's token hash: hex(sha224(email or phone + code)). Links carry it; the database keeps only it. */
export function tokenHash(identifier: string, otp: string): string {
  return createHash('sha224')
    .update(identifier + otp)
    .digest('hex');
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** An opaque refresh token: 32 characters of [a-z0-9] (about 165 bits). */
export function generateRefreshToken(): string {
  const bytes = randomBytes(32);
  let token = '';
  for (const byte of bytes) token += ALPHABET[byte % ALPHABET.length];
  return token;
}

export function generateUuid(): string {
  return randomUUID();
}

/** PKCE: does this verifier match the stored challenge? */
export function matchesCodeChallenge(
  verifier: string,
  challenge: string,
  method: 's256' | 'plain',
): boolean {
  if (method === 'plain') return verifier === challenge;
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}
