import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { partnerSummarySchema, type PartnerSummary } from '../model/summary';

export interface PartnerSummaryArgs {
  p_from: string;
  p_to: string;
}

/** The portal home's figures for [p_from, p_to), with the commission totals and the tier standing. */
export async function getPartnerSummary(args: PartnerSummaryArgs): Promise<PartnerSummary> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('partner_summary', args);
  if (error) throw error;
  return partnerSummarySchema.parse(data);
}

export const partnerPortalKeys = {
  all: ['partner-portal'] as const,
  summary: (args: PartnerSummaryArgs) => ['partner-portal', 'summary', args] as const,
  referrals: (kind: string) => ['partner-portal', 'referrals', kind] as const,
  assets: () => ['partner-portal', 'assets'] as const,
};

/** While another period loads, the last figures stay (dimmed by the caller). */
export function usePartnerSummary(args: PartnerSummaryArgs) {
  return useQuery({
    queryKey: partnerPortalKeys.summary(args),
    queryFn: () => getPartnerSummary(args),
    placeholderData: keepPreviousData,
    // An admin has no partner record (42501): asking again will not give them one.
    retry: (failures, error) => !isNotAPartner(error) && failures < 2,
  });
}

/** The database's answer to someone without a partner record (an admin looking). */
export function isNotAPartner(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '42501'
  );
}
