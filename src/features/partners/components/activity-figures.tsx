import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import type { PartnerSummary } from '../model/summary';

/** Visits, leads, demo bookings and won deals in the period, with the all-time count beside. */
export function ActivityFigures({
  summary,
  isUpdating,
}: {
  summary: PartnerSummary;
  /** Dims the last figures while another period loads. */
  isUpdating: boolean;
}) {
  const { period, all_time: allTime } = summary;
  const figures = [
    { label: 'Visits', value: period.clicks, note: `${allTime.clicks} since you joined` },
    { label: 'Leads', value: period.leads, note: `${allTime.leads} since you joined` },
    {
      label: 'Demo bookings',
      value: period.bookings,
      note: `${allTime.bookings} since you joined`,
    },
    { label: 'Won deals', value: period.won, note: 'Referrals that became customers' },
  ];
  return (
    <div className="grid gap-3">
      <dl
        aria-busy={isUpdating || undefined}
        className={cn(
          'grid grid-cols-2 gap-3 transition-opacity sm:gap-4 lg:grid-cols-4',
          isUpdating && 'opacity-60',
        )}
      >
        {figures.map((figure) => (
          <div
            key={figure.label}
            className="flex flex-col gap-1 rounded-2xl border border-sand-200 bg-white p-4 sm:p-5"
          >
            <dt className="text-sm font-semibold text-ink-600">{figure.label}</dt>
            <dd className="text-3xl font-bold tracking-tight text-ink-900 tabular-nums">
              {figure.value}
            </dd>
            <dd className="text-xs text-ink-600">{figure.note}</dd>
          </div>
        ))}
      </dl>
      <Link
        to={paths.partnerReferrals}
        className="inline-flex w-fit items-center gap-1 text-sm font-semibold text-azure-700 hover:underline"
      >
        See every referral and its status
        <ArrowRight aria-hidden="true" className="size-4" />
      </Link>
    </div>
  );
}
