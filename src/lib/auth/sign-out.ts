import { startAuth } from './auth-store';

export type SignOutScope = 'local' | 'others' | 'global';

/**
 * Ends this device's session (`local`), every other one (`others`), or all of
 * them (`global`). The client ignores a session the server no longer knows
 * (401/403/404), so signing out always succeeds locally.
 */
export async function signOut(scope: SignOutScope = 'local'): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.signOut({ scope });
  if (error) throw error;
}
