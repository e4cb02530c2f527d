import type { Hono } from 'hono';
import type { HandleAuth } from './context';
import { AuthError, errors } from './errors';
import { unsupportedProvider } from './identities';
import { requireAdmin } from './request-auth';

/**
 * GoTrue features this server does not offer — custom OAuth providers,
 * sign-in through an OAuth provider — answered as GoTrue
 * answers with them switched off (same status, code and message, after the same
 * authentication), so a client can tell "off" from "no such endpoint".
 */

const passkeysDisabled = () => new AuthError(404, 'passkey_disabled', 'Passkeys are disabled');
const customProvidersDisabled = () =>
  new AuthError(404, 'feature_disabled', 'Custom OAuth providers are disabled');

export function registerUnavailableRoutes(routes: Hono, handle: HandleAuth): void {
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

  // Passkeys (passkeys.ts) when switched off, and anything else under /passkeys.
  for (const path of ['/passkeys', '/passkeys/*']) {
    routes.all(
      path,
      handle(async (_c, deps) => {
        throw deps.config.passkey.enabled ? errors.notFound() : passkeysDisabled();
      }),
    );
  }

  // The OAuth 2.1 server (and its own switch) is in oauth-server.ts.
  for (const path of ['/admin/custom-providers', '/admin/custom-providers/*']) {
    routes.all(path, forAdmins(customProvidersDisabled));
  }
}
