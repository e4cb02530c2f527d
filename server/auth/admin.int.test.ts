import { createHash, randomInt, randomUUID } from 'node:crypto';
import argon2 from 'argon2';
import bcrypt from 'bcrypt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, latestMessage, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: {
      MAILER_MAX_FREQUENCY: '0',
      RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000',
      RATE_LIMIT_VERIFY: '1000',
      LOG_LEVEL: 'error',
      LOG_FORMAT: 'json',
      // On by default; the admin API's answer with it off is checked here.
      OAUTH_SERVER_ENABLED: 'false',
    },
  });
});
afterAll(() => server?.close());

const PASSWORD = 'correct horse battery staple';
const admin = () => clientFor(server, { key: server.serviceRoleKey }).auth.admin;
const anon = () => clientFor(server).auth;
const uniquePhone = () => `1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

/** A call without the client, for what it cannot send (no token, odd paths, odd bodies). */
async function raw(path: string, init: RequestInit & { token?: string | null } = {}) {
  const headers = new Headers(init.headers);
  headers.set('X-Supabase-Api-Version', '2024-01-01');
  headers.set('apikey', server.anonKey);
  if (init.token !== null)
    headers.set('Authorization', `Bearer ${init.token ?? server.serviceRoleKey}`);
  if (init.body) headers.set('Content-Type', 'application/json');
  const response = await fetch(`${server.url}/auth/v1${path}`, { ...init, headers });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

async function confirmedUser(options: Parameters<ReturnType<typeof admin>['createUser']>[0] = {}) {
  const email = uniqueEmail('admin');
  const { data, error } = await admin().createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
    ...options,
  });
  expect(error).toBeNull();
  return { email, user: data.user! };
}

async function countRows(table: string, userId: string): Promise<number> {
  const { rows } = await server.db.query<{ count: string }>(
    `select count(*)::text as count from auth.${table} where user_id = $1`,
    [userId],
  );
  return Number(rows[0]!.count);
}

describe('admin authorisation', () => {
  it('refuses the anon key and calls without a token', async () => {
    const { error } = await clientFor(server).auth.admin.listUsers();
    expect(error).toMatchObject({ status: 403, code: 'not_admin', message: 'User not allowed' });
    const { response, body } = await raw('/admin/users', { token: null });
    expect(response.status).toBe(401);
    expect(body).toEqual({
      code: 'no_authorization',
      message: 'This endpoint requires a valid Bearer token',
    });
    const invite = await clientFor(server).auth.admin.inviteUserByEmail(uniqueEmail());
    expect(invite.error).toMatchObject({ status: 403, code: 'not_admin' });
  });
});

describe('listUsers', () => {
  it('pages newest first with GoTrue headers', async () => {
    const created = [];
    for (let index = 0; index < 3; index += 1) {
      created.push((await admin().createUser({ email: uniqueEmail('list') })).data.user!);
    }
    const { rows } = await server.db.query<{ count: string }>(
      `select count(*)::text as count from auth.users where aud = 'authenticated'`,
    );
    const total = Number(rows[0]!.count);
    const lastPage = Math.ceil(total / 2);

    const { data, error } = await admin().listUsers({ page: 1, perPage: 2 });
    expect(error).toBeNull();
    expect(data).toMatchObject({ aud: 'authenticated' });
    expect(data.users.map((user) => user.id)).toEqual([created[2]!.id, created[1]!.id]);
    expect(data.users[0]).toMatchObject({
      email: created[2]!.email,
      identities: [expect.anything()],
    });
    expect(data).toMatchObject({ total, nextPage: 2 });
    // The client reads only the first digit of the page numbers.
    expect((data as unknown as { lastPage: number }).lastPage).toBe(Number(String(lastPage)[0]));

    const { response } = await raw('/admin/users?page=1&per_page=2');
    expect(response.headers.get('x-total-count')).toBe(String(total));
    expect(response.headers.get('link')).toBe(
      `</admin/users?page=2&per_page=2>; rel="next", </admin/users?page=${lastPage}&per_page=2>; rel="last"`,
    );
    const defaults = await raw('/admin/users?page=&per_page=');
    const pages = Math.ceil(total / 50);
    expect(defaults.response.headers.get('link')).toBe(
      `${pages > 1 ? '</admin/users?page=2&per_page=>; rel="next", ' : ''}</admin/users?page=${pages}&per_page=>; rel="last"`,
    );
    expect((defaults.body.users as unknown[]).length).toBe(Math.min(total, 50));

    const beyond = await admin().listUsers({ page: 1000, perPage: 2 });
    expect(beyond.data.users).toEqual([]);
  });

  it('refuses bad pagination parameters', async () => {
    const { error } = await admin().listUsers({ page: -1, perPage: 10 });
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Bad Pagination Parameters: strconv.ParseUint: parsing "-1": invalid syntax',
    });
    const { response, body } = await raw('/admin/users?per_page=abc');
    expect(response.status).toBe(400);
    expect(body.message).toBe(
      'Bad Pagination Parameters: strconv.ParseUint: parsing "abc": invalid syntax',
    );
  });
});

describe('createUser', () => {
  it('creates a confirmed user with metadata and a role, who can sign in', async () => {
    const email = uniqueEmail('create');
    const { data, error } = await admin().createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { name: 'Ada' },
      app_metadata: { plan: 'pro' },
      role: 'editor',
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'editor',
      user_metadata: { name: 'Ada', email_verified: true },
      app_metadata: { provider: 'email', providers: ['email'], plan: 'pro' },
      is_anonymous: false,
    });
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String));
    expect(data.user?.identities).toHaveLength(1);
    const signedIn = await anon().signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.user?.role).toBe('editor');

    const { rows } = await server.db.query<{ actor: string; id: string }>(
      `select payload->>'actor_username' as actor, payload->>'actor_id' as id from auth.audit_log_entries
       where payload->>'action' = 'user_signedup' and payload->'traits'->>'user_id' = $1`,
      [data.user!.id],
    );
    expect(rows).toEqual([{ actor: 'service_role', id: '00000000-0000-0000-0000-000000000000' }]);
  });

  it('creates phone users and users with a chosen id; unconfirmed by default', async () => {
    const phone = uniquePhone();
    const byPhone = await admin().createUser({ phone: `+${phone}`, phone_confirm: true });
    expect(byPhone.data.user).toMatchObject({
      phone,
      email: '',
      app_metadata: { provider: 'phone', providers: ['phone'] },
    });
    expect(byPhone.data.user?.phone_confirmed_at).toEqual(expect.any(String));
    const id = randomUUID();
    const withId = await admin().createUser({ id, email: uniqueEmail('id') } as never);
    expect(withId.data.user?.id).toBe(id);
    expect(withId.data.user?.email_confirmed_at).toBeUndefined();
    expect(withId.data.user?.role).toBe('authenticated');
  });

  it('imports bcrypt and argon2 password hashes that then sign in', async () => {
    for (const hash of [await bcrypt.hash(PASSWORD, 10), await argon2.hash(PASSWORD)]) {
      const email = uniqueEmail('hash');
      const { error } = await admin().createUser({
        email,
        password_hash: hash,
        email_confirm: true,
      });
      expect(error).toBeNull();
      const signedIn = await anon().signInWithPassword({ email, password: PASSWORD });
      expect(signedIn.error).toBeNull();
      const wrong = await anon().signInWithPassword({ email, password: 'not the password' });
      expect(wrong.error?.code).toBe('invalid_credentials');
    }
  });

  it('answers GoTrue errors', async () => {
    const { email } = await confirmedUser();
    const phone = uniquePhone();
    await admin().createUser({ phone });
    const cases: [Record<string, unknown>, number, string, string][] = [
      [
        { password: PASSWORD },
        400,
        'validation_failed',
        'Cannot create a user without either an email or phone',
      ],
      [
        { email: email.toUpperCase() },
        422,
        'email_exists',
        'A user with this email address has already been registered',
      ],
      [
        { phone: `+${phone}` },
        422,
        'phone_exists',
        'Phone number already registered by another user',
      ],
      [
        { email: uniqueEmail(), password: PASSWORD, password_hash: await bcrypt.hash(PASSWORD, 4) },
        400,
        'validation_failed',
        'Only a password or a password hash should be provided',
      ],
      [
        { email: uniqueEmail(), id: 'not-a-uuid' },
        400,
        'validation_failed',
        'ID must conform to the uuid v4 format',
      ],
      [
        { email: uniqueEmail(), id: '00000000-0000-0000-0000-000000000000' },
        400,
        'validation_failed',
        'ID cannot be a nil uuid',
      ],
      [
        { email: 'not-an-email' },
        400,
        'validation_failed',
        'Unable to validate email address: invalid format',
      ],
      [{ phone: '12' }, 400, 'validation_failed', 'Invalid phone number format (E.164 required)'],
      [
        { email: uniqueEmail(), password_hash: 'not-a-hash' },
        400,
        'validation_failed',
        'crypto/bcrypt: hashedSecret too short to be a bcrypted password',
      ],
      [
        { email: uniqueEmail(), password_hash: '$argon2id$v=19$garbage' },
        400,
        'validation_failed',
        'crypto: incorrect argon2 hash format',
      ],
      [
        { email: uniqueEmail(), password: 'x'.repeat(73) },
        400,
        'validation_failed',
        'Password cannot be longer than 72 characters',
      ],
      [
        { email: uniqueEmail(), ban_duration: 'never' },
        400,
        'validation_failed',
        'invalid format for ban duration: time: invalid duration "never"',
      ],
    ];
    for (const [attributes, status, code, message] of cases) {
      const { data, error } = await admin().createUser(attributes);
      expect(data.user, JSON.stringify(attributes)).toBeNull();
      expect(error, JSON.stringify(attributes)).toMatchObject({ status, code, message });
    }
  });
});

describe('getUserById', () => {
  it('returns the user, or GoTrue 404s', async () => {
    const { user } = await confirmedUser();
    const { data, error } = await admin().getUserById(user.id);
    expect(error).toBeNull();
    expect(data.user).toEqual(user);
    const missing = await admin().getUserById(randomUUID());
    expect(missing.error).toMatchObject({
      status: 404,
      code: 'user_not_found',
      message: 'User not found',
    });
    const { response, body } = await raw('/admin/users/not-a-uuid');
    expect(response.status).toBe(404);
    expect(body).toEqual({ code: 'validation_failed', message: 'user_id must be an UUID' });
  });
});

describe('updateUserById', () => {
  it('merges metadata (null removes a key)', async () => {
    const { user } = await confirmedUser({ user_metadata: { a: 1, b: 2 }, app_metadata: { x: 1 } });
    const { data, error } = await admin().updateUserById(user.id, {
      user_metadata: { b: 3, c: 4, a: null },
      app_metadata: { y: 2 },
    });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toEqual({ b: 3, c: 4, email_verified: true });
    expect(data.user?.app_metadata).toEqual({
      provider: 'email',
      providers: ['email'],
      x: 1,
      y: 2,
    });
  });

  it('changes email, phone and password directly, ending existing sessions', async () => {
    const { email, user } = await confirmedUser();
    const session = (await anon().signInWithPassword({ email, password: PASSWORD })).data.session!;
    const newEmail = uniqueEmail('renamed');
    const phone = uniquePhone();
    const newPassword = 'another long password 42';
    const { data, error } = await admin().updateUserById(user.id, {
      email: newEmail,
      email_confirm: true,
      phone,
      password: newPassword,
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email: newEmail, phone });
    const emailIdentity = data.user?.identities?.find((identity) => identity.provider === 'email');
    expect(emailIdentity?.identity_data).toMatchObject({ email: newEmail, email_verified: true });
    expect(data.user?.identities).toHaveLength(2);
    const refreshed = await anon().refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error).not.toBeNull();
    const oldPassword = await anon().signInWithPassword({ email: newEmail, password: PASSWORD });
    expect(oldPassword.error?.code).toBe('invalid_credentials');
    const signedIn = await anon().signInWithPassword({ email: newEmail, password: newPassword });
    expect(signedIn.error).toBeNull();

    const { email: otherEmail } = await confirmedUser();
    const taken = await admin().updateUserById(user.id, { email: otherEmail });
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' });
    const weak = await admin().updateUserById(user.id, { password: 'short' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' });
  });

  it('bans for a Go duration, and "none" unbans', async () => {
    const { email, user } = await confirmedUser();
    const before = Date.now();
    const banned = await admin().updateUserById(user.id, { ban_duration: '1h30m' });
    expect(banned.error).toBeNull();
    const until = Date.parse(banned.data.user!.banned_until!);
    expect(Math.abs(until - before - 5_400_000)).toBeLessThan(60_000);
    const refused = await anon().signInWithPassword({ email, password: PASSWORD });
    expect(refused.error).toMatchObject({
      status: 400,
      code: 'user_banned',
      message: 'User is banned',
    });

    const century = await admin().updateUserById(user.id, { ban_duration: '876000h' });
    expect(new Date(century.data.user!.banned_until!).getUTCFullYear()).toBeGreaterThan(2100);

    const unbanned = await admin().updateUserById(user.id, { ban_duration: 'none' });
    expect(unbanned.error).toBeNull();
    expect(unbanned.data.user?.banned_until).toBeUndefined();
    expect((await anon().signInWithPassword({ email, password: PASSWORD })).error).toBeNull();

    const invalid = await admin().updateUserById(user.id, { ban_duration: '10 days' });
    expect(invalid.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'invalid format for ban duration: time: unknown unit " days" in duration "10 days"',
    });
    const missing = await admin().updateUserById(randomUUID(), { user_metadata: {} });
    expect(missing.error).toMatchObject({ status: 404, code: 'user_not_found' });
  });
});

describe('deleteUser', () => {
  it('hard-deletes a user and everything it owns', async () => {
    const { email, user } = await confirmedUser();
    await anon().signInWithPassword({ email, password: PASSWORD });
    const { data, error } = await admin().deleteUser(user.id);
    expect(error).toBeNull();
    expect(data.user?.id).toBe(user.id);
    expect((await admin().getUserById(user.id)).error?.code).toBe('user_not_found');
    expect(await countRows('identities', user.id)).toBe(0);
    expect(await countRows('sessions', user.id)).toBe(0);
    const again = await admin().deleteUser(user.id);
    expect(again.error).toMatchObject({ status: 404, code: 'user_not_found' });
  });

  it('soft-deletes as GoTrue: obfuscated addresses, cleared metadata, no sessions', async () => {
    const { email, user } = await confirmedUser({ user_metadata: { name: 'Grace' } });
    await anon().signInWithPassword({ email, password: PASSWORD });
    const { error } = await admin().deleteUser(user.id, true);
    expect(error).toBeNull();
    const { data } = await admin().getUserById(user.id);
    expect(data.user?.deleted_at).toEqual(expect.any(String));
    expect(data.user?.email).toBe(
      createHash('sha256')
        .update(user.id + email)
        .digest('base64url'),
    );
    expect(data.user?.user_metadata).toEqual({});
    expect(data.user?.app_metadata).toEqual({});
    expect(data.user?.identities?.[0]?.identity_data).toEqual({});
    expect(await countRows('sessions', user.id)).toBe(0);
    const signIn = await anon().signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error?.code).toBe('invalid_credentials');
    expect((await admin().deleteUser(user.id, true)).error).toBeNull();
    const reused = await admin().createUser({ email, password: PASSWORD });
    expect(reused.error).toBeNull();
  });
});

describe('inviteUserByEmail', () => {
  it('creates the user, mails the invitation, and the link signs in', async () => {
    const email = uniqueEmail('invite');
    const redirectTo = `${server.url}/welcome`;
    const { data, error } = await admin().inviteUserByEmail(email, {
      data: { team: 'blue' },
      redirectTo,
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, user_metadata: { team: 'blue' } });
    expect(data.user?.invited_at).toEqual(expect.any(String));
    expect(data.user?.confirmation_sent_at).toEqual(expect.any(String));
    const mail = await latestMessage(server.db, email, 'auth.invite');
    expect(mail.metadata.link).toContain('type=invite');
    const response = await fetch(mail.metadata.link!, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(
      new RegExp(`^${redirectTo}#access_token=.+&type=invite`),
    );
    const confirmed = await admin().getUserById(data.user!.id);
    expect(confirmed.data.user?.email_confirmed_at).toEqual(expect.any(String));

    const again = await admin().inviteUserByEmail(email);
    expect(again.error).toMatchObject({
      status: 422,
      code: 'email_exists',
      message: 'A user with this email address has already been registered',
    });
    const bad = await admin().inviteUserByEmail('not-an-email');
    expect(bad.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });
});

