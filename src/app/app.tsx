import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { createQueryClient } from '@/lib/query-client';
import { createRouter } from './router';

/** At most three toasts on screen at once. */
export const VISIBLE_TOASTS = 3;

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster visibleToasts={VISIBLE_TOASTS} position="bottom-right" closeButton />
    </QueryClientProvider>
  );
}
