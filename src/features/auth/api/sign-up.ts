import { startAuth } from '@/lib/auth/auth-store';
import { referralCode } from '@/lib/referral';
import type { Contact } from '../model/contact';

export interface SignUpRequest {
  fullName: string;
  company: string;
  contact: Extract<Contact, { kind: 'email' | 'phone' }>;
  password: string;
}

/**
 * Creates the account with `full_name`, `company` and any referral code as metadata; the emailed
 * link leads back to the site root. Resolves whether the account is signed in
 * now (confirmations off) or must be confirmed first.
 */
export async function signUp(request: SignUpRequest): Promise<{ isConfirmed: boolean }> {
  const supabase = await startAuth();
  const options = {
    // A partner's referral (`?ref=` in the last 90 days) is credited at sign-up.
    data: {
      full_name: request.fullName,
      company: request.company,
      ...(referralCode() ? { referral_code: referralCode() } : {}),
    },
    emailRedirectTo: `${window.location.origin}/`,
  };
  const { data, error } = await supabase.auth.signUp(
    request.contact.kind === 'email'
      ? { email: request.contact.email, password: request.password, options }
      : { phone: request.contact.phone, password: request.password, options },
  );
  if (error) throw error;
  return { isConfirmed: data.session !== null };
}
