import type { OAuthAuthorizationDetails } from '@supabase/supabase-js';
import { startAuth } from '@/lib/auth/auth-store';

/** Either what the app asks for (consent needed), or where to go (already allowed). */
export type AuthorizationRequest =
  { kind: 'consent'; details: OAuthAuthorizationDetails } | { kind: 'redirect'; url: string };

export async function loadAuthorization(authorizationId: string): Promise<AuthorizationRequest> {
  const supabase = await startAuth();
  const { data, error } = await supabase.auth.oauth.getAuthorizationDetails(authorizationId);
  if (error) throw error;
  return 'authorization_id' in data
    ? { kind: 'consent', details: data }
    : { kind: 'redirect', url: data.redirect_url };
}

/** Allows or denies; answers the app's URL to return to (with a code, or with access_denied). */
export async function decideAuthorization(
  authorizationId: string,
  decision: 'allow' | 'deny',
): Promise<string> {
  const supabase = await startAuth();
  const options = { skipBrowserRedirect: true };
  const { data, error } =
    decision === 'allow'
      ? await supabase.auth.oauth.approveAuthorization(authorizationId, options)
      : await supabase.auth.oauth.denyAuthorization(authorizationId, options);
  if (error) throw error;
  return data.redirect_url;
}
