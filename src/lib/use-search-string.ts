import { useSyncExternalStore } from 'react';

/**
 * The page's query string as a store: '' on the server and while hydrating
 * (as the prerendered HTML was made), then the real one. `replaceSearch`
 * rewrites it in place (no history entry, no navigation) and notifies readers.
 */

const SEARCH_CHANGED = 'cervana:search-changed';

function subscribe(onChange: () => void) {
  window.addEventListener('popstate', onChange);
  window.addEventListener(SEARCH_CHANGED, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(SEARCH_CHANGED, onChange);
  };
}

export function useSearchString(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.search,
    () => '',
  );
}

export function replaceSearch(params: URLSearchParams): void {
  const query = params.toString();
  const url = `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`;
  window.history.replaceState(window.history.state, '', url);
  window.dispatchEvent(new Event(SEARCH_CHANGED));
}
