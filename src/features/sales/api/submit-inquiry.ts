import { referralCode } from '@/lib/referral';
import { getSupabase } from '@/lib/supabase';
import type { InquiryValues } from '../model/inquiry';

export interface InquiryReceipt {
  id: string;
  reference: string;
  email: string;
}

/**
 * Stores the inquiry as a lead through the validated database function, which
 * also queues the visitor's confirmation and the sales team's notification.
 */
export async function submitInquiry(values: InquiryValues): Promise<InquiryReceipt> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('submit_sales_inquiry', {
    full_name: values.fullName,
    email: values.email,
    company: values.company,
    job_role: values.jobRole || undefined,
    team_size: values.teamSize,
    monthly_call_volume: values.monthlyCallVolume,
    tools: values.tools,
    message: values.message || undefined,
    consent: values.consent === true,
    referral_code: referralCode(),
    fax: values.fax || undefined,
  });
  if (error) throw error;
  return data as unknown as InquiryReceipt;
}
