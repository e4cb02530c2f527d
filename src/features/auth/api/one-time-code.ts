import type { EmailOtpType } from '@supabase/supabase-js';
import { startAuth } from '@/lib/auth/auth-store';
import type { Contact } from '../model/contact';

type Reachable = Extract<Contact, { kind: 'email' | 'phone' }>;

/**
 * Sends a sign-in link and code by email, or a code by text, to an existing
 * account (no account is created this way). The link returns to `returnTo`.
 */
export async function sendSignInCode(contact: Reachable, returnTo: string): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.signInWithOtp(
    contact.kind === 'email'
      ? {
          email: contact.email,
          options: {
            shouldCreateUser: false,
            emailRedirectTo: `${window.location.origin}${returnTo}`,
          },
        }
      : { phone: contact.phone, options: { shouldCreateUser: false } },
  );
  if (error) throw error;
}

export type CodePurpose = 'sign-in' | 'sign-up';

/** Checks a code from an email or text; on success the session arrives through the auth store. */
export async function verifyCode(
  contact: Reachable,
  code: string,
  purpose: CodePurpose,
): Promise<void> {
  const supabase = await startAuth();
  const emailType: EmailOtpType = purpose === 'sign-up' ? 'signup' : 'email';
  const { error } = await supabase.auth.verifyOtp(
    contact.kind === 'email'
      ? { email: contact.email, token: code, type: emailType }
      : { phone: contact.phone, token: code, type: 'sms' },
  );
  if (error) throw error;
}

/** Sends the sign-up confirmation again. */
export async function resendConfirmation(contact: Reachable): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.resend(
    contact.kind === 'email'
      ? {
          type: 'signup',
          email: contact.email,
          options: { emailRedirectTo: `${window.location.origin}/` },
        }
      : { type: 'sms', phone: contact.phone },
  );
  if (error) throw error;
}
