import type { Factor } from '@supabase/supabase-js';
import { startAuth } from '@/lib/auth/auth-store';

export interface TotpEnrolment {
  factorId: string;
  /** An SVG data URL. */
  qrCode: string;
  secret: string;
  uri: string;
}

export async function listTotpFactors(): Promise<Factor[]> {
  const supabase = await startAuth();
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw error;
  return data.all.filter((factor) => factor.factor_type === 'totp');
}

/** Starts adding an authenticator app, dropping any set-up that was never finished. */
export async function enrolTotp(): Promise<TotpEnrolment> {
  const supabase = await startAuth();
  for (const factor of await listTotpFactors()) {
    if (factor.status !== 'verified') await supabase.auth.mfa.unenroll({ factorId: factor.id });
  }
  const { data, error } = await supabase.auth.mfa.enroll({
    factorType: 'totp',
    friendlyName: `Authenticator app (${new Date().toISOString().slice(0, 10)})`,
  });
  if (error) throw error;
  return {
    factorId: data.id,
    qrCode: data.totp.qr_code,
    secret: data.totp.secret,
    uri: data.totp.uri,
  };
}

/** Verifies the first code: the factor becomes active and this session aal2. */
export async function confirmTotp(factorId: string, code: string): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  if (error) throw error;
}

export async function removeFactor(factorId: string): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.mfa.unenroll({ factorId });
  if (error) throw error;
  // The session's token still says which factors exist; fetch a fresh one.
  await supabase.auth.refreshSession();
}