describe('generateLink', () => {
  const follow = async (link: string) => {
    const response = await fetch(link, { redirect: 'manual' });
    expect(response.status).toBe(303);
    return response.headers.get('location') ?? '';
  };

  it('signup: creates the user without mailing, and the link confirms it', async () => {
    const email = uniqueEmail('link-signup');
    const redirectTo = `${server.url}/after`;
    const { data, error } = await admin().generateLink({
      type: 'signup',
      email,
      password: PASSWORD,
      options: { data: { plan: 'trial' }, redirectTo },
    });
    expect(error).toBeNull();
    expect(data.properties).toMatchObject({
      verification_type: 'signup',
      redirect_to: redirectTo,
      email_otp: expect.stringMatching(/^\d{6}$/),
      hashed_token: expect.stringMatching(/^[0-9a-f]{56}$/),
    });
    expect(data.properties?.action_link).toBe(
      `${server.url}/auth/v1/verify?token=${data.properties?.hashed_token}&type=signup&redirect_to=${encodeURIComponent(redirectTo)}`,
    );
    expect(data.user).toMatchObject({ email, user_metadata: { plan: 'trial' } });
    expect(data.user?.confirmation_sent_at).toEqual(expect.any(String));
    expect(data.user?.email_confirmed_at).toBeUndefined();
    await expect(latestMessage(server.db, email)).rejects.toThrow('no message');
    expect(await follow(data.properties!.action_link)).toMatch(
      new RegExp(`^${redirectTo}#access_token=.+&type=signup`),
    );
    expect((await anon().signInWithPassword({ email, password: PASSWORD })).error).toBeNull();

    const again = await admin().generateLink({ type: 'signup', email, password: PASSWORD });
    expect(again.error).toMatchObject({ status: 422, code: 'email_exists' });
    const noPassword = await admin().generateLink({
      type: 'signup',
      email: uniqueEmail(),
      password: '',
    });
    expect(noPassword.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Signup requires a valid password',
    });
  });

  it('invite, magiclink and recovery links verify', async () => {
    const invitee = uniqueEmail('link-invite');
    const invite = await admin().generateLink({ type: 'invite', email: invitee });
    expect(invite.data.user?.invited_at).toEqual(expect.any(String));
    expect(invite.data.properties?.verification_type).toBe('invite');
    const accepted = await anon().verifyOtp({
      token_hash: invite.data.properties!.hashed_token,
      type: 'invite',
    });
    expect(accepted.error).toBeNull();
    expect(accepted.data.session?.user.email).toBe(invitee);

    const { email, user } = await confirmedUser();
    const magic = await admin().generateLink({ type: 'magiclink', email });
    expect(magic.data.properties?.verification_type).toBe('magiclink');
    expect(magic.data.user?.id).toBe(user.id);
    expect(await follow(magic.data.properties!.action_link)).toMatch(
      /#access_token=.+&type=magiclink/,
    );

    const recovery = await admin().generateLink({ type: 'recovery', email });
    expect(recovery.data.user?.recovery_sent_at).toEqual(expect.any(String));
    const recovered = await anon().verifyOtp({
      email,
      token: recovery.data.properties!.email_otp,
      type: 'recovery',
    });
    expect(recovered.error).toBeNull();
    expect(recovered.data.user?.id).toBe(user.id);
  });

  it('a magic link for an unknown address signs it up; recovery needs a user', async () => {
    const email = uniqueEmail('link-new');
    const { data, error } = await admin().generateLink({ type: 'magiclink', email });
    expect(error).toBeNull();
    expect(data.properties?.verification_type).toBe('signup');
    expect(data.user?.email).toBe(email);
    const recovery = await admin().generateLink({ type: 'recovery', email: uniqueEmail() });
    expect(recovery.error).toMatchObject({
      status: 404,
      code: 'user_not_found',
      message: 'User with this email not found',
    });
  });

  it('email change links move the address once both are followed', async () => {
    const { email, user } = await confirmedUser();
    const newEmail = uniqueEmail('link-changed');
    const toNew = await admin().generateLink({ type: 'email_change_new', email, newEmail });
    expect(toNew.error).toBeNull();
    expect(toNew.data.user?.new_email).toBe(newEmail);
    expect(toNew.data.properties?.action_link).toContain('type=email_change');
    const toCurrent = await admin().generateLink({ type: 'email_change_current', email, newEmail });
    expect(toCurrent.data.properties?.verification_type).toBe('email_change_current');
    expect(await follow(toNew.data.properties!.action_link)).toContain('#message=');
    expect(await follow(toCurrent.data.properties!.action_link)).toMatch(/#access_token=/);
    expect((await admin().getUserById(user.id)).data.user?.email).toBe(newEmail);

    const noNewEmail = await admin().generateLink({
      type: 'email_change_new',
      email: newEmail,
      newEmail: '',
    });
    expect(noNewEmail.error).toMatchObject({
      status: 400,
      message: 'An email address is required',
    });
    const { response, body } = await raw('/admin/generate_link', {
      method: 'POST',
      body: JSON.stringify({ type: 'bogus', email: newEmail }),
    });
    expect(response.status).toBe(400);
    expect(body).toEqual({
      code: 'validation_failed',
      message: 'Invalid email action link type requested: bogus',
    });
  });
});

