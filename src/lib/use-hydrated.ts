import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => undefined;

/** False while rendering on the server and hydrating; true afterwards (no hydration mismatch). */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
