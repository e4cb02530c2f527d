import { CircleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** A failed load: what could not be shown, in a sentence, and a way to try again. */
export function QueryError({
  what,
  onRetry,
  isRetrying = false,
}: {
  /** Completes "We could not load …": 'the calls', 'the key figures'. */
  what: string;
  onRetry: () => void;
  isRetrying?: boolean;
}) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-danger-200 bg-danger-50 px-4 py-3 text-sm text-danger-800"
    >
      <p className="flex items-start gap-2">
        <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          We could not load {what}. Check your connection and try again; nothing you saved is lost.
        </span>
      </p>
      <Button
        variant="secondary"
        onClick={onRetry}
        disabled={isRetrying}
        aria-busy={isRetrying || undefined}
      >
        {isRetrying ? 'Trying again…' : 'Try again'}
      </Button>
    </div>
  );
}
