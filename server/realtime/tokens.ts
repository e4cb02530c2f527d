import { decodeJwt } from 'jose';
import { isApiRole } from '../db/request-context';
import { JwtVerificationError, type KeyRing } from '../keys/key-ring';
import { verifyCached } from '../rest/request-role';
import type { ChannelAuth } from './types';

/**
 * Access tokens on the socket and its channels, checked as Supabase Realtime
 * checks them (`confirm_token`): signature, expiry, and the `role` and `exp`
 * claims it requires, with its messages.
 */

export type TokenCheck =
  | { ok: true; auth: ChannelAuth; expiresAt: number; sessionId: string | undefined }
  | { ok: false; message: string };

export const MISSING_CLAIMS = 'Fields `role` and `exp` are required in JWT';

export async function checkToken(ring: KeyRing, token: string): Promise<TokenCheck> {
  const cleaned = token.replace(/\s/g, '');
  if (cleaned.split('.').length !== 3) {
    return { ok: false, message: 'The token provided is not a valid JWT' };
  }
  let claims: Record<string, unknown>;
  try {
    claims = (await verifyCached(ring, cleaned)) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof JwtVerificationError)) throw error;
    switch (error.reason) {
      case 'expired': {
        let exp: unknown;
        try {
          exp = decodeJwt(cleaned).exp;
        } catch {
          exp = undefined;
        }
        const ago = typeof exp === 'number' ? Math.max(0, Math.floor(Date.now() / 1000) - exp) : 0;
        return { ok: false, message: `Token has expired ${ago} seconds ago` };
      }
      case 'malformed':
        return { ok: false, message: 'The token provided is not a valid JWT' };
      case 'claims':
        return { ok: false, message: MISSING_CLAIMS };
      default:
        return { ok: false, message: 'Failed to validate JWT signature' };
    }
  }
  if (typeof claims.role !== 'string' || typeof claims.exp !== 'number') {
    return { ok: false, message: MISSING_CLAIMS };
  }
  if (!isApiRole(claims.role)) {
    return { ok: false, message: `The role "${claims.role}" in the token is not an API role` };
  }
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : undefined;
  return {
    ok: true,
    auth: { role: claims.role, claims },
    expiresAt: claims.exp * 1000,
    sessionId,
  };
}
