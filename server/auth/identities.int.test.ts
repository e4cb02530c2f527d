import type { SupabaseClient, UserIdentity } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Manual identity linking through the official client. No OAuth provider is
 * configured, so a second identity is added to the database directly, as a
 * completed OAuth link would have added it.
 */

const PASSWORD = 'correct horse battery staple';
const ENV = { MAILER_AUTOCONFIRM: 'true', SMS_AUTOCONFIRM: 'true', MAILER_MAX_FREQUENCY: '0' };

let disabled: TestServer;
let enabled: TestServer;
beforeAll(async () => {
  [disabled, enabled] = await Promise.all([
    // Passkeys and the OAuth server are on by default; this one answers as GoTrue does with them off.
    startTestServer({ env: { ...ENV, PASSKEY_ENABLED: 'false', OAUTH_SERVER_ENABLED: 'false' } }),
    startTestServer({ env: { ...ENV, SECURITY_MANUAL_LINKING_ENABLED: 'true' } }),
  ]);
});
afterAll(() => Promise.all([disabled?.close(), enabled?.close()]));

async function signedUp(server: TestServer, email = uniqueEmail('identity')) {
  const supabase = clientFor(server);
  const { data, error } = await supabase.auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  expect(data.session).not.toBeNull();
  return { supabase, email, userId: data.user!.id };
}

