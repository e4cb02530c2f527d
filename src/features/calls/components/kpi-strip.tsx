import { cn } from '@/lib/cn';
import { formatDollars } from '../model/kpi-cards';
import {
  describeDurationLong,
  formatCount,
  formatDuration,
  formatRate,
  savingsOf,
  type EstimateSavings,
  type KpiSet,
} from '../model/kpis';

/**
 * The key figures of exactly the calls in the table (same period, same
 * filters, same database function), in one compact line.
 */
export function KpiStrip({
  kpis,
  estimate,
  isUpdating,
}: {
  kpis: KpiSet;
  estimate: EstimateSavings;
  isUpdating: boolean;
}) {
  const items = [
    { label: 'Calls', value: formatCount(kpis.calls) },
    { label: 'Answered', value: formatCount(kpis.answered) },
    { label: 'Resolution rate', value: formatRate(kpis.resolution_rate) },
    {
      label: 'Average handle time',
      value: formatDuration(kpis.avg_handle_seconds),
      spoken: describeDurationLong(kpis.avg_handle_seconds),
    },
    { label: 'Hand-offs to a CSM', value: formatCount(kpis.escalated) },
    { label: 'Estimated savings', value: formatDollars(savingsOf(kpis, estimate)) },
  ];
  return (
    <dl
      aria-label="Key figures of these calls"
      aria-busy={isUpdating || undefined}
      className={cn(
        'grid grid-cols-2 gap-px overflow-hidden rounded-2xl border border-sand-200 bg-sand-200 transition-opacity sm:grid-cols-3 lg:grid-cols-6',
        isUpdating && 'opacity-60',
      )}
    >
      {items.map((item) => (
        <div key={item.label} className="bg-white px-4 py-3">
          <dt className="text-xs font-semibold text-ink-600">{item.label}</dt>
          <dd className="mt-0.5 text-lg font-bold text-ink-900 tabular-nums">
            {item.spoken ? (
              <>
                <span aria-hidden="true">{item.value}</span>
                <span className="sr-only">{item.spoken}</span>
              </>
            ) : (
              item.value
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
