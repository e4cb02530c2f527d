import { infiniteQueryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { signedInAs } from '@/lib/auth/signed-in-as';
import { getQueryClient } from '@/lib/query-client';
import { getSupabase } from '@/lib/supabase';
import {
  nextReferralCursor,
  parseReferralKind,
  referralRowSchema,
  type ReferralCursor,
  type ReferralKind,
  type ReferralRow,
} from '../model/referrals';
import { isNotAPartner, partnerPortalKeys } from './partner-summary';

export const REFERRALS_PAGE_SIZE = 50;

export interface ReferralPage {
  rows: ReferralRow[];
  next: ReferralCursor | null;
}

/**
 * The partner's referred leads and bookings (or one kind: filtered in SQL, so
 * each page is full), newest first, a keyset page at a time.
 */
export const partnerReferralsQuery = (kind: ReferralKind) =>
  infiniteQueryOptions({
    queryKey: partnerPortalKeys.referrals(kind),
    initialPageParam: null as ReferralCursor | null,
    queryFn: async ({ pageParam }): Promise<ReferralPage> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('partner_referrals', {
        ...(pageParam && { p_before: pageParam.created_at, p_before_id: pageParam.id }),
        p_limit: REFERRALS_PAGE_SIZE,
        ...(kind !== 'all' && { p_kind: kind }),
      });
      if (error) throw error;
      const rows = z.array(referralRowSchema).parse(data);
      return { rows, next: nextReferralCursor(rows, REFERRALS_PAGE_SIZE) };
    },
    getNextPageParam: (page) => page.next,
    retry: (failures, error) => !isNotAPartner(error) && failures < 2,
  });

/**
 * Starts the referrals page's first read (the first page of the kind in the
 * URL) while the page's code loads, under the key its list uses (decision
 * 034). Only for whom the portal shows it (partners and admins); nothing here
 * throws.
 */
export async function prefetchReferralsView(search: string): Promise<void> {
  try {
    if (!(await signedInAs('partner', 'admin'))) return;
    await getQueryClient().prefetchInfiniteQuery(
      partnerReferralsQuery(parseReferralKind(new URLSearchParams(search))),
    );
  } catch {
    // The page's own query reports it.
  }
}
