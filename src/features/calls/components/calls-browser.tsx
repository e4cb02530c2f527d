import { useCallKpis } from '../api/call-kpis';
import { useCallPage } from '../api/list-calls';
import { useRetryFailedCalls } from '../api/use-retry-calls';
import type { CallsLive } from '../api/use-calls-live';
import type { Workspace } from '@/lib/workspace/workspace';
import { clearedFilters, describePeriod, hasNarrowingFilters, periodRange } from '../model/filters';
import { formatCount, type EstimateSavings } from '../model/kpis';
import { CallFiltersPanel } from './call-filters';
import { CallList } from './call-list';
import { CallsEmpty } from './calls-empty';
import { CallsPagination } from './calls-pagination';
import { CallsListSkeleton } from './calls-skeletons';
import { CallsTable } from './calls-table';
import { ExportCsvButton } from './export-csv-button';
import { KpiStrip } from './kpi-strip';
import { QueryError } from '@/components/data/query-error';
import { useCallFilters, useCallsQueryArgs } from './use-call-filters';

/**
 * The calls page: filters (in the URL), the figures of exactly those calls,
 * and a keyset-paged table. The figures, the page and the count load at once.
 */
export function CallsBrowser({
  workspace,
  live,
  estimate,
}: {
  workspace: Workspace;
  live: CallsLive;
  estimate: EstimateSavings;
}) {
  const { filters, setFilters, cursor, pageSearch, search } = useCallFilters();
  const args = useCallsQueryArgs(workspace.id, filters);
  const kpis = useCallKpis(args);
  const retry = useRetryFailedCalls(workspace.id);
  const page = useCallPage(args, filters.sort, cursor);
  const range = periodRange(filters.period);
  const periodLabel = describePeriod(filters.period);
  const total = kpis.data?.current.calls;
  const isFiltered = hasNarrowingFilters(filters);

  return (
    <div className="grid gap-6">
      <CallFiltersPanel filters={filters} onUpdate={setFilters} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-ink-700" aria-live="polite">
          {total === undefined
            ? `Calls in ${periodLabel}`
            : `${formatCount(total)} call${total === 1 ? '' : 's'} in ${periodLabel}${isFiltered ? ' matching the filters' : ''}`}
        </p>
        <ExportCsvButton
          args={args}
          sort={filters.sort}
          fromDay={range.fromDay}
          toDay={range.toDay}
          count={total}
        />
      </div>
      {kpis.isError ? (
        <QueryError what="the key figures" onRetry={retry} isRetrying={kpis.isFetching} />
      ) : kpis.data ? (
        <KpiStrip
          kpis={kpis.data.current}
          estimate={estimate}
          isUpdating={kpis.isPlaceholderData}
        />
      ) : null}
      <section
        aria-label="Calls"
        className="overflow-hidden rounded-2xl border border-sand-200 bg-white"
      >
        {page.isError ? (
          <div className="p-4">
            <QueryError what="the calls" onRetry={retry} isRetrying={page.isFetching} />
          </div>
        ) : !page.data ? (
          <CallsListSkeleton rows={8} />
        ) : page.data.rows.length === 0 ? (
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
        ) : (
          <div
            aria-busy={page.isPlaceholderData || undefined}
            className={page.isPlaceholderData ? 'opacity-60' : undefined}
          >
            <div className="hidden lg:block">
              <CallsTable
                rows={page.data.rows}
                search={search}
                sort={filters.sort}
                newCallIds={live.newCallIds}
              />
            </div>
            <CallList
              rows={page.data.rows}
              search={search}
              newCallIds={live.newCallIds}
              className="lg:hidden"
            />
            <CallsPagination
              page={page.data}
              pageSearch={pageSearch}
              summary={
                total === undefined
                  ? `${page.data.rows.length} calls on this page`
                  : `${formatCount(page.data.rows.length)} of ${formatCount(total)} calls on this page`
              }
            />
          </div>
        )}
      </section>
    </div>
  );
}
