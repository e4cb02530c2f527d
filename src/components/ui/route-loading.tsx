/** Shown while a page's code loads. */
export function RouteLoading() {
  return (
    <div role="status" aria-live="polite" className="flex min-h-[60vh] items-center justify-center">
      <p className="text-base font-medium text-ink-600">Loading...</p>
    </div>
  );
}
