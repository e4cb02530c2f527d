import { StrictMode, useEffect, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { Toaster } from '@/components/ui/toaster';
import { markAppStarted } from '@/lib/app-started';
import { AppRoutes } from './router';

/** Marks the app started (and `<html data-ready>`) once it has hydrated or rendered. */
function ReadyMarker() {
  useEffect(() => markAppStarted(), []);
  return null;
}

/** What wraps every page, in the browser and when prerendering. */
export function AppShell({ children }: { children: ReactNode }) {
  return (
    <StrictMode>
      {children}
      <Toaster />
      <ReadyMarker />
    </StrictMode>
  );
}

export function App() {
  return (
    <AppShell>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppShell>
  );
}
