import { startAuth } from '@/lib/auth/auth-store';

/** The verified TOTP factor the second step checks against, if any. */
export async function findTotpFactor(): Promise<{
  id: string;
  friendlyName: string | undefined;
} | null> {
  const supabase = await startAuth();
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw error;
  const factor = data.totp[0];
  return factor ? { id: factor.id, friendlyName: factor.friendly_name } : null;
}

/** Raises the session to aal2 (MFA_CHALLENGE_VERIFIED) with a code from the authenticator app. */
export async function verifySecondFactor(factorId: string, code: string): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  if (error) throw error;
}
