import { cn } from '@/lib/cn';
import type { CallsLive } from '../api/use-calls-live';

const STATES = {
  connecting: { label: 'Connecting to live updates…', dot: 'bg-sand-500' },
  live: { label: 'Live', dot: 'bg-mint-600' },
  reconnecting: { label: 'Live updates paused, reconnecting…', dot: 'bg-danger-700' },
} as const;

/**
 * Whether calls arrive on their own, and a short note when one just did.
 * Both are announced politely; the dot's colour only repeats the words.
 */
export function LiveIndicator({ live }: { live: CallsLive }) {
  const { label, dot } = STATES[live.state];
  const newCount = live.newCallIds.length;
  return (
    <div role="status" className="flex flex-wrap items-center gap-2 text-sm">
      <span className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 font-medium text-ink-700 ring-1 ring-sand-200 ring-inset">
        <span className="relative flex size-2.5" aria-hidden="true">
          {live.state === 'live' ? (
            <span className="absolute inline-flex size-full animate-ping rounded-full bg-mint-400 opacity-60 motion-reduce:hidden" />
          ) : null}
          <span className={cn('relative inline-flex size-2.5 rounded-full', dot)} />
        </span>
        {label}
      </span>
      {newCount > 0 ? (
        <span className="rounded-full bg-azure-700 px-3 py-1 font-semibold text-white">
          {newCount === 1 ? 'New call just in' : `${newCount} new calls just in`}
        </span>
      ) : null}
    </div>
  );
}
