import { referralCode } from '@/lib/referral';
import { getSupabase } from '@/lib/supabase';
import type { ApplicationValues } from '../model/application';

/**
 * The database answers every accepted application alike (whether the address
 * is new, a partner's, or has applied before), so it reveals nothing about the
 * address: the address as cleaned, and a sentence to show.
 */
export interface ApplicationReceipt {
  email: string;
  message: string;
}

/**
 * Sends the application through the validated database function, which emails
 * the address's owner a link to confirm it (or tells them they already applied
 * or are a partner).
 */
export async function submitApplication(values: ApplicationValues): Promise<ApplicationReceipt> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('submit_partner_application', {
    full_name: values.fullName,
    email: values.email,
    company: values.company,
    website: values.website || undefined,
    partner_type: values.partnerType,
    expected_referrals: Number(values.expectedReferrals),
    message: values.message || undefined,
    referral_code: referralCode(),
    fax: values.fax || undefined,
  });
  if (error) throw error;
  return data as unknown as ApplicationReceipt;
}

/** What following a confirmation link gave; `message` is a sentence for people. */
export interface ConfirmationResult {
  status: 'confirmed' | 'used' | 'expired' | 'invalid';
  message: string;
  reference?: string;
  company?: string;
}

const confirmations = new Map<string, Promise<ConfirmationResult>>();

/**
 * Confirms the application an emailed link names. A link works once, so one
 * page asks once per token, however often React runs its effects.
 */
export function confirmApplication(token: string): Promise<ConfirmationResult> {
  let confirmation = confirmations.get(token);
  if (!confirmation) {
    confirmation = (async () => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('confirm_partner_application', { token });
      if (error) throw error;
      return data as unknown as ConfirmationResult;
    })();
    confirmations.set(token, confirmation);
    // A network failure may be retried with the same link.
    confirmation.catch(() => confirmations.delete(token));
  }
  return confirmation;
}

export const APPLICATION_QUERY_KEY = ['my-partner-application'] as const;

export interface ApplicationStatus {
  id: string;
  company: string;
  status: 'unconfirmed' | 'pending' | 'approved' | 'rejected';
  decision_reason: string | null;
  created_at: string;
}

/** The signed-in user's latest application (row-level security shows only their own). */
export async function fetchMyApplication(): Promise<ApplicationStatus | null> {
  const supabase = await getSupabase();
  const { data, error } = await supabase
    .from('partner_applications')
    .select('id, company, status, decision_reason, created_at')
    .order('created_at', { ascending: false })
    .limit(1)
    .maybeSingle();
  if (error) throw error;
  return data as ApplicationStatus | null;
}

export interface PartnerRecord {
  referral_code: string;
  tier: string;
  commission_rate: number;
  clicks: number;
}

/** The signed-in partner's code, tier and referral-link clicks (their own rows only). */
export async function fetchMyPartnerRecord(userId: string): Promise<PartnerRecord | null> {
  const supabase = await getSupabase();
  const { data, error } = await supabase
    .from('partners')
    .select('referral_code, tier, commission_rate, referral_clicks(clicks)')
    .eq('user_id', userId)
    .maybeSingle();
  if (error) throw error;
  if (!data) return null;
  return {
    referral_code: data.referral_code,
    tier: data.tier,
    commission_rate: Number(data.commission_rate),
    clicks: data.referral_clicks.reduce((sum, day) => sum + day.clicks, 0),
  };
}
