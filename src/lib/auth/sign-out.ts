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
  if (scope === 'others') await confirmThisSessionLives(supabase);
}

/**
 * For `others`, the client also reports success when the server no longer
 * knows this device's session (or it holds no token), and then nothing was
 * signed out. Ask the server: if this session is over, end it here too (the
 * app then shows the sign-in page) and say so rather than claim success.
 */
async function confirmThisSessionLives(supabase: Awaited<ReturnType<typeof startAuth>>) {
  const { error } = await supabase.auth.getUser();
  if (!error) return;
  // Judged by shape: importing the client's error guards would pull it into this module's chunk.
  const ended =
    error.name === 'AuthSessionMissingError' ||
    (error.name === 'AuthApiError' && [401, 403, 404].includes(error.status ?? 0));
  if (!ended) throw error;
  await supabase.auth.signOut({ scope: 'local' });
  throw error;
}
