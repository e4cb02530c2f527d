import type { OAuthGrant } from '@supabase/supabase-js';
import { startAuth } from '@/lib/auth/auth-store';

export type ConnectedApp = OAuthGrant;

/** The third-party apps this person allowed (through the OAuth consent page), newest first. */
export async function listConnectedApps(): Promise<ConnectedApp[]> {
  const supabase = await startAuth();
  const { data, error } = await supabase.auth.oauth.listGrants();
  if (error) throw error;
  return [...data].sort((a, b) => b.granted_at.localeCompare(a.granted_at));
}

/** Removes an app's access: its tokens stop working and it must ask again. */
export async function disconnectApp(clientId: string): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.oauth.revokeGrant({ clientId });
  if (error) throw error;
}
