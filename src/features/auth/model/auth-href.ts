import { paths } from '@/config/paths';

export type AuthMode = 'sign-in' | 'sign-up' | 'code' | 'forgot' | 'reset';

export function parseAuthMode(value: string | null): AuthMode {
  return value === 'sign-up' || value === 'code' || value === 'forgot' || value === 'reset'
    ? value
    : 'sign-in';
}

/** A link to a step of /auth that keeps where the visitor was going. */
export function authHref(mode: AuthMode, next: string | null): string {
  const query = new URLSearchParams();
  if (mode !== 'sign-in') query.set('mode', mode);
  if (next) query.set('next', next);
  const search = query.toString();
  return search ? `${paths.auth}?${search}` : paths.auth;
}
