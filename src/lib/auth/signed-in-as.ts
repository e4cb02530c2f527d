import { getAuthState, startAuth } from './auth-store';
import { roleOf, type Role } from './roles';

/**
 * For a route's first reads (decision 034): once the session is read from
 * storage, the signed-in user's id when their role is one of `roles`, else
 * null (nobody signed in, or a page that will not show them this data).
 */
export async function signedInAs(...roles: Role[]): Promise<string | null> {
  await startAuth();
  const user = getAuthState().user;
  return user && roles.includes(roleOf(user)) ? user.id : null;
}
