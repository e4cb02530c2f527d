import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  parseLeadCursor,
  parseLeadFilters,
  parseLeadView,
  withLeadCursor,
  withLeadFilters,
  type LeadCursor,
  type LeadFilters,
  type LeadView,
} from '../model/leads';

/**
 * The leads list's state in the URL: filters, view and page. A change of
 * filters starts again from the first page and replaces the history entry (a
 * typed search would otherwise leave one entry per pause).
 */
export function useLeadListParams() {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the query string, not the object
  const filters = useMemo(() => parseLeadFilters(params), [search]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- as above
  const cursor = useMemo(() => parseLeadCursor(params), [search]);
  const view = parseLeadView(params);

  const setFilters = useCallback(
    (next: LeadFilters) => {
      setParams((current) => withLeadCursor(withLeadFilters(current, next), null), {
        replace: true,
      });
    },
    [setParams],
  );

  const setView = useCallback(
    (next: LeadView) => {
      setParams(
        (current) => {
          const updated = withLeadCursor(current, null);
          if (next === 'board') updated.set('view', 'board');
          else updated.delete('view');
          return updated;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  /** The query string of another page of the list (a new history entry, like any page). */
  const pageSearch = useCallback(
    (pageCursor: LeadCursor | null) => {
      const query = withLeadCursor(new URLSearchParams(search), pageCursor).toString();
      return query ? `?${query}` : '';
    },
    [search],
  );

  return {
    filters,
    setFilters,
    cursor,
    view,
    setView,
    pageSearch,
    search: search ? `?${search}` : '',
  };
}
