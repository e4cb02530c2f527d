import type { Factor } from '@supabase/supabase-js';
import { startAuth } from '@/lib/auth/auth-store';

/** The query key of the security keys list (account settings' two sections share it). */
export const SECURITY_KEYS_KEY = ['auth', 'security-keys'] as const;

/** The security keys (WebAuthn second factors) this account can confirm a sign-in with. */
export async function listSecurityKeys(): Promise<Factor[]> {
  const supabase = await startAuth();
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw error;
  return data.all.filter(
    (factor) => factor.factor_type === 'webauthn' && factor.status === 'verified',
  );
}

/**
 * Registers a security key (or this device's lock) as a second factor, dropping
 * any set-up that was never finished. The session becomes aal2.
 */
export async function addSecurityKey(name: string): Promise<void> {
  const supabase = await startAuth();
  const { data, error: listError } = await supabase.auth.mfa.listFactors();
  if (listError) throw listError;
  for (const factor of data.all) {
    if (factor.factor_type === 'webauthn' && factor.status !== 'verified') {
      await supabase.auth.mfa.unenroll({ factorId: factor.id });
    }
  }
  const friendlyName = name.trim() || `Security key (${new Date().toISOString().slice(0, 10)})`;
  const { error } = await supabase.auth.mfa.webauthn.register({ friendlyName });
  if (error) throw error;
}
