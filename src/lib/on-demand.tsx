import { use, type ComponentType, type ReactNode } from 'react';

/**
 * Components whose code loads on demand. Unlike React.lazy, the module promise
 * carries `status`/`value` as React's `use()` reads them, so a component whose
 * code is already here renders at once. Prerendering relies on that: it loads
 * every module first, so the HTML comes out complete and in order, with no
 * out-of-order segments for inline scripts to move.
 */

export type ComponentLoader = () => Promise<{ default: ComponentType }>;

interface TrackedPromise<T> extends Promise<T> {
  status?: 'pending' | 'fulfilled' | 'rejected';
  value?: T;
  reason?: unknown;
}

const modules = new Map<ComponentLoader, TrackedPromise<ComponentType>>();

export function loadComponent(loader: ComponentLoader): TrackedPromise<ComponentType> {
  let loading = modules.get(loader);
  if (!loading) {
    const tracked: TrackedPromise<ComponentType> = loader().then((module) => module.default);
    // `pending` is React's to set: a thenable that already has a status is one it will not instrument.
    tracked.then(
      (value) => {
        tracked.status = 'fulfilled';
        tracked.value = value;
      },
      (reason: unknown) => {
        // Kept: React renders again once the load settles, and must then meet this failure
        // (for an error boundary to show) rather than start another load and suspend again.
        tracked.status = 'rejected';
        tracked.reason = reason;
      },
    );
    modules.set(loader, tracked);
    loading = tracked;
  }
  return loading;
}

/** Forgets the loads that failed, so the next render of their components loads again. */
export function retryFailedLoads(): void {
  for (const [loader, loading] of modules) {
    if (loading.status === 'rejected') modules.delete(loader);
  }
}

export function isLoaded(loader: ComponentLoader): boolean {
  return modules.get(loader)?.status === 'fulfilled';
}

export type OnDemandComponent = (() => ReactNode) & { preload(): Promise<ComponentType> };

/** A component that suspends until its code has loaded (wrap it in Suspense). */
export function onDemand(loader: ComponentLoader): OnDemandComponent {
  function OnDemand() {
    const Component = use(loadComponent(loader) as Promise<ComponentType>);
    return <Component />;
  }
  OnDemand.preload = () => loadComponent(loader);
  return OnDemand;
}
