import { getAuthState, startAuth } from '@/lib/auth/auth-store';
import { roleOf } from '@/lib/auth/roles';
import { getQueryClient } from '@/lib/query-client';
import { parsePortalPeriod, portalPeriodRange } from '../model/period';
import { getPartnerSummary, partnerPortalKeys } from './partner-summary';

/**
 * Starts the partner portal home's one read (`partner_summary` for the period
 * in the URL) while the page's code loads, under the key `usePartnerSummary`
 * uses (decision 034). Only for a partner; nothing here throws.
 */
export async function prefetchPartnerSummary(search: string): Promise<void> {
  try {
    await startAuth();
    if (roleOf(getAuthState().user) !== 'partner') return;
    const range = portalPeriodRange(parsePortalPeriod(new URLSearchParams(search)));
    const args = { p_from: range.from.toISOString(), p_to: range.to.toISOString() };
    await getQueryClient().prefetchQuery({
      queryKey: partnerPortalKeys.summary(args),
      queryFn: () => getPartnerSummary(args),
    });
  } catch {
    // The page's own query reports it.
  }
}
