import { startAuth } from '@/lib/auth/auth-store';
import type { Contact } from '../model/contact';

type Credentials = Extract<Contact, { kind: 'email' | 'phone' }>;

/** Password sign-in; the session arrives through the auth store (SIGNED_IN). */
export async function signInWithPassword(contact: Credentials, password: string) {
  const supabase = await startAuth();
  const { error } = await supabase.auth.signInWithPassword(
    contact.kind === 'email'
      ? { email: contact.email, password }
      : { phone: contact.phone, password },
  );
  if (error) throw error;
}
