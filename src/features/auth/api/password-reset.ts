import { paths } from '@/config/paths';
import { finishPasswordRecovery, startAuth } from '@/lib/auth/auth-store';

/** Emails a reset link and code. Unknown addresses get the same answer (no account enumeration). */
export async function requestPasswordReset(email: string): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.resetPasswordForEmail(email, {
    redirectTo: `${window.location.origin}${paths.auth}?mode=reset`,
  });
  if (error) throw error;
}

/** Checks the emailed reset code; on success the auth store reports PASSWORD_RECOVERY. */
export async function verifyResetCode(email: string, code: string): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.verifyOtp({ email, token: code, type: 'recovery' });
  if (error) throw error;
}

/** Sets the new password of the recovering user. */
export async function setNewPassword(password: string): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
  finishPasswordRecovery();
}
