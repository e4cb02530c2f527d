import { Suspense, lazy } from 'react';
import { useHydrated } from '@/lib/use-hydrated';

/** At most three toasts on screen at once. */
export const VISIBLE_TOASTS = 3;

const SonnerToaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

/** The toast outlet, loaded once the page has hydrated so it never delays first paint. */
export function Toaster() {
  const isHydrated = useHydrated();
  if (!isHydrated) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster visibleToasts={VISIBLE_TOASTS} position="bottom-right" closeButton />
    </Suspense>
  );
}
