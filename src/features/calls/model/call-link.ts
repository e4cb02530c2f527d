import { paths } from '@/config/paths';

/**
 * Where a call's "Back to calls" goes. The calls list links to a call with
 * its own query string (`callPath(id, search)`), so the call's page returns
 * to the list with the same filters and page; opened from elsewhere, it goes
 * to the plain list.
 */
export function backToCallsHref(search: string): string {
  const query = new URLSearchParams(search).toString();
  return query ? `${paths.calls}?${query}` : paths.calls;
}
