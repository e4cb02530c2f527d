import { startAuth } from '@/lib/auth/auth-store';

export interface SecondFactors {
  /** The verified authenticator app, if any. */
  totp: { id: string; friendlyName: string | undefined } | null;
  /** The verified security keys (WebAuthn), if any. */
  securityKeys: { id: string; friendlyName: string | undefined }[];
}

/** The verified factors the second step can check against. */
export async function findSecondFactors(): Promise<SecondFactors> {
  const supabase = await startAuth();
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw error;
  const totp = data.totp[0];
  return {
    totp: totp ? { id: totp.id, friendlyName: totp.friendly_name } : null,
    securityKeys: data.all
      .filter((factor) => factor.factor_type === 'webauthn' && factor.status === 'verified')
      .map((factor) => ({ id: factor.id, friendlyName: factor.friendly_name })),
  };
}

/** Raises the session to aal2 (MFA_CHALLENGE_VERIFIED) with a code from the authenticator app. */
export async function verifySecondFactor(factorId: string, code: string): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  if (error) throw error;
}

/** Raises the session to aal2 with a security key (the browser asks for it). */
export async function verifyWithSecurityKey(factorId: string): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.mfa.webauthn.authenticate({ factorId });
  if (error) throw error;
}
