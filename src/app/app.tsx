import { StrictMode, useState, type ReactNode } from 'react';
import { RouterProvider } from 'react-router';
import { Toaster } from '@/components/ui/toaster';
import { createRouter } from './router';

/** What wraps every page, in the browser and when prerendering. */
export function AppShell({ children }: { children: ReactNode }) {
  return (
    <StrictMode>
      {children}
      <Toaster />
    </StrictMode>
  );
}

export function App() {
  const [router] = useState(createRouter);
  return (
    <AppShell>
      <RouterProvider router={router} />
    </AppShell>
  );
}
