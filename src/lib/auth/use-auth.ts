import { useEffect, useSyncExternalStore } from 'react';
import {
  getAuthState,
  getServerAuthState,
  hasStoredSession,
  startAuth,
  subscribeToAuth,
  type AuthState,
} from './auth-store';

/**
 * The current auth state. `start: 'always'` (the default) starts the client;
 * `'if-stored'` only when this browser holds a session, so a signed-out visitor
 * of a marketing page loads nothing.
 */
export function useAuth(options: { start?: 'always' | 'if-stored' } = {}): AuthState {
  const start = options.start ?? 'always';
  const auth = useSyncExternalStore(subscribeToAuth, getAuthState, getServerAuthState);
  useEffect(() => {
    if (start === 'always' || hasStoredSession()) void startAuth().catch(() => undefined);
  }, [start]);
  return auth;
}
