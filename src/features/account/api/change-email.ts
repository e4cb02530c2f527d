import { paths } from '@/config/paths';
import { startAuth } from '@/lib/auth/auth-store';

/** Starts an email change: links go to the current and the new address; both must be opened. */
export async function changeEmail(email: string): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.updateUser(
    { email },
    { emailRedirectTo: `${window.location.origin}${paths.accountSettings}` },
  );
  if (error) throw error;
}
