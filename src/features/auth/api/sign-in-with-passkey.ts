import { startAuth } from '@/lib/auth/auth-store';

/** Passkey sign-in (the browser's prompt, then the server's check); the session arrives through the auth store (SIGNED_IN). */
export async function signInWithPasskey(): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.signInWithPasskey();
  if (error) throw error;
}
