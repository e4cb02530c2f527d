import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  parseBookingCursor,
  parseBookingFilters,
  withBookingCursor,
  withBookingFilters,
  type BookingCursor,
  type BookingFilters,
} from '../model/bookings';

/**
 * The bookings list's state in the URL: upcoming or past, status, search and
 * page. A change of filters starts from the first page and replaces the
 * history entry (a typed search would otherwise leave one per pause).
 */
export function useBookingListParams() {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the query string, not the object
  const filters = useMemo(() => parseBookingFilters(params), [search]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- as above
  const cursor = useMemo(() => parseBookingCursor(params), [search]);

  const setFilters = useCallback(
    (next: BookingFilters) => {
      setParams((current) => withBookingFilters(current, next), { replace: true });
    },
    [setParams],
  );

  /** The query string of another page of the list (a new history entry, like any page). */
  const pageSearch = useCallback(
    (pageCursor: BookingCursor | null) => {
      const query = withBookingCursor(new URLSearchParams(search), pageCursor).toString();
      return query ? `?${query}` : '';
    },
    [search],
  );

  return { filters, setFilters, cursor, pageSearch, search: search ? `?${search}` : '' };
}
