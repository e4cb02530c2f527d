import { Info } from 'lucide-react';
import { useSearchParams } from 'react-router';

/** On /demo: why the visitor is here instead of in the scheduling popup. */
export function SchedulerFallbackNotice() {
  const [params] = useSearchParams();
  if (params.get('scheduler') !== 'unavailable') return null;
  return (
    <div
      role="status"
      className="mx-auto mb-10 flex max-w-3xl gap-3 rounded-2xl bg-azure-50 p-4 text-left text-ink-800 ring-1 ring-azure-100"
    >
      <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-azure-700" />
      <p>
        <strong className="font-semibold">The scheduling window could not open</strong> (it may be
        blocked or offline), so you are on our own booking page instead. It books the same 30-minute
        demo.
      </p>
    </div>
  );
}
