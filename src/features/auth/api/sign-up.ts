import { startAuth } from '@/lib/auth/auth-store';
import type { Contact } from '../model/contact';

export interface SignUpRequest {
  fullName: string;
  company: string;
  contact: Extract<Contact, { kind: 'email' | 'phone' }>;
  password: string;
}

/**
 * Creates the account with `full_name` and `company` as metadata; the emailed
 * link leads back to the site root. Resolves whether the account is signed in
 * now (confirmations off) or must be confirmed first.
 */
export async function signUp(request: SignUpRequest): Promise<{ isConfirmed: boolean }> {
  const supabase = await startAuth();
  const options = {
    data: { full_name: request.fullName, company: request.company },
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
