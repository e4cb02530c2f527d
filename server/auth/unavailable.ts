import type { Context, Hono } from 'hono';
import { loadTargetUser } from './admin-shared';
import type { AuthDependencies, HandleAuth } from './context';
import { AuthError } from './errors';
import { unsupportedProvider } from './identities';
import { requireAdmin } from './request-auth';

/**
 * GoTrue features this server does not offer — passkeys, custom OAuth
 * providers, sign-in through an OAuth provider — answered as GoTrue
 * answers with them switched off (same status, code and message, after the same
 * authentication), so a client can tell "off" from "no such endpoint".
 */

const passkeysDisabled = () => new AuthError(404, 'passkey_disabled', 'Passkeys are disabled');
const customProvidersDisabled = () =>
  new AuthError(404, 'feature_disabled', 'Custom OAuth providers are disabled');

export function registerUnavailableRoutes(routes: Hono, handle: HandleAuth): void {
  const always = (error: () => AuthError) =>
    handle(async () => {
      throw error();
    });
  const forAdmins = (error: () => AuthError) =>
    handle(async (c, deps) => {
      await requireAdmin(c, deps);
      throw error();
    });

  // GET /authorize?provider=…: no OAuth provider is configured.
  routes.get(
    '/authorize',
    handle(async (c) => {
      throw unsupportedProvider(c.req.query('provider') ?? '');
    }),
  );

  for (const path of ['/passkeys', '/passkeys/*']) routes.all(path, always(passkeysDisabled));
  // Not behind the passkey switch in GoTrue: a user simply has none.
  routes.get('/admin/users/:id/passkeys', handle(adminListPasskeys));
  routes.delete('/admin/users/:id/passkeys/:passkeyId', handle(adminDeletePasskey));

  // The OAuth 2.1 server (and its own switch) is in oauth-server.ts.
  for (const path of ['/admin/custom-providers', '/admin/custom-providers/*']) {
    routes.all(path, forAdmins(customProvidersDisabled));
  }
}

/** GET /admin/users/:id/passkeys */
async function adminListPasskeys(c: Context, deps: AuthDependencies): Promise<Response> {
  await requireAdmin(c, deps);
  await loadTargetUser(deps.db, c.req.param('id') ?? '');
  return c.json([]);
}

/** DELETE /admin/users/:id/passkeys/:passkeyId */
async function adminDeletePasskey(c: Context, deps: AuthDependencies): Promise<Response> {
  await requireAdmin(c, deps);
  await loadTargetUser(deps.db, c.req.param('id') ?? '');
  // No user has a passkey; GoTrue says the same for a malformed id and an unknown one.
  throw new AuthError(404, 'validation_failed', 'Passkey not found');
}
