/**
 * Whether the app has finished its first render (hydration of a prerendered
 * page, or the first client render). Components mounted before then are part
 * of the initial page; those mounted later came with a client-side navigation.
 */
let hasStarted = false;

export function markAppStarted(): void {
  hasStarted = true;
  document.documentElement.dataset.ready = 'true';
}

export function isAppStarted(): boolean {
  return hasStarted;
}
