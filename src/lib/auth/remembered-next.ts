import { safeNextPath } from './roles';

/**
 * Where a visitor was going when they signed up: the confirmation link leads
 * to the site root (as the spec asks), possibly in a new tab, so the target is
 * kept in this browser for a day.
 */
const KEY = 'cervana:next-after-confirmation';
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

export function rememberNextPath(path: string | null): void {
  try {
    if (path) localStorage.setItem(KEY, JSON.stringify({ path, at: Date.now() }));
    else localStorage.removeItem(KEY);
  } catch {
    // Storage blocked: the role's home page will do.
  }
}

export function takeRememberedNextPath(): string | null {
  try {
    const raw = localStorage.getItem(KEY);
    localStorage.removeItem(KEY);
    if (!raw) return null;
    const { path, at } = JSON.parse(raw) as { path?: unknown; at?: unknown };
    if (typeof path !== 'string' || typeof at !== 'number' || Date.now() - at > MAX_AGE_MS)
      return null;
    return safeNextPath(path);
  } catch {
    return null;
  }
}
