import { Suspense, lazy, useEffect, useSyncExternalStore } from 'react';
import type { ExternalToast } from 'sonner';

/**
 * Toasts: at most three on screen at once. The toast library loads with the
 * first toast, not with the page: `showToast()` mounts the outlet, waits for
 * it, then shows the message.
 */

export const VISIBLE_TOASTS = 3;

export type ToastKind = 'message' | 'success' | 'error' | 'info' | 'warning';

let isRequested = false;
const listeners = new Set<() => void>();
let markMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => (markMounted = resolve));

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Phones put a page's actions at the bottom of the screen (a form's save, a
 * note's button), where a full-width toast would sit over them; there toasts
 * come in at the top, above the content, and on wider screens bottom right.
 */
const PHONE = '(max-width: 639px)';

function subscribeToWidth(listener: () => void) {
  const query = window.matchMedia?.(PHONE);
  query?.addEventListener('change', listener);
  return () => query?.removeEventListener('change', listener);
}

const SonnerToaster = lazy(async () => {
  const { Toaster: Sonner } = await import('sonner');
  function MountedToaster() {
    useEffect(markMounted, []);
    const isPhone = useSyncExternalStore(
      subscribeToWidth,
      () => window.matchMedia?.(PHONE).matches ?? false,
      () => false,
    );
    return (
      <Sonner
        visibleToasts={VISIBLE_TOASTS}
        position={isPhone ? 'top-center' : 'bottom-right'}
        closeButton
      />
    );
  }
  return { default: MountedToaster };
});

/** Where toasts appear; renders nothing until the first toast is asked for. */
export function Toaster() {
  const isShown = useSyncExternalStore(
    subscribe,
    () => isRequested,
    () => false,
  );
  if (!isShown) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster />
    </Suspense>
  );
}

export async function showToast(
  kind: ToastKind,
  message: string,
  options?: ExternalToast,
): Promise<void> {
  if (!isRequested) {
    isRequested = true;
    for (const listener of listeners) listener();
  }
  const [{ toast }] = await Promise.all([import('sonner'), mounted]);
  if (kind === 'message') toast(message, options);
  else toast[kind](message, options);
}
