import type { Context } from 'hono';
import { isApiRole, type RequestContext } from '../db/request-context';
import { clientIp, type TrustProxy } from '../http/client-ip';
import { sqlHeadersJson } from '../http/sql-headers';
import { JwtVerificationError, type KeyRing } from '../keys/key-ring';
import { verifyCached } from '../rest/request-role';
import { StorageError, storageErrors } from './errors';

/**
 * Who a storage request runs as. Supabase Storage reads the bearer token (the
 * official storage tests send no apikey at all), else a JWT apikey; a request
 * with neither is refused. Database work then runs as that role with the claims
 * set, so row-level security on storage.buckets and storage.objects decides.
 */
export interface Caller {
  role: RequestContext['role'];
  claims: Record<string, unknown>;
  /** The token's `sub`: what uploads record as owner. */
  owner: string | undefined;
}

function tokenOf(c: Context): string | undefined {
  const header = c.req.header('authorization');
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
    if (!match) throw storageErrors.accessDenied(VERIFY_MESSAGES.malformed);
    return match[1]!;
  }
  const apikey = c.req.header('apikey');
  return apikey && apikey.split('.').length === 3 ? apikey : undefined;
}

/** Supabase Storage's words (it verifies with jose, as we do). */
const VERIFY_MESSAGES: Record<JwtVerificationError['reason'], string> = {
  malformed: 'Invalid Compact JWS',
  expired: '"exp" claim timestamp check failed',
  signature: 'signature verification failed',
  'unknown-key': 'no applicable key found in the JSON Web Key Set',
  claims: 'JWT claims validation failed',
};

export async function callerOf(c: Context, ring: KeyRing): Promise<Caller> {
  const token = tokenOf(c);
  // As Supabase Storage: a request without any token is refused (the client
  // always sends the anon key at least); public and signed URLs need none.
  if (token === undefined) throw storageErrors.accessDenied(VERIFY_MESSAGES.malformed);
  let claims: Record<string, unknown>;
  try {
    claims = await verifyCached(ring, token);
  } catch (error) {
    if (error instanceof JwtVerificationError) {
      throw storageErrors.accessDenied(VERIFY_MESSAGES[error.reason]);
    }
    throw error;
  }
  const role = typeof claims.role === 'string' && claims.role !== '' ? claims.role : 'anon';
  if (!isApiRole(role)) {
    throw new StorageError(
      403,
      'AccessDenied',
      `role "${role}" is not allowed`,
      'Unauthorized',
      403,
    );
  }
  return {
    role,
    claims: { ...claims, role },
    owner: typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : undefined,
  };
}

/**
 * The transaction settings for a caller's request, with the caller's address
 * (`TRUST_PROXY` decides whether a proxy's header gives it) as the REST API does.
 */
export function requestContextOf(
  c: Context,
  caller: Caller,
  trustProxy: TrustProxy = false,
): RequestContext {
  const address = clientIp(c, trustProxy);
  return {
    role: caller.role,
    claims: caller.claims,
    method: c.req.method,
    path: new URL(c.req.url).pathname,
    headers: {},
    headersJson: sqlHeadersJson(c, address),
    clientIp: address,
    searchPath: 'storage, public, extensions',
  };
}