describe('admin MFA', () => {
  it('lists and deletes factors; sessions it raised fall back to aal1', async () => {
    const { email, user } = await confirmedUser();
    const factorId = randomUUID();
    await server.db.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret)
       values ($1, $2, 'phone app', 'totp', 'verified', 'JBSWY3DPEHPK3PXP')`,
      [factorId, user.id],
    );
    const session = (await anon().signInWithPassword({ email, password: PASSWORD })).data.session!;
    const sessionId = JSON.parse(
      Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString(),
    ).session_id as string;
    await server.db.query(`update auth.sessions set aal = 'aal2', factor_id = $1 where id = $2`, [
      factorId,
      sessionId,
    ]);
    await server.db.query(
      `insert into auth.mfa_amr_claims (session_id, authentication_method) values ($1, 'totp')`,
      [sessionId],
    );

    const listed = await admin().mfa.listFactors({ userId: user.id });
    expect(listed.error).toBeNull();
    expect(listed.data?.factors).toEqual([
      expect.objectContaining({
        id: factorId,
        factor_type: 'totp',
        status: 'verified',
        friendly_name: 'phone app',
      }),
    ]);
    const deleted = await admin().mfa.deleteFactor({ userId: user.id, id: factorId });
    expect(deleted.error).toBeNull();
    // The client wraps the factor once more: data is GoTrue's body under `data`.
    expect(deleted.data).toMatchObject({ data: { id: factorId, factor_type: 'totp' } });
    const { rows } = await server.db.query<{ aal: string; factor_id: string | null; amr: string }>(
      `select aal, factor_id, (select count(*)::text from auth.mfa_amr_claims where session_id = s.id
         and authentication_method = 'totp') as amr from auth.sessions s where id = $1`,
      [sessionId],
    );
    expect(rows[0]).toEqual({ aal: 'aal1', factor_id: null, amr: '0' });
    expect((await admin().mfa.listFactors({ userId: user.id })).data?.factors).toEqual([]);
    const again = await admin().mfa.deleteFactor({ userId: user.id, id: factorId });
    expect(again.error).toMatchObject({
      status: 404,
      code: 'mfa_factor_not_found',
      message: 'Factor not found',
    });
  });
});

describe('features GoTrue has and this server does not offer', () => {
  it('answers the admin passkey, OAuth client and custom provider APIs as GoTrue does with them off', async () => {
    const { user } = await confirmedUser();
    // GoTrue does not put the admin passkey routes behind its switch: nobody has one here.
    expect(await admin().passkey.listPasskeys({ userId: user.id })).toEqual({
      data: [],
      error: null,
    });
    const deleted = await admin().passkey.deletePasskey({
      userId: user.id,
      passkeyId: randomUUID(),
    });
    expect(deleted.error).toMatchObject({
      status: 404,
      code: 'validation_failed',
      message: 'Passkey not found',
    });
    const nobody = await admin().passkey.listPasskeys({ userId: randomUUID() });
    expect(nobody.error).toMatchObject({ status: 404, code: 'user_not_found' });

    const oauthOff = { status: 404, code: 'feature_disabled', message: 'OAuth server is disabled' };
    expect((await admin().oauth.listClients()).error).toMatchObject(oauthOff);
    const created = await admin().oauth.createClient({
      client_name: 'Partner app',
      redirect_uris: ['https://partner.example.com/callback'],
    });
    expect(created.error).toMatchObject(oauthOff);
    expect((await admin().oauth.getClient(randomUUID())).error).toMatchObject(oauthOff);
    // Only an admin learns that: the anon key is refused first, as for every admin route.
    const anonList = await clientFor(server).auth.admin.oauth.listClients();
    expect(anonList.error).toMatchObject({ status: 403, code: 'not_admin' });

    const custom = await raw('/admin/custom-providers');
    expect(custom.response.status).toBe(404);
    expect(custom.body).toEqual({
      code: 'feature_disabled',
      message: 'Custom OAuth providers are disabled',
    });
    expect((await raw('/admin/custom-providers', { token: null })).response.status).toBe(401);
  });
});
