import { getAuthState, startAuth } from '@/lib/auth/auth-store';
import { roleOf } from '@/lib/auth/roles';
import { getQueryClient } from '@/lib/query-client';
import { adminPeriodRange, parseAdminPeriod } from '../model/period';
import { adminKeys, getAdminOverview } from './admin-overview';

/**
 * Starts /admin's first read (the overview of the period in the URL) while the
 * page's code loads, under the key `useAdminOverview` uses (decision 034).
 * Only for an admin; nothing here throws.
 */
export async function prefetchAdminOverview(search: string): Promise<void> {
  try {
    await startAuth();
    if (roleOf(getAuthState().user) !== 'admin') return;
    const range = adminPeriodRange(parseAdminPeriod(new URLSearchParams(search)));
    const args = { p_from: range.from.toISOString(), p_to: range.to.toISOString() };
    await getQueryClient().prefetchQuery({
      queryKey: adminKeys.overview(args),
      queryFn: () => getAdminOverview(args),
    });
  } catch {
    // The page's own query reports it.
  }
}
