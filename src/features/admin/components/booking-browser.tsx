import { useQueryClient } from '@tanstack/react-query';
import { ChevronRight } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { Button } from '@/components/ui/button';
import { buttonStyles } from '@/components/ui/button-styles';
import { Field, fieldProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { bookingsKeys, useBookingPage } from '../api/bookings';
import {
  BOOKING_STATUSES,
  BOOKING_STATUS_LABELS,
  BOOKING_WHEN,
  browserTimeZone,
  hasBookingFilters,
  type BookingFilters,
  type BookingStatus,
} from '../model/bookings';
import { useBookingListParams } from './booking-list-params';
import { BookingTable } from './booking-table';

const SEARCH_PAUSE_MS = 300;
const WHEN_LABELS = { upcoming: 'Upcoming', past: 'Past' } as const;

/** The bookings page: upcoming or past, filters in the URL, a keyset-paged table. */
export function BookingBrowser() {
  const { filters, setFilters, cursor, pageSearch, search } = useBookingListParams();
  const queryClient = useQueryClient();
  const page = useBookingPage(filters, cursor);
  const retry = () => void queryClient.invalidateQueries({ queryKey: bookingsKeys.all });
  const caption =
    filters.when === 'upcoming' ? 'Upcoming demos, soonest first' : 'Past demos, latest first';

  return (
    <div className="grid gap-6">
      <div
        role="group"
        aria-label="Which demos"
        className="inline-flex w-fit gap-1 rounded-lg bg-sand-100 p-1"
      >
        {BOOKING_WHEN.map((when) => (
          <button
            key={when}
            type="button"
            aria-pressed={filters.when === when}
            onClick={() => setFilters({ ...filters, when })}
            className={cn(
              'rounded-md px-4 py-1.5 text-sm font-semibold',
              filters.when === when
                ? 'bg-white text-ink-900 shadow-xs'
                : 'text-ink-600 hover:text-ink-900',
            )}
          >
            {WHEN_LABELS[when]}
          </button>
        ))}
      </div>
      <BookingFiltersPanel filters={filters} onChange={setFilters} />
      <p className="text-sm text-ink-600">
        Times are in your time zone ({browserTimeZone()}); the visitor’s own is noted below each.
      </p>
      <section
        aria-label="Demo bookings"
        className="overflow-hidden rounded-2xl border border-sand-200 bg-white"
      >
        {page.isError ? (
          <div className="p-4">
            <QueryError what="the bookings" onRetry={retry} isRetrying={page.isFetching} />
          </div>
        ) : !page.data ? (
          <BookingListSkeleton />
        ) : page.data.rows.length === 0 ? (
          <div className="grid justify-items-start gap-3 p-6">
            <p className="font-semibold text-ink-900">
              {hasBookingFilters(filters)
                ? 'No demos match these filters.'
                : filters.when === 'upcoming'
                  ? 'No upcoming demos.'
                  : 'No past demos yet.'}
            </p>
            <p className="text-sm text-ink-600">
              {hasBookingFilters(filters)
                ? 'Try another search or status, or clear the filters.'
                : 'Demos booked on /demo appear here as soon as they are booked.'}
            </p>
            {hasBookingFilters(filters) ? (
              <Button
                variant="secondary"
                onClick={() => setFilters({ when: filters.when, status: null, search: '' })}
              >
                Clear filters
              </Button>
            ) : null}
          </div>
        ) : (
          <div
            aria-busy={page.isPlaceholderData || undefined}
            className={page.isPlaceholderData ? 'opacity-60' : undefined}
          >
            <BookingTable rows={page.data.rows} search={search} caption={caption} />
            <nav
              aria-label="Pages of bookings"
              className="flex flex-wrap items-center justify-between gap-3 border-t border-sand-200 px-4 py-3"
            >
              <p className="text-sm text-ink-600">
                {page.data.rows.length} demo{page.data.rows.length === 1 ? '' : 's'} on this page
              </p>
              <div className="flex flex-wrap gap-2">
                {cursor ? (
                  <Link
                    to={{ search: pageSearch(null) }}
                    className={buttonStyles({ variant: 'secondary' })}
                  >
                    First page
                  </Link>
                ) : null}
                {page.data.next ? (
                  <Link
                    to={{ search: pageSearch(page.data.next) }}
                    className={buttonStyles({ variant: 'secondary' })}
                  >
                    {filters.when === 'upcoming' ? 'Later demos' : 'Earlier demos'}
                    <ChevronRight aria-hidden="true" className="size-4" />
                  </Link>
                ) : null}
              </div>
            </nav>
          </div>
        )}
      </section>
    </div>
  );
}

function BookingFiltersPanel({
  filters,
  onChange,
}: {
  filters: BookingFilters;
  onChange: (filters: BookingFilters) => void;
}) {
  const [typed, setTyped] = useState(filters.search);
  const [shownSearch, setShownSearch] = useState(filters.search);
  // The URL changed under the box (back, clear): show what it holds.
  if (filters.search !== shownSearch) {
    setShownSearch(filters.search);
    setTyped(filters.search);
  }

  useEffect(() => {
    if (typed === filters.search) return;
    const timer = setTimeout(() => onChange({ ...filters, search: typed }), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed, filters, onChange]);

  return (
    <form
      role="search"
      aria-label="Filter bookings"
      onSubmit={(event) => {
        event.preventDefault();
        onChange({ ...filters, search: typed });
      }}
      className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-4 sm:grid-cols-[2fr_1fr] sm:p-5"
    >
      <Field id="booking-search" label="Search">
        <Input
          {...fieldProps('booking-search')}
          type="search"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          placeholder="Company, name or email"
          maxLength={120}
          autoComplete="off"
        />
      </Field>
      <Field id="booking-status" label="Status">
        <Select
          id="booking-status"
          value={filters.status ?? ''}
          onChange={(event) =>
            onChange({
              ...filters,
              status: (event.target.value || null) as BookingStatus | null,
            })
          }
        >
          <option value="">Any status</option>
          {BOOKING_STATUSES.map((status) => (
            <option key={status} value={status}>
              {BOOKING_STATUS_LABELS[status]}
            </option>
          ))}
        </Select>
      </Field>
    </form>
  );
}

function BookingListSkeleton() {
  return (
    <div role="status" className="divide-y divide-sand-200">
      <span className="sr-only">Loading bookings…</span>
      {Array.from({ length: 6 }, (_, index) => (
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
