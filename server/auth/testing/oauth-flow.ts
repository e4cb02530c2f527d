import { createHash, randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import { clientFor, uniqueEmail } from '../../testing/clients';
import type { TestServer } from '../../testing/harness';

/**
 * The OAuth server's test steps (decision 041), shared by its test files: a
 * signed-in user, a client registered through the admin API, /oauth/authorize
 * and the consent through the official user client, and the client's own
 * requests (authorize, token) with plain fetch, as a third-party application
 * makes them.
 */

export const OAUTH_ENV = {
  OAUTH_SERVER_ENABLED: 'true',
  OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: 'true',
  OAUTH_SERVER_AUTHORIZATION_PATH: '/oauth/consent',
  RATE_LIMIT_OAUTH_DYNAMIC_REGISTRATION: '3',
  MAILER_AUTOCONFIRM: 'true',
  MAILER_MAX_FREQUENCY: '0',
  LOG_LEVEL: 'error',
};
export const CALLBACK = 'https://partner.example.com/callback';
export const PASSWORD = 'correct horse battery staple';

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export function authorizePath(params: Record<string, string>): string {
  return `/oauth/authorize?${new URLSearchParams(params)}`;
}

export function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<
    string,
    unknown
  >;
}

/** The steps against one server, read when each step runs (servers start in beforeAll). */
export function oauthFlow(current: () => TestServer) {
  const admin = (target: TestServer = current()) =>
    clientFor(target, { key: target.serviceRoleKey }).auth.admin;

  async function raw(
    path: string,
    init: RequestInit & { target?: TestServer } = {},
  ): Promise<{ response: Response; body: unknown }> {
    const { target = current(), ...rest } = init;
    const headers = new Headers(rest.headers);
    if (!headers.has('X-Supabase-Api-Version')) {
      headers.set('X-Supabase-Api-Version', '2024-01-01');
    }
    const response = await fetch(`${target.url}/auth/v1${path}`, {
      redirect: 'manual',
      ...rest,
      headers,
    });
    const text = await response.text();
    return { response, body: text ? (JSON.parse(text) as unknown) : null };
  }

  async function signedInUser(
    options: { data?: Record<string, unknown> } = {},
  ): Promise<{ supabase: SupabaseClient; id: string; email: string }> {
    const supabase = clientFor(current());
    const email = uniqueEmail('oauth');
    const { data, error } = await supabase.auth.signUp({
      email,
      password: PASSWORD,
      ...(options.data ? { options: { data: options.data } } : {}),
    });
    expect(error).toBeNull();
    expect(data.session).not.toBeNull();
    return { supabase, id: data.user!.id, email };
  }

  async function newClient(
    options: { public?: boolean; redirect_uris?: string[]; name?: string } = {},
  ): Promise<{ id: string; secret?: string }> {
    const { data, error } = await admin().oauth.createClient({
      client_name: options.name ?? 'Partner app',
      redirect_uris: options.redirect_uris ?? [CALLBACK],
      ...(options.public ? { token_endpoint_auth_method: 'none' } : {}),
    } as never);
    expect(error).toBeNull();
    return { id: data!.client_id, secret: data!.client_secret };
  }

  /** /oauth/authorize for a client, and the authorization id the consent page is given. */
  async function authorize(
    clientId: string,
    challenge: string,
    extra: Record<string, string> = {},
  ): Promise<string> {
    const { response } = await raw(
      authorizePath({
        client_id: clientId,
        redirect_uri: CALLBACK,
        response_type: 'code',
        scope: 'email profile',
        state: 'xyz-state',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        ...extra,
      }),
    );
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(
      `${current().config.siteUrl.replace(/\/$/, '')}/oauth/consent`,
    );
    return location.searchParams.get('authorization_id')!;
  }

  /** Authorize, read the request as the signed-in user, approve it: the code the client receives. */
  async function approvedCode(
    supabase: SupabaseClient,
    clientId: string,
    challenge: string,
    extra: Record<string, string> = {},
  ): Promise<string> {
    const authorizationId = await authorize(clientId, challenge, extra);
    const details = await supabase.auth.oauth.getAuthorizationDetails(authorizationId);
    expect(details.error).toBeNull();
    let redirect = (details.data as { redirect_url?: string }).redirect_url;
    if (!redirect) {
      const approved = await supabase.auth.oauth.approveAuthorization(authorizationId, {
        skipBrowserRedirect: true,
      });
      expect(approved.error).toBeNull();
      redirect = approved.data!.redirect_url;
    }
    const url = new URL(redirect);
    expect(`${url.origin}${url.pathname}`).toBe(CALLBACK);
    expect(url.searchParams.get('state')).toBe(extra.state ?? 'xyz-state');
    return url.searchParams.get('code')!;
  }

  async function token(
    fields: Record<string, string>,
    options: { basic?: [string, string]; json?: boolean; target?: TestServer } = {},
  ) {
    const headers: Record<string, string> = {
      'Content-Type': options.json ? 'application/json' : 'application/x-www-form-urlencoded',
    };
    if (options.basic) {
      headers.Authorization = `Basic ${Buffer.from(options.basic.join(':')).toString('base64')}`;
    }
    return raw('/oauth/token', {
      method: 'POST',
      headers,
      body: options.json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
      target: options.target,
    });
  }

  /** A public client's whole flow for one person: approved by `approver`, the app's access token. */
  async function appAccessToken(approver: SupabaseClient, clientId: string): Promise<string> {
    const { verifier, challenge } = pkce();
    const code = await approvedCode(approver, clientId, challenge);
    const exchanged = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: clientId,
    });
    expect(exchanged.response.status).toBe(200);
    return (exchanged.body as { access_token: string }).access_token;
  }

  return { admin, raw, signedInUser, newClient, authorize, approvedCode, token, appAccessToken };
}
