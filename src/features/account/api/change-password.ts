import { startAuth } from '@/lib/auth/auth-store';

/**
 * Sets a new password. When the server asks for proof first
 * (`reauthentication_needed`), `sendReauthenticationCode` emails a code that
 * goes back as `nonce`.
 */
export async function changePassword(password: string, nonce?: string): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.updateUser(nonce ? { password, nonce } : { password });
  if (error) throw error;
}

export async function sendReauthenticationCode(): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.reauthenticate();
  if (error) throw error;
}
