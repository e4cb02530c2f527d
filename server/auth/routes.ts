import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { registerAdminRoutes } from './admin';
import { DatabaseError } from '../db/database';
import type { AuthDependencies, AuthHandler } from './context';
import { registerIdentityRoutes } from './identities';
import { registerMfaRoutes } from './mfa';
import { registerOAuthServerRoutes } from './oauth-server';
import { AuthError, OAuthError, authErrorResponse, errors } from './errors';
import { otp } from './otp';
import { registerPasskeyRoutes } from './passkeys';
import { reauthenticate } from './reauthenticate';
import { recover } from './recover';
import { resend } from './resend';
import { signup } from './signup';
import { token } from './token';
import { registerUnavailableRoutes } from './unavailable';
import { getUser, logout, updateUser } from './user';
import { verifyGet, verifyPost } from './verify';

/**
 * The GoTrue-compatible auth service (`/auth/v1`). Every handler's errors are
 * turned into GoTrue's bodies here; anything unexpected is logged and answered
 * with `unexpected_failure`, never a stack trace.
 */
export function createAuthRoutes(deps: AuthDependencies): Hono {
  const routes = new Hono();
  const handle = (handler: AuthHandler) => async (c: Context) => {
    try {
      return await handler(c, deps);
    } catch (error) {
      const requestId = randomUUID();
      if (error instanceof AuthError || error instanceof OAuthError) {
        return authErrorResponse(c, error, requestId);
      }
      // Input PostgreSQL refuses as data (SQLSTATE class 22) is the client's mistake, not ours.
      if (error instanceof DatabaseError && error.code.startsWith('22')) {
        return authErrorResponse(c, errors.validation('Invalid input'), requestId);
      }
      deps.logger.error({ err: error, requestId, path: c.req.path }, 'auth: unexpected failure');
      return authErrorResponse(c, errors.unexpected(), requestId);
    }
  };

  routes.get('/.well-known/jwks.json', (c) =>
    c.json(deps.ring.publicJwks(), 200, { 'Cache-Control': 'public, max-age=600' }),
  );
  routes.get('/health', (c) =>
    c.json({ version: '0.1.0', name: 'GoTrue', description: 'Cervana auth (GoTrue-compatible)' }),
  );
  routes.get('/settings', (c) => c.json(settings(deps)));

  routes.post('/signup', handle(signup));
  routes.post('/token', handle(token));
  routes.post('/otp', handle(otp));
  routes.post('/magiclink', handle(otp));
  routes.post('/verify', handle(verifyPost));
  routes.get('/verify', handle(verifyGet));
  routes.post('/recover', handle(recover));
  routes.post('/resend', handle(resend));
  routes.get('/reauthenticate', handle(reauthenticate));
  routes.get('/user', handle(getUser));
  routes.put('/user', handle(updateUser));
  routes.post('/logout', handle(logout));
  registerMfaRoutes(routes, handle);
  registerIdentityRoutes(routes, handle);
  registerPasskeyRoutes(routes, handle);
  registerAdminRoutes(routes, handle);
  registerOAuthServerRoutes(routes, handle);
  registerUnavailableRoutes(routes, handle);
  routes.post(
    '/sso',
    handle(async () => {
      if (!deps.config.samlEnabled) throw errors.samlDisabled();
      throw new AuthError(
        404,
        'sso_provider_not_found',
        'No SSO provider assigned for this domain',
      );
    }),
  );
  // GoTrue's SAML metadata and ACS endpoints sit behind the same switch.
  routes.all(
    '/sso/saml/*',
    handle(async () => {
      throw deps.config.samlEnabled ? errors.notFound() : errors.samlDisabled();
    }),
  );

  routes.all(
    '*',
    handle(async () => {
      throw errors.notFound();
    }),
  );
  return routes;
}

function settings(deps: AuthDependencies) {
  const { config } = deps;
  const external = Object.fromEntries(
    [
      'apple',
      'azure',
      'bitbucket',
      'discord',
      'facebook',
      'figma',
      'github',
      'gitlab',
      'google',
      'keycloak',
      'kakao',
      'linkedin_oidc',
      'notion',
      'slack_oidc',
      'spotify',
      'twitch',
      'twitter',
      'workos',
      'zoom',
    ].map((provider) => [provider, false]),
  );
  return {
    external: {
      ...external,
      email: config.emailEnabled,
      phone: config.phoneEnabled,
      anonymous_users: config.anonymousEnabled,
      saml: config.samlEnabled,
    },
    disable_signup: config.disableSignup,
    mailer_autoconfirm: config.mailerAutoconfirm,
    phone_autoconfirm: config.smsAutoconfirm,
    sms_provider: config.sms.provider ?? '',
    saml_enabled: config.samlEnabled,
    passkeys_enabled: config.passkey.enabled,
  };
}
