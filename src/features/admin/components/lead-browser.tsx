import { useQueryClient } from '@tanstack/react-query';
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { Button } from '@/components/ui/button';
import { buttonStyles } from '@/components/ui/button-styles';
import { Skeleton } from '@/components/ui/skeleton';
import { useLeadCounts, useLeadPage } from '../api/leads-list';
import { leadsKeys } from '../api/leads-keys';
import { emptyLeadFilters, hasLeadFilters } from '../model/leads';
import { cn } from '@/lib/cn';
import { LeadBoard } from './lead-board';
import { LeadCountStrip } from './lead-count-strip';
import { LeadExportButton } from './lead-export-button';
import { LeadFiltersPanel } from './lead-filters';
import { useLeadListParams } from './lead-list-params';
import { LeadTable } from './lead-table';

/** The leads page: filters in the URL, a count per status, and a keyset-paged table. */
export function LeadBrowser({ userId }: { userId: string }) {
  const { filters, setFilters, cursor, view, setView, pageSearch, search } = useLeadListParams();
  const queryClient = useQueryClient();
  const page = useLeadPage(filters, userId, cursor);
  const counts = useLeadCounts(filters, userId);
  const retry = () => void queryClient.invalidateQueries({ queryKey: leadsKeys.all });

  return (
    <div className="grid gap-6">
      <LeadFiltersPanel filters={filters} onChange={setFilters} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div
          role="group"
          aria-label="View"
          className="inline-flex gap-1 rounded-lg bg-sand-100 p-1"
        >
          {(['table', 'board'] as const).map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={view === option}
              onClick={() => setView(option)}
              className={cn(
                'rounded-md px-3 py-1.5 text-sm font-semibold',
                view === option
                  ? 'bg-white text-ink-900 shadow-xs'
                  : 'text-ink-600 hover:text-ink-900',
              )}
            >
              {option === 'table' ? 'Table' : 'Board'}
            </button>
          ))}
        </div>
        <LeadExportButton filters={filters} userId={userId} />
      </div>
      {view === 'board' ? (
        <LeadBoard
          filters={filters}
          userId={userId}
          counts={counts.map((count) => count.data)}
          search={search}
        />
      ) : (
        <>
          <LeadCountStrip
            counts={counts.map((count) => count.data)}
            selected={filters.statuses}
            onSelect={(status) => setFilters({ ...filters, statuses: [status] })}
          />
          <section
            aria-label="Leads"
            className="overflow-hidden rounded-2xl border border-sand-200 bg-white"
          >
            {page.isError ? (
              <div className="p-4">
                <QueryError what="the leads" onRetry={retry} isRetrying={page.isFetching} />
              </div>
            ) : !page.data ? (
              <LeadListSkeleton />
            ) : page.data.rows.length === 0 ? (
              <div className="grid justify-items-start gap-3 p-6">
                <p className="font-semibold text-ink-900">
                  {hasLeadFilters(filters) ? 'No leads match these filters.' : 'No leads yet.'}
                </p>
                <p className="text-sm text-ink-600">
                  {hasLeadFilters(filters)
                    ? 'Try fewer filters, or clear them to see every lead.'
                    : 'Inquiries from /talk-to-sales appear here the moment they are sent.'}
                </p>
                {hasLeadFilters(filters) ? (
                  <Button variant="secondary" onClick={() => setFilters(emptyLeadFilters)}>
                    Clear filters
                  </Button>
                ) : null}
              </div>
            ) : (
              <div
                aria-busy={page.isPlaceholderData || undefined}
                className={page.isPlaceholderData ? 'opacity-60' : undefined}
              >
                <LeadTable rows={page.data.rows} search={search} />
                <nav
                  aria-label="Pages of leads"
                  className="flex flex-wrap items-center justify-between gap-3 border-t border-sand-200 px-4 py-3"
                >
                  <p className="text-sm text-ink-600">
                    {page.data.rows.length} lead{page.data.rows.length === 1 ? '' : 's'} on this
                    page
                  </p>
                  <div className="flex gap-2">
                    {cursor ? (
                      <Link
                        to={{ search: pageSearch(null) }}
                        className={buttonStyles({ variant: 'secondary' })}
                      >
                        Newest leads
                      </Link>
                    ) : null}
                    {page.data.next ? (
                      <Link
                        to={{ search: pageSearch(page.data.next) }}
                        className={buttonStyles({ variant: 'secondary' })}
                      >
                        Older leads
                        <ChevronRight aria-hidden="true" className="size-4" />
                      </Link>
                    ) : null}
                  </div>
                </nav>
              </div>
            )}
          </section>
        </>
      )}
    </div>
  );
}

function LeadListSkeleton() {
  return (
    <div role="status" className="divide-y divide-sand-200">
      <span className="sr-only">Loading leads…</span>
      {Array.from({ length: 8 }, (_, index) => (
        <div key={index} className="grid gap-2 px-4 py-3">
          <div className="flex justify-between gap-4">
            <Skeleton className="h-5 w-40" />
            <Skeleton className="h-5 w-20 rounded-full" />
          </div>
          <Skeleton className="h-4 w-64" />
        </div>
      ))}
    </div>
  );
}
