import { cn } from '@/lib/cn';
import type { LeadsLiveState } from '../api/leads-live';

const STATES = {
  connecting: { label: 'Connecting to live updates…', dot: 'bg-sand-500' },
  live: { label: 'Live', dot: 'bg-mint-600' },
  reconnecting: { label: 'Live updates paused, reconnecting…', dot: 'bg-danger-700' },
} as const;

/** Whether new and changed leads arrive on their own; the dot's colour repeats the words. */
export function LeadLiveIndicator({ state }: { state: LeadsLiveState }) {
  const { label, dot } = STATES[state];
  return (
    <p
      role="status"
      className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-medium text-ink-700 ring-1 ring-sand-200 ring-inset"
    >
      <span aria-hidden="true" className={cn('inline-flex size-2.5 rounded-full', dot)} />
      {label}
    </p>
  );
}
