import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { buttonStyles } from '@/components/ui/button-styles';
import { paths } from '@/config/paths';
import { useCallKpis } from '../api/call-kpis';
import { useRetryFailedCalls } from '../api/use-retry-calls';
import type { CallsLive } from '../api/use-calls-live';
import type { Workspace } from '@/lib/workspace/workspace';
import {
  callFiltersSearch,
  clearedFilters,
  describePeriod,
  describePreviousPeriod,
  hasNarrowingFilters,
  periodRange,
} from '../model/filters';
import { buildKpiCards } from '../model/kpi-cards';
import type { EstimateSavings } from '../model/kpis';
import { CallsEmpty } from './calls-empty';
import { KpiCards, KpiCardsSkeleton } from './kpi-cards';
import { PeriodPicker } from './period-picker';
import { QueryError } from '@/components/data/query-error';
import { RecentCalls } from './recent-calls';
import { SampleDataBanner } from './sample-data-banner';
import { TrendsSection } from './trends-section';
import { useCallFilters, useCallsQueryArgs } from './use-call-filters';

/**
 * The overview: the period's key figures against the period before, the
 * trends and the latest calls. KPIs, trends and calls load in parallel.
 */
export function CallsOverview({
  workspace,
  live,
  estimate,
  savingsBasis,
}: {
  workspace: Workspace;
  live: CallsLive;
  estimate: EstimateSavings;
  /** How savings are estimated, in a few words. */
  savingsBasis: string;
}) {
  const { filters, setFilters } = useCallFilters();
  const args = useCallsQueryArgs(workspace.id, filters);
  const kpis = useCallKpis(args);
  const retry = useRetryFailedCalls(workspace.id);
  const periodLabel = describePeriod(filters.period);
  const against = describePreviousPeriod(periodRange(filters.period));
  const search = callFiltersSearch(filters);
  const callsLink = `${paths.calls}${search}`;
  const isFiltered = hasNarrowingFilters(filters);
  const isEmpty = kpis.data?.current.calls === 0;

  return (
    <div className="grid gap-6">
      <SampleDataBanner
        workspace={workspace}
        onCleared={() => document.getElementById('key-figures-heading')?.focus()}
      />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PeriodPicker
          period={filters.period}
          onChange={(period) => setFilters((current) => ({ ...current, period }))}
        />
        <Link to={callsLink} className={buttonStyles({ variant: 'secondary' })}>
          View these calls
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
      {isFiltered ? (
        <p className="text-sm text-ink-700">
          These figures count only the calls that match the filters of this link.{' '}
          <button
            type="button"
            className="font-semibold text-azure-700 hover:underline"
            onClick={() => setFilters(clearedFilters)}
          >
            Count all calls
          </button>
        </p>
      ) : null}
      <section aria-labelledby="key-figures-heading" className="grid gap-3">
        <h2 id="key-figures-heading" tabIndex={-1} className="text-sm font-semibold text-ink-700">
          Key figures for {periodLabel}
        </h2>
        {kpis.isError ? (
          <QueryError what="the key figures" onRetry={retry} isRetrying={kpis.isFetching} />
        ) : kpis.data ? (
          <KpiCards
            cards={buildKpiCards(kpis.data, { estimate, against, savingsBasis })}
            against={against}
            hasPrevious={kpis.data.previous.calls > 0}
            isUpdating={kpis.isPlaceholderData}
          />
        ) : (
          <KpiCardsSkeleton />
        )}
      </section>
      {isEmpty ? (
        <section aria-label="Calls" className="rounded-2xl border border-sand-200 bg-white">
          <CallsEmpty
            isFiltered={isFiltered}
            periodLabel={periodLabel}
            onClearFilters={() => setFilters(clearedFilters)}
            onShowLonger={
              filters.period.kind === 'preset' && filters.period.preset !== '90d'
                ? () =>
                    setFilters((current) => ({
                      ...current,
                      period: { kind: 'preset', preset: '90d' },
                    }))
                : undefined
            }
          />
        </section>
      ) : (
        <>
          <TrendsSection
            args={args}
            periodLabel={periodLabel}
            callsLink={callsLink}
            onRetry={retry}
          />
          <RecentCalls
            args={args}
            onRetry={retry}
            live={live}
            callsLink={callsLink}
            search={search}
          />
        </>
      )}
    </div>
  );
}