/** What a completed OAuth link leaves behind: the identity, and the provider in app_metadata. */
async function addIdentity(
  server: TestServer,
  userId: string,
  provider: string,
  data: Record<string, unknown>,
): Promise<void> {
  const subject = String(data.sub ?? crypto.randomUUID());
  await server.db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
     values ($1, $2, $3, $4, now(), now())`,
    [subject, userId, JSON.stringify({ sub: subject, ...data }), provider],
  );
  await server.db.query(
    `update auth.users set raw_app_meta_data = jsonb_set(raw_app_meta_data, '{providers}',
       (raw_app_meta_data->'providers') || to_jsonb($2::text)) where id = $1`,
    [userId, provider],
  );
}

async function identitiesOf(supabase: SupabaseClient): Promise<UserIdentity[]> {
  const { data, error } = await supabase.auth.getUserIdentities();
  expect(error).toBeNull();
  return data!.identities;
}

describe('with manual linking disabled (the default)', () => {
  it('lists the identities but refuses to link or unlink', async () => {
    const { supabase, email, userId } = await signedUp(disabled);
    const identities = await identitiesOf(supabase);
    expect(identities).toEqual([
      expect.objectContaining({
        identity_id: expect.any(String),
        id: userId,
        user_id: userId,
        provider: 'email',
        email,
        identity_data: expect.objectContaining({ sub: userId, email }),
      }),
    ]);

    const link = await supabase.auth.linkIdentity({
      provider: 'github',
      options: { skipBrowserRedirect: true },
    });
    expect(link.data).toMatchObject({ provider: 'github', url: null });
    expect(link.error).toMatchObject({
      status: 404,
      code: 'manual_linking_disabled',
      message: 'Manual linking is disabled',
    });

    const unlink = await supabase.auth.unlinkIdentity(identities[0]!);
    expect(unlink.error).toMatchObject({
      status: 404,
      code: 'manual_linking_disabled',
      message: 'Manual linking is disabled',
    });
  });

  it('authenticates before it answers that linking is disabled', async () => {
    const supabase = clientFor(disabled);
    const link = await supabase.auth.linkIdentity({
      provider: 'github',
      options: { skipBrowserRedirect: true },
    });
    expect(link.error).toMatchObject({ status: 403, code: 'bad_jwt' });
  });
});

describe('with manual linking enabled', () => {
  it('cannot link an OAuth provider, since none is configured', async () => {
    const { supabase } = await signedUp(enabled);
    const github = await supabase.auth.linkIdentity({
      provider: 'github',
      options: { skipBrowserRedirect: true },
    });
    expect(github.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Unsupported provider: provider is not enabled',
    });
    const unknown = await supabase.auth.linkIdentity({
      provider: 'myspace' as 'github',
      options: { skipBrowserRedirect: true },
    });
    expect(unknown.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Unsupported provider: Provider myspace could not be found',
    });
  });

  it('keeps the last identity', async () => {
    const { supabase } = await signedUp(enabled);
    const [only] = await identitiesOf(supabase);
    const { error } = await supabase.auth.unlinkIdentity(only!);
    expect(error).toMatchObject({
      status: 422,
      code: 'single_identity_not_deletable',
      message: 'User must have at least 1 identity after unlinking',
    });
  });

  it('unlinks a second identity and updates the providers', async () => {
    const { supabase, email, userId } = await signedUp(enabled);
    const stranger = await signedUp(enabled);
    await addIdentity(enabled, userId, 'github', { email, email_verified: true });
    const identities = await identitiesOf(supabase);
    expect(identities.map((identity) => identity.provider)).toEqual(['email', 'github']);
    const github = identities.find((identity) => identity.provider === 'github')!;

    const malformed = await supabase.auth.unlinkIdentity({
      ...github,
      identity_id: 'not-a-uuid',
    });
    expect(malformed.error).toMatchObject({
      status: 404,
      code: 'validation_failed',
      message: 'identity_id must be an UUID',
    });

    const [strangers] = await identitiesOf(stranger.supabase);
    const foreign = await supabase.auth.unlinkIdentity(strangers!);
    expect(foreign.error).toMatchObject({
      status: 422,
      code: 'identity_not_found',
      message: "Identity doesn't exist",
    });
    const unknown = await supabase.auth.unlinkIdentity({
      ...github,
      identity_id: crypto.randomUUID(),
    });
    expect(unknown.error).toMatchObject({ status: 422, code: 'identity_not_found' });

    const { data, error } = await supabase.auth.unlinkIdentity(github);
    expect(error).toBeNull();
    expect(data).toEqual({});

    const { data: after } = await supabase.auth.getUser();
    expect(after.user!.identities!.map((identity) => identity.provider)).toEqual(['email']);
    expect(after.user!.app_metadata).toMatchObject({ provider: 'email', providers: ['email'] });
    expect(after.user!.email).toBe(email);
    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.data.session!.user.app_metadata.providers).toEqual(['email']);

    const audit = await enabled.db.query(
      `select 1 from auth.audit_log_entries
       where payload->>'actor_id' = $1 and payload->>'action' = 'identity_unlinked'`,
      [userId],
    );
    expect(audit.rows).toHaveLength(1);
  });

  it("moves the user's email to a remaining identity when its own identity goes", async () => {
    const { supabase, userId } = await signedUp(enabled);
    const other = uniqueEmail('github');
    await addIdentity(enabled, userId, 'github', { email: other, email_verified: true });
    const email = (await identitiesOf(supabase)).find((identity) => identity.provider === 'email');

    const { error } = await supabase.auth.unlinkIdentity(email!);
    expect(error).toBeNull();
    const { data } = await supabase.auth.getUser();
    expect(data.user).toMatchObject({
      email: other,
      email_confirmed_at: expect.any(String),
      app_metadata: { provider: 'github', providers: ['github'] },
    });
    expect(data.user!.identities!.map((identity) => identity.provider)).toEqual(['github']);
  });

  it('refuses to unlink when the remaining email belongs to another user', async () => {
    const taken = await signedUp(enabled);
    const { supabase, userId } = await signedUp(enabled);
    await addIdentity(enabled, userId, 'github', { email: taken.email, email_verified: true });
    const email = (await identitiesOf(supabase)).find((identity) => identity.provider === 'email');

    const { error } = await supabase.auth.unlinkIdentity(email!);
    expect(error).toMatchObject({
      status: 422,
      code: 'email_conflict_identity_not_deletable',
      message: 'Unable to unlink identity due to email conflict',
    });
    expect(await identitiesOf(supabase)).toHaveLength(2);
  });

  it('clears the phone number when the phone identity is unlinked', async () => {
    const { supabase, userId } = await signedUp(enabled);
    const phone = '15555550100';
    await enabled.db.query(
      `update auth.users set phone = $2, phone_confirmed_at = now() where id = $1`,
      [userId, phone],
    );
    await addIdentity(enabled, userId, 'phone', { sub: userId, phone, phone_verified: true });
    const identity = (await identitiesOf(supabase)).find((item) => item.provider === 'phone');

    const { error } = await supabase.auth.unlinkIdentity(identity!);
    expect(error).toBeNull();
    const { data } = await supabase.auth.getUser();
    expect(data.user!.phone).toBe('');
    expect(data.user!.phone_confirmed_at).toBeUndefined();
    expect(data.user!.app_metadata.providers).toEqual(['email']);
  });

  it("refuses a token for another audience than the request's", async () => {
    const { supabase } = await signedUp(enabled);
    const [identity] = await identitiesOf(supabase);
    const { data } = await supabase.auth.getSession();
    const response = await fetch(
      `${enabled.url}/auth/v1/user/identities/${identity!.identity_id}`,
      {
        method: 'DELETE',
        headers: {
          apikey: enabled.anonKey,
          authorization: `Bearer ${data.session!.access_token}`,
          'x-jwt-aud': 'someone-else',
          'x-supabase-api-version': '2024-01-01',
        },
      },
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      code: 'unexpected_audience',
      message: "Token audience doesn't match request audience",
    });
  });
});

describe('sign-in methods GoTrue has and this server does not offer', () => {
  async function raw(server: TestServer, path: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    headers.set('X-Supabase-Api-Version', '2024-01-01');
    headers.set('apikey', server.anonKey);
    const response = await fetch(`${server.url}/auth/v1${path}`, { ...init, headers });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  it('answers an OAuth provider redirect as GoTrue does with no provider configured', async () => {
    expect(await raw(disabled, '/authorize?provider=github')).toEqual({
      status: 400,
      body: {
        code: 'validation_failed',
        message: 'Unsupported provider: provider is not enabled',
      },
    });
    expect(await raw(disabled, '/authorize?provider=myspace')).toMatchObject({
      status: 400,
      body: { message: 'Unsupported provider: Provider myspace could not be found' },
    });
  });

  it('answers passkeys and the OAuth server as switched off, after authentication where GoTrue asks for it', async () => {
    const { supabase } = await signedUp(disabled);
    const passkeysOff = { status: 404, code: 'passkey_disabled', message: 'Passkeys are disabled' };
    expect((await supabase.auth.passkey.list()).error).toMatchObject(passkeysOff);
    expect((await supabase.auth.passkey.startRegistration()).error).toMatchObject(passkeysOff);
    const anonymous = clientFor(disabled);
    expect((await anonymous.auth.passkey.startAuthentication()).error).toMatchObject(passkeysOff);

    const oauthOff = { status: 404, code: 'feature_disabled', message: 'OAuth server is disabled' };
    expect((await supabase.auth.oauth.listGrants()).error).toMatchObject(oauthOff);
    expect((await raw(disabled, '/user/oauth/grants')).status).toBe(401);
    for (const [path, method] of [
      ['/oauth/clients/register', 'POST'],
      ['/oauth/authorize?client_id=x', 'GET'],
      ['/oauth/token', 'POST'],
      ['/.well-known/oauth-authorization-server', 'GET'],
    ] as const) {
      expect(await raw(disabled, path, { method })).toEqual({
        status: 404,
        body: { code: 'feature_disabled', message: 'OAuth server is disabled' },
      });
    }
  });
});
