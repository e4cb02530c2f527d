import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { parseCursor, withCursor, type PageCursor } from '../model/call-list';
import {
  callsQueryArgs,
  localDay,
  parseCallFilters,
  withCallFilters,
  type CallFilters,
  type CallsQueryArgs,
} from '../model/filters';

/**
 * The filters of the current URL, and a way to change them. A change starts
 * the list again from its first page and replaces the history entry (a typed
 * search would otherwise leave one entry per pause).
 */
export function useCallFilters() {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the query string, not the object
  const filters = useMemo(() => parseCallFilters(params), [search]);
  const cursor: PageCursor | null = useMemo(
    () => parseCursor(params, filters.sort),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- as above
    [search, filters.sort],
  );

  // Changes made before the page shows the previous ones (quick clicks on a
  // slow device; React may even show a state in between) build on the last
  // one written, not on the URL this render happens to show.
  const writes = useRef<{ from: string; results: string[] } | null>(null);
  const setFilters = useCallback(
    (update: CallFilters | ((current: CallFilters) => CallFilters)) => {
      const chain = writes.current;
      const isBehind =
        chain !== null &&
        search !== chain.results.at(-1) &&
        (search === chain.from || chain.results.includes(search));
      const base = new URLSearchParams(isBehind ? chain.results.at(-1) : search);
      const next = typeof update === 'function' ? update(parseCallFilters(base)) : update;
      const result = withCursor(withCallFilters(base, next), null);
      writes.current = isBehind
        ? { from: chain.from, results: [...chain.results, result.toString()] }
        : { from: search, results: [result.toString()] };
      setParams(result, { replace: true });
    },
    [search, setParams],
  );

  /** The URL of another page of the list (a new history entry, like any page). */
  const pageSearch = useCallback(
    (pageCursor: PageCursor | null) => {
      const query = withCursor(params, pageCursor).toString();
      return query ? `?${query}` : '';
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- as above
    [search],
  );

  return { filters, setFilters, cursor, pageSearch, search: search ? `?${search}` : '' };
}

/** The RPC arguments of the filters; they change at local midnight, and with the filters. */
export function useCallsQueryArgs(
  workspaceId: string | undefined,
  filters: CallFilters,
): CallsQueryArgs | null {
  const today = localDay(new Date());
  const key = JSON.stringify(filters);
  return useMemo(
    () => (workspaceId ? callsQueryArgs(workspaceId, filters) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the filters by value; today for the presets
    [workspaceId, key, today],
  );
}
