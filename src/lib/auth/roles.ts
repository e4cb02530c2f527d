import type { Session, User } from '@supabase/supabase-js';
import { paths } from '@/config/paths';

/**
 * Roles come from `app_metadata.role`, which only the server and admins can
 * change; anyone else signed in is a customer.
 */
export type Role = 'admin' | 'partner' | 'customer';

export function roleOf(user: Pick<User, 'app_metadata'> | null | undefined): Role {
  const role: unknown = user?.app_metadata?.role;
  return role === 'admin' || role === 'partner' ? role : 'customer';
}

/** Where a user lands after signing in when nothing else was asked for. */
export function homePathFor(role: Role): string {
  switch (role) {
    case 'admin':
      return paths.admin;
    case 'partner':
      return paths.partnerPortal;
    case 'customer':
      return paths.dashboard;
  }
}

/** The access token's claims, decoded without verification (the server verifies it on use). */
export function claimsOf(session: Pick<Session, 'access_token'> | null): Record<string, unknown> {
  const payload = session?.access_token.split('.')[1];
  if (!payload) return {};
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = new TextDecoder().decode(
      Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (character) =>
        character.charCodeAt(0),
      ),
    );
    const claims: unknown = JSON.parse(json);
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Signed in with a password or link only, while the account has a verified second factor. */
export function needsSecondFactor(session: Session | null): boolean {
  if (!session) return false;
  const hasVerifiedFactor = (session.user.factors ?? []).some(
    (factor) => factor.status === 'verified',
  );
  return hasVerifiedFactor && claimsOf(session).aal !== 'aal2';
}

/**
 * A `?next=` target that stays on this site: a path, never `//host` or a URL,
 * and never the auth page itself.
 */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\'))
    return null;
  if (next === paths.auth || next.startsWith(`${paths.auth}?`)) return null;
  return next;
}
