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

/** Whether the account has a verified second factor. */
export function hasVerifiedFactor(session: Session | null): boolean {
  return (session?.user.factors ?? []).some((factor) => factor.status === 'verified');
}

/** Signed in with a password or link only, while the account has a verified second factor. */
export function needsSecondFactor(session: Session | null): boolean {
  if (!session) return false;
  return hasVerifiedFactor(session) && claimsOf(session).aal !== 'aal2';
}

/**
 * An admin who has not set up a second factor yet: the database gives admin
 * data to aal2 sessions only, so the admin area asks them to enrol first.
 */
export function mustEnrolSecondFactor(session: Session | null): boolean {
  return !!session && roleOf(session.user) === 'admin' && !hasVerifiedFactor(session);
}

// Control characters (C0, DEL, C1), any whitespace, and the backslash: URL parsers drop or
// reinterpret them, so `/\t/host` or `/\\host` would be checked as one thing and followed as `//host`.
const UNSAFE_CHARACTER = /[\s\p{Cc}\\]/u;

function currentOrigin(): string {
  // Prerendering has no window; any fixed origin serves, as only relative paths pass.
  return typeof window === 'undefined' ? 'http://localhost' : window.location.origin;
}

/**
 * A `?next=` target that stays on this site, as the path to navigate to: the
 * URL as parsed and checked (path, query, fragment), never `//host` or a URL
 * elsewhere, and never the auth page itself. `null` when it is anything else.
 */
export function safeNextPath(
  next: string | null | undefined,
  origin: string = currentOrigin(),
): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || UNSAFE_CHARACTER.test(next))
    return null;
  let url: URL;
  let decodedPath: string;
  try {
    url = new URL(next, origin);
    decodedPath = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  // An encoded `/%09/host` or `/%5C/host` is no page of ours and may be decoded again on the way.
  if (decodedPath.startsWith('//') || UNSAFE_CHARACTER.test(decodedPath)) return null;
  if (url.pathname.replace(/\/+$/, '') === paths.auth) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
