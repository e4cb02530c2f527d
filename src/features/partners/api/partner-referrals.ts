import { infiniteQueryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import {
  nextReferralCursor,
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
