import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { useCallTrends } from '../api/call-trends';
import { browserTimeZone, type CallsQueryArgs } from '../model/filters';
import { formatCount, formatRate } from '../model/kpis';
import { callsOfDay, type TrendDay } from '../model/trends';
import { CallsPerDayChart } from './calls-per-day-chart';
import { TrendsSkeleton } from './calls-skeletons';
import { QueryError } from '@/components/data/query-error';
import { ResolutionRateChart } from './resolution-rate-chart';

function rateOf(days: TrendDay[]): number | null {
  const resolved = days.reduce((sum, day) => sum + day.resolved, 0);
  const answered = days.reduce((sum, day) => sum + day.resolved + day.escalated + day.voicemail, 0);
  return answered === 0 ? null : resolved / answered;
}

/** Calls per day by outcome, and the resolution rate per day, for the period. */
export function TrendsSection({
  args,
  periodLabel,
  callsLink,
  onRetry,
}: {
  args: CallsQueryArgs | null;
  periodLabel: string;
  /** The calls page with the same period and filters. */
  callsLink: string;
  /** Loads again whatever failed. */
  onRetry: () => void;
}) {
  const trends = useCallTrends(args, browserTimeZone());
  if (trends.isError) {
    return <QueryError what="the trends" onRetry={onRetry} isRetrying={trends.isFetching} />;
  }
  if (!trends.data) return <TrendsSkeleton />;
  const days = trends.data;
  const total = days.reduce((sum, day) => sum + callsOfDay(day), 0);
  return (
    <div
      aria-busy={trends.isPlaceholderData || undefined}
      className={
        trends.isPlaceholderData
          ? 'grid gap-4 opacity-60 lg:grid-cols-5'
          : 'grid gap-4 lg:grid-cols-5'
      }
    >
      <section
        aria-labelledby="calls-per-day-heading"
        className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-4 sm:p-6 lg:col-span-3"
      >
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="calls-per-day-heading" className="text-lg font-semibold text-ink-900">
            Calls per day
          </h2>
          <Link
            to={callsLink}
            className="inline-flex items-center gap-1 text-sm font-semibold text-azure-700 hover:underline"
          >
            See all {formatCount(total)} calls
            <ArrowRight aria-hidden="true" className="size-4" />
          </Link>
        </div>
        <CallsPerDayChart
          days={days}
          periodLabel={periodLabel}
          labelledBy="calls-per-day-heading"
        />
      </section>
      <section
        aria-labelledby="resolution-trend-heading"
        className="grid content-start gap-4 rounded-2xl border border-sand-200 bg-white p-4 sm:p-6 lg:col-span-2"
      >
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="resolution-trend-heading" className="text-lg font-semibold text-ink-900">
            Resolution rate per day
          </h2>
          <p className="text-sm text-ink-600">
            Period: <span className="font-semibold text-ink-900">{formatRate(rateOf(days))}</span>
          </p>
        </div>
        <ResolutionRateChart
          days={days}
          periodLabel={periodLabel}
          labelledBy="resolution-trend-heading"
        />
      </section>
    </div>
  );
}
