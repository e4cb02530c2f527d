import { useEffect, useState } from 'react';
import { cn } from '@/lib/cn';
import { openingStatus, type StoredSettings } from '../model/agent-settings';

/** "Answering now (within business hours) · Closes at 17:00", kept current each minute. */
export function OpeningStatus({
  hours,
  timeZone,
}: {
  hours: StoredSettings['business_hours'];
  timeZone: string;
}) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  const status = openingStatus(hours, timeZone, now);
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-ink-700">
      <span
        aria-hidden="true"
        className={cn('size-2.5 rounded-full', status.isOpen ? 'bg-mint-600' : 'bg-sand-500')}
      />
      <span className="font-semibold text-ink-900">
        {status.isOpen ? 'Within business hours' : 'Outside business hours'}
      </span>
      <span>
        {status.next ?? 'No opening hours are set'} ({timeZone})
      </span>
    </p>
  );
}
