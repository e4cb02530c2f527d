import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { getQueryClient } from '@/lib/query-client';

/**
 * Wraps the pages that read or write data. The data library loads with those
 * pages, not with the landing page; the client is shared, so its cache survives
 * navigation between them.
 */
export function DataProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={getQueryClient()}>{children}</QueryClientProvider>;
}
