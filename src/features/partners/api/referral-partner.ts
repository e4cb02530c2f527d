import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';

const referralPartnerSchema = z
  .object({ company: z.string(), referral_code: z.string() })
  .nullable();
export type ReferralPartner = z.infer<typeof referralPartnerSchema>;

/** The company behind an active referral code, or null (unknown or suspended). Anyone may ask. */
export async function findReferralPartner(code: string): Promise<ReferralPartner> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('referral_partner', { code });
  if (error) throw error;
  return referralPartnerSchema.parse(data ?? null);
}
