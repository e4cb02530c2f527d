import type { User } from '@supabase/supabase-js';

/** The name and company a user gave at sign-up (user metadata), trimmed; empty when absent. */
export function profileOf(user: Pick<User, 'user_metadata'> | null | undefined): {
  fullName: string;
  company: string;
} {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  return {
    fullName: text(user?.user_metadata?.full_name),
    company: text(user?.user_metadata?.company),
  };
}

/** What to call the user: their name, else their email or phone. */
export function displayNameOf(user: User): string {
  return profileOf(user).fullName || user.email || user.phone || 'Your account';
}
