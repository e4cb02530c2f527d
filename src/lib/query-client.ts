import { QueryClient } from '@tanstack/react-query';

/**
 * App data is fresh for 5 minutes and dropped from memory 10 minutes after its
 * last use. While prerendering nothing is collected (as TanStack Query does on
 * a server by default): a collection timer would keep the build from exiting.
 */
export const STALE_TIME_MS = 5 * 60 * 1000;
export const GC_TIME_MS = 10 * 60 * 1000;

/**
 * The data API's answer to a token whose session has ended: signed out
 * elsewhere, banned, or given another role by an admin (decision 025).
 * Retrying cannot help; the data provider sends the visitor to sign in.
 */
export function isEndedSession(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'PGRST303'
  );
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: STALE_TIME_MS,
        gcTime: typeof window === 'undefined' ? Infinity : GC_TIME_MS,
        refetchOnWindowFocus: false,
        retry: (failures, error) => !isEndedSession(error) && failures < 3,
      },
    },
  });
}

let browserClient: QueryClient | undefined;

/** The one client of the page, shared by every data route so the cache survives navigation. */
export function getQueryClient(): QueryClient {
  browserClient ??= createQueryClient();
  return browserClient;
}

/** Drops every cached query (e.g. on sign-out); nothing to do before the first data page. */
export function clearQueryCache(): void {
  browserClient?.clear();
}
