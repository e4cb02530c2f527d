import type { Context } from 'hono';
import type { JWTPayload } from 'jose';
import { isApiRole, type ApiRole } from '../db/request-context';
import { JwtVerificationError, type KeyRing } from '../keys/key-ring';
import { RestError, restErrors } from './errors';

/**
 * Who a data request runs as (contract §6.3): the verified JWT's `role`, or
 * `anon` without a token. The bearer token wins; without one, an `apikey`
 * JWT (as the gateway passes it) is used.
 */

export interface RequestRole {
  role: ApiRole;
  claims: Record<string, unknown>;
  isAuthenticated: boolean;
}

interface Cached {
  claims: JWTPayload;
  expiresAt: number;
}

/** Verified tokens, by their text: one signature check per token, not per request (shared with /storage/v1). */
const MAX_CACHED = 2000;
const verified = new Map<string, Cached>();

export async function verifyCached(ring: KeyRing, token: string): Promise<JWTPayload> {
  const now = Date.now();
  const hit = verified.get(token);
  if (hit && hit.expiresAt > now) return hit.claims;
  const claims = await ring.verify(token);
  const expiresAt = typeof claims.exp === 'number' ? claims.exp * 1000 : now + 5 * 60_000;
  if (verified.size >= MAX_CACHED) verified.delete(verified.keys().next().value!);
  verified.set(token, { claims, expiresAt: Math.min(expiresAt, now + 10 * 60_000) });
  return claims;
}

function tokenOf(c: Context): string | undefined {
  const header = c.req.header('authorization');
  if (header !== undefined) {
    const match = /^Bearer\s+(.*)$/i.exec(header.trim());
    if (!match) return undefined;
    const token = match[1]!.trim();
    if (token === '') throw restErrors.jwt('Empty JWT is sent in Authorization header');
    return token;
  }
  const apikey = c.req.header('apikey');
  // Only a JWT apikey carries a role; opaque keys (sb_publishable_…) mean anon.
  return apikey && apikey.split('.').length === 3 ? apikey : undefined;
}

export async function requestRole(c: Context, ring: KeyRing): Promise<RequestRole> {
  const token = tokenOf(c);
  if (!token) return { role: 'anon', claims: { role: 'anon' }, isAuthenticated: false };
  const parts = token.split('.');
  if (parts.length !== 3) throw restErrors.jwt(`Expected 3 parts in JWT; got ${parts.length}`);
  let claims: JWTPayload;
  try {
    claims = await verifyCached(ring, token);
  } catch (error) {
    if (!(error instanceof JwtVerificationError)) throw error;
    switch (error.reason) {
      case 'expired':
        throw restErrors.jwt('JWT expired', 'PGRST303');
      case 'claims':
        throw restErrors.jwt('Parsing claims failed', 'PGRST303');
      case 'unknown-key':
      case 'signature':
        throw restErrors.jwt('No suitable key or wrong key type');
      default:
        throw restErrors.jwt('JWT cryptographic operation failed');
    }
  }
  const role = typeof claims.role === 'string' && claims.role !== '' ? claims.role : 'anon';
  if (!isApiRole(role)) {
    throw new RestError(401, '22023', `role "${role}" does not exist`, null, null, {
      'WWW-Authenticate': 'Bearer',
    });
  }
  return { role, claims: { ...claims, role }, isAuthenticated: role !== 'anon' };
}
