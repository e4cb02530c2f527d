import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { startAuth } from '@/lib/auth/auth-store';
import { getQueryClient, isEndedSession } from '@/lib/query-client';

/**
 * Asks the auth server about the session: when it has ended, the official
 * client removes it and reports SIGNED_OUT, and the route guard sends the
 * visitor to sign in.
 */
function checkSession(error: unknown): void {
  if (!isEndedSession(error)) return;
  void startAuth()
    .then((supabase) => supabase.auth.getUser())
    .catch(() => undefined);
}

/**
 * Wraps the pages that read or write data. The data library loads with those
 * pages, not with the landing page; the client is shared, so its cache survives
 * navigation between them.
 */
export function DataProvider({ children }: { children: ReactNode }) {
  const client = getQueryClient();
  useEffect(() => {
    const stopQueries = client.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') {
        checkSession(event.action.error);
      }
    });
    const stopMutations = client.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') {
        checkSession(event.action.error);
      }
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [client]);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
