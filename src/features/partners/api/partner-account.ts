import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';

const partnerAccountSchema = z.object({
  id: z.string(),
  company: z.string(),
  referral_code: z.string(),
  tier: z.string(),
  status: z.string(),
});
export type PartnerAccount = z.infer<typeof partnerAccountSchema>;

/**
 * The signed-in partner's own row (row-level security shows only it): the
 * company and code a statement is headed with, and the tier deal registration
 * depends on. Null for a signed-in admin, who has none.
 */
export const partnerAccountQuery = (userId: string) =>
  queryOptions({
    queryKey: ['partner-portal', 'account', userId] as const,
    queryFn: async (): Promise<PartnerAccount | null> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('partners')
        .select('id, company, referral_code, tier, status')
        .eq('user_id', userId)
        .maybeSingle();
      if (error) throw error;
      return data ? partnerAccountSchema.parse(data) : null;
    },
  });
