import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../schema/test-world';
import {
  expectRefusal,
  signedInClient,
  startFormsServer,
  type SignedIn,
} from '../forms/forms-testing';
import {
  signedInRealtimeClient,
  subscribe,
  uniqueTopic,
  waitUntil,
} from '../realtime/realtime-testing';
import { clientFor, latestMessage, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * The admin users page (issue 17, decision 025): admins search and read
 * accounts, change roles, ban and unban, delete, invite and send password
 * resets; every action is in the audit log with its actor; nobody else gets
 * any of it (customers, partners, anonymous callers and banned admins). A ban
 * or a role change takes effect at once: the person's existing access token
 * stops working on the data API, storage and realtime, and refreshing fails.
 */

let server: TestServer;
let admin: SignedIn;
let customer: SignedIn;
let partner: SignedIn;
let bannedAdmin: SignedIn;
let anon: SupabaseClient;
const realtimeClients: SupabaseClient[] = [];

interface UserRow {
  id: string;
  email: string;
  full_name: string | null;
  company: string | null;
  role: string;
  created_at: string;
  banned_until: string | null;
}

async function auditFor(id: string) {
  const { rows } = await server.db.query<{
    actor_id: string;
    actor_email: string;
    action: string;
    target_table: string;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  }>(
    `select actor_id, actor_email, action, target_table, before, after
     from public.admin_audit_log where target_table = 'users' and target_id = $1 order by id`,
    [id],
  );
  return rows;
}

async function auditCount(): Promise<number> {
  const { rows } = await server.db.query<{ count: number }>(
    `select count(*)::int as count from public.admin_audit_log`,
  );
  return rows[0]!.count;
}

async function roleOf(id: string): Promise<string | null> {
  const { rows } = await server.db.query<{ role: string | null }>(
    `select raw_app_meta_data ->> 'role' as role from auth.users where id = $1`,
    [id],
  );
  return rows[0]?.role ?? null;
}

/** Calls the admin-users edge function with a client's own token. */
async function invokeAdminUsers(client: SupabaseClient, body: Record<string, unknown>) {
  const { data } = await client.auth.getSession();
  const token = data.session?.access_token ?? server.anonKey;
  const response = await fetch(`${server.url}/functions/v1/admin-users`, {
    method: 'POST',
    headers: {
      apikey: server.anonKey,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Every test request comes from one address: the per-address auth limits are out of the way. */
const ENV = { RATE_LIMIT_SIGN_IN_SIGN_UPS: '10000', RATE_LIMIT_EMAIL_SENT: '10000' };

beforeAll(async () => {
  server = await startFormsServer(ENV);
  admin = await signedInClient(server, { fullName: 'Ada Admin', role: 'admin' });
  customer = await signedInClient(server, { fullName: 'Cal Customer', company: 'Cal Co' });
  partner = await signedInClient(server, { fullName: 'Pia Partner', role: 'partner' });
  bannedAdmin = await signedInClient(server, { fullName: 'Bo Banned', role: 'admin' });
  anon = clientFor(server);
  const banned = await admin.client.rpc('admin_ban_user', { p_user_id: bannedAdmin.id });
  expect(banned.error).toBeNull();
}, 120_000);

afterAll(async () => {
  for (const client of realtimeClients) await client.removeAllChannels();
  await server?.close();
});

describe('who may', () => {
  const calls: [string, Record<string, unknown>][] = [
    ['admin_list_users', {}],
    ['admin_get_user', { p_user_id: '00000000-0000-0000-0000-000000000001' }],
    ['admin_list_admins', {}],
    ['admin_set_user_role', { p_user_id: '00000000-0000-0000-0000-000000000001', p_role: 'admin' }],
    ['admin_ban_user', { p_user_id: '00000000-0000-0000-0000-000000000001' }],
    ['admin_unban_user', { p_user_id: '00000000-0000-0000-0000-000000000001' }],
    ['admin_delete_user', { p_user_id: '00000000-0000-0000-0000-000000000001' }],
    ['admin_user_email_target', { p_action: 'invite', p_email: 'x@example.com' }],
    [
      'admin_record_user_email',
      { p_action: 'reset', p_user_id: '00000000-0000-0000-0000-000000000001' },
    ],
  ];

  it('refuses every function to customers, partners, anonymous callers and a banned admin', async () => {
    const before = await auditCount();
    for (const [fn, args] of calls) {
      for (const caller of [customer.client, partner.client]) {
        const result = await caller.rpc(fn, args);
        expect(result.status, fn).toBe(403);
        expect(result.error?.code, fn).toBe('42501');
        expect(result.error?.message, fn).toMatch(/^Only Cervana admins can .+\.$/);
      }
      const asAnon = await anon.rpc(fn, args);
      expect(asAnon.status, fn).toBe(401);
      const asBanned = await bannedAdmin.client.rpc(fn, args);
      expect(asBanned.status, fn).toBe(401);
      expect(asBanned.error?.code, fn).toBe('PGRST303');
    }
    // Nor can anyone change an account or the log behind the functions' backs.
    const direct = await customer.client.from('admin_audit_log').insert({
      action: 'update',
      target_table: 'users',
      actor_id: admin.id,
    });
    expect(direct.error).not.toBeNull();
    expect(await auditCount()).toBe(before);
    expect(await roleOf(customer.id)).toBeNull();
  });

  it('refuses the edge function to customers, partners, anonymous callers and a banned admin, sending nothing', async () => {
    const { rows: before } = await server.db.query<{ count: number }>(
      `select count(*)::int as count from public.outbox_messages`,
    );
    for (const caller of [customer.client, partner.client]) {
      const reset = await invokeAdminUsers(caller, { action: 'reset', user_id: admin.id });
      expect(reset.status).toBe(403);
      expect(reset.body.message).toMatch(/^Only Cervana admins/);
      const invite = await invokeAdminUsers(caller, {
        action: 'invite',
        email: uniqueEmail('nope'),
      });
      expect(invite.status).toBe(403);
    }
    expect((await invokeAdminUsers(anon, { action: 'reset', user_id: admin.id })).status).toBe(403);
    expect(
      (await invokeAdminUsers(bannedAdmin.client, { action: 'reset', user_id: admin.id })).status,
    ).toBe(401);
    const { rows: after } = await server.db.query<{ count: number }>(
      `select count(*)::int as count from public.outbox_messages`,
    );
    expect(after[0]!.count).toBe(before[0]!.count);
  });
});

describe('admin_list_users and admin_get_user', () => {
  it('searches email, domain, name and company by prefix, filters by role and pages by key', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const made: SignedIn[] = [];
    for (let index = 0; index < 5; index += 1) {
      made.push(
        await signedInClient(server, { fullName: `Pat ${tag} ${index}`, company: `${tag} Inc` }),
      );
    }
    const byName = await admin.client.rpc('admin_list_users', { p_search: `PAT ${tag}` });
    expect(byName.error).toBeNull();
    expect((byName.data as UserRow[]).map((row) => row.id)).toEqual(
      made.map((user) => user.id).reverse(),
    );
    const byCompany = await admin.client.rpc('admin_list_users', { p_search: ` ${tag} inc ` });
    expect((byCompany.data as UserRow[]).length).toBe(5);
    const byEmail = await admin.client.rpc('admin_list_users', {
      p_search: made[2]!.email.slice(0, -4),
    });
    expect((byEmail.data as UserRow[]).map((row) => row.id)).toEqual([made[2]!.id]);
    const byDomain = await admin.client.rpc('admin_list_users', {
      p_search: 'example.c',
      p_limit: 100,
    });
    expect((byDomain.data as UserRow[]).length).toBeGreaterThanOrEqual(9);
    // LIKE's characters mean themselves.
    const wild = await admin.client.rpc('admin_list_users', { p_search: '%' });
    expect(wild.data).toEqual([]);

    // Two at a time, by key, newest first, the same set.
    const seen: string[] = [];
    let cursor: UserRow | undefined;
    for (;;) {
      const page = await admin.client.rpc('admin_list_users', {
        p_search: tag,
        p_limit: 2,
        ...(cursor ? { p_after_created_at: cursor.created_at, p_after_id: cursor.id } : {}),
      });
      expect(page.error).toBeNull();
      const rows = page.data as UserRow[];
      seen.push(...rows.map((row) => row.id));
      if (rows.length < 2) break;
      cursor = rows.at(-1);
    }
    expect(seen).toEqual(made.map((user) => user.id).reverse());

    const first = (byName.data as UserRow[])[0]!;
    expect(first).toMatchObject({
      full_name: `Pat ${tag} 4`,
      company: `${tag} Inc`,
      role: 'customer',
      banned_until: null,
    });

    const admins = await admin.client.rpc('admin_list_users', { p_role: 'admin', p_limit: 100 });
    const adminRows = admins.data as UserRow[];
    expect(adminRows.every((row) => row.role === 'admin')).toBe(true);
    expect(adminRows.map((row) => row.id)).toContain(admin.id);
    const partners = await admin.client.rpc('admin_list_users', { p_role: 'partner' });
    expect((partners.data as UserRow[]).map((row) => row.id)).toContain(partner.id);
    const customers = await admin.client.rpc('admin_list_users', {
      p_role: 'customer',
      p_search: tag,
    });
    expect((customers.data as UserRow[]).length).toBe(5);
    const banned = await admin.client.rpc('admin_list_users', { p_search: 'bo ' });
    expect((banned.data as UserRow[])[0]?.banned_until).not.toBeNull();
  });

  it('pages a broad search (hundreds of matches) newest first by key, every match once', async () => {
    const tag = `walk${Date.now().toString(36)}`;
    // 600 accounts straight into the tables (the sign-up triggers off: no workspaces needed).
    await server.db.transaction(async (tx) => {
      await tx.query(`set local session_replication_role = replica`);
      await tx.query(
        `insert into auth.users (id, email, created_at, aud, role, raw_app_meta_data)
         select gen_random_uuid(), $1 || '-' || i || '@example.org', now() - make_interval(secs => i),
                'authenticated', 'authenticated', '{}'
         from generate_series(1, 600) i`,
        [tag],
      );
      await tx.query(
        `insert into public.profiles (id, full_name)
         select id, 'Walker ' || email from auth.users where email like $1 || '-%'`,
        [tag],
      );
    });
    const seen = new Set<string>();
    let cursor: UserRow | undefined;
    let previous = Infinity;
    for (let pages = 0; pages < 20; pages += 1) {
      const page = await admin.client.rpc('admin_list_users', {
        p_search: tag,
        p_limit: 100,
        ...(cursor ? { p_after_created_at: cursor.created_at, p_after_id: cursor.id } : {}),
      });
      expect(page.error).toBeNull();
      const rows = page.data as UserRow[];
      for (const row of rows) {
        expect(row.email!.startsWith(`${tag}-`)).toBe(true);
        const at = Date.parse(row.created_at);
        expect(at).toBeLessThanOrEqual(previous);
        previous = at;
        seen.add(row.id);
      }
      if (rows.length < 100) break;
      cursor = rows.at(-1);
    }
    expect(seen.size).toBe(600);
    const byName = await admin.client.rpc('admin_list_users', {
      p_search: `walker ${tag}`,
      p_limit: 100,
    });
    expect((byName.data as UserRow[]).length).toBe(100);
  });

  it('refuses bad input with a sentence naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ p_search: 'x'.repeat(201) }, 'search'],
      [{ p_search: 'a\u0001b' }, 'search'],
      [{ p_role: 'root' }, 'role'],
      [{ p_limit: 0 }, 'limit'],
      [{ p_limit: 101 }, 'limit'],
      [{ p_after_created_at: new Date().toISOString() }, 'after'],
    ];
    for (const [args, field] of cases) {
      expectRefusal(await admin.client.rpc('admin_list_users', args), 400, field);
    }
    const huge = await admin.client.rpc('admin_list_users', { p_search: 'x'.repeat(200_000) });
    expect(huge.status).toBe(400);
  });

  it('shows one account: profile, role, workspaces, sign-in methods, factors, times', async () => {
    const person = await signedInClient(server, { fullName: 'Gil Get', company: 'Get Co' });
    const enrolled = await person.client.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Phone app',
    });
    expect(enrolled.error).toBeNull();
    const got = await admin.client.rpc('admin_get_user', { p_user_id: person.id });
    expect(got.error).toBeNull();
    const user = got.data as Record<string, unknown>;
    expect(user).toMatchObject({
      id: person.id,
      email: person.email,
      full_name: 'Gil Get',
      company: 'Get Co',
      role: 'customer',
      banned_until: null,
      is_self: false,
      workspaces: [{ name: 'Get Co', role: 'owner' }],
      identities: [{ provider: 'email', email: person.email }],
      factors: [{ factor_type: 'totp', status: 'unverified', friendly_name: 'Phone app' }],
    });
    expect(user.created_at).toEqual(expect.any(String));
    expect(user.last_sign_in_at).toEqual(expect.any(String));

    const self = await admin.client.rpc('admin_get_user', { p_user_id: admin.id });
    expect((self.data as { is_self: boolean }).is_self).toBe(true);
    const missing = await admin.client.rpc('admin_get_user', {
      p_user_id: '00000000-0000-0000-0000-000000000009',
    });
    expect(missing.status).toBe(404);
    expect(missing.error?.message).toBe("This person's account does not exist (any more).");
  });

  it('lists the admins who can own a lead, and no one else', async () => {
    const listed = await admin.client.rpc('admin_list_admins');
    expect(listed.error).toBeNull();
    const ids = (listed.data as { id: string; email: string; full_name: string }[]).map(
      (row) => row.id,
    );
    expect(ids).toContain(admin.id);
    expect(ids).not.toContain(customer.id);
    expect(ids).not.toContain(bannedAdmin.id);
  });
});

describe('roles', () => {
  it('changes a role at once (the old token stops working), logged with before and after', async () => {
    const person = await signedInClient(server, { fullName: 'Rae Role', company: 'Role Co' });
    expect((await person.client.from('profiles').select('id')).status).toBe(200);
    const changed = await admin.client.rpc('admin_set_user_role', {
      p_user_id: person.id,
      p_role: 'partner',
    });
    expect(changed.error).toBeNull();
    expect(changed.data).toMatchObject({ id: person.id, role: 'partner' });
    expect(await roleOf(person.id)).toBe('partner');
    const stale = await person.client.from('profiles').select('id');
    expect(stale.status).toBe(401);
    expect(stale.error?.code).toBe('PGRST303');
    // Signing in again gives the new role.
    const again = clientFor(server);
    const signedIn = await again.auth.signInWithPassword({
      email: person.email,
      password: PASSWORD,
    });
    expect(signedIn.data.user?.app_metadata.role).toBe('partner');

    const back = await admin.client.rpc('admin_set_user_role', {
      p_user_id: person.id,
      p_role: 'customer',
    });
    expect(back.data).toMatchObject({ role: 'customer' });
    expect(await roleOf(person.id)).toBeNull();
    expect(await auditFor(person.id)).toEqual([
      {
        actor_id: admin.id,
        actor_email: admin.email,
        action: 'update',
        target_table: 'users',
        before: { role: 'customer' },
        after: { role: 'partner' },
      },
      expect.objectContaining({ before: { role: 'partner' }, after: { role: 'customer' } }),
    ]);
  });

  it('takes admin data away from a demoted admin at once', async () => {
    const demoted = await signedInClient(server, { fullName: 'Dee Demoted', role: 'admin' });
    const read = await demoted.client.from('admin_audit_log').select('id').limit(1);
    expect(read.data?.length).toBe(1);
    const result = await admin.client.rpc('admin_set_user_role', {
      p_user_id: demoted.id,
      p_role: 'customer',
    });
    expect(result.error).toBeNull();
    const after = await demoted.client.from('admin_audit_log').select('id').limit(1);
    expect(after.status).toBe(401);
    expect(after.data).toBeNull();
    const list = await demoted.client.rpc('admin_list_users', {});
    expect(list.status).toBe(401);
  });

  it('refuses a bad role, an unknown account and changing one’s own role', async () => {
    expectRefusal(
      await admin.client.rpc('admin_set_user_role', { p_user_id: customer.id, p_role: 'owner' }),
      400,
      'role',
    );
    expectRefusal(
      await admin.client.rpc('admin_set_user_role', { p_user_id: customer.id, p_role: null }),
      400,
      'role',
    );
    expectRefusal(
      await admin.client.rpc('admin_set_user_role', { p_user_id: admin.id, p_role: 'customer' }),
      400,
      'user_id',
    );
    const unknown = await admin.client.rpc('admin_set_user_role', {
      p_user_id: '00000000-0000-0000-0000-000000000009',
      p_role: 'partner',
    });
    expect(unknown.status).toBe(404);
    expect(await roleOf(admin.id)).toBe('admin');
    expect(await roleOf(customer.id)).toBeNull();
  });
});

describe('bans', () => {
  it('end the person’s access at once (data API, storage, realtime, refresh), and unbanning restores sign-in', async () => {
    const person = await signedInRealtimeClient(server, { fullName: 'Ben Banned' });
    realtimeClients.push(person.client);
    const { rows } = await server.db.query<{ workspace_id: string }>(
      `select workspace_id from public.workspace_members where user_id = $1`,
      [person.id],
    );
    const folder = rows[0]!.workspace_id;
    const uploaded = await person.client.storage
      .from('knowledge')
      .upload(`${folder}/notes.txt`, new Blob(['hello'], { type: 'text/plain' }), {
        contentType: 'text/plain',
      });
    expect(uploaded.error).toBeNull();
    expect(
      (await person.client.storage.from('knowledge').download(`${folder}/notes.txt`)).error,
    ).toBeNull();
    const channel = person.client.channel(uniqueTopic('banned'));
    expect((await subscribe(channel)).status).toBe('SUBSCRIBED');
    const { data: sessionData } = await person.client.auth.getSession();
    const refreshToken = sessionData.session!.refresh_token;

    const banned = await admin.client.rpc('admin_ban_user', { p_user_id: person.id, p_hours: 24 });
    expect(banned.error).toBeNull();
    const until = new Date((banned.data as UserRow).banned_until!).getTime();
    expect(until).toBeGreaterThan(Date.now() + 23 * 3600_000);

    // The data API: 401 with PostgREST's shape, nothing read.
    const read = await person.client.from('profiles').select('id');
    expect(read.status).toBe(401);
    expect(read.data).toBeNull();
    // Storage: refused.
    const download = await person.client.storage.from('knowledge').download(`${folder}/notes.txt`);
    expect(download.data).toBeNull();
    expect(download.error).not.toBeNull();
    const list = await person.client.storage.from('knowledge').list(folder);
    expect(list.data).toBeNull();
    // Realtime: the open channel is closed and a new join fails.
    await waitUntil(() => channel.state !== 'joined', 'the open channel to close');
    const rejoin = await subscribe(person.client.channel(uniqueTopic('after-ban')));
    expect(rejoin.status).not.toBe('SUBSCRIBED');
    // Refreshing and signing in fail.
    const refreshed = await clientFor(server).auth.refreshSession({ refresh_token: refreshToken });
    expect(refreshed.error).not.toBeNull();
    const signIn = await clientFor(server).auth.signInWithPassword({
      email: person.email,
      password: PASSWORD,
    });
    expect(signIn.error?.code).toBe('user_banned');

    const unbanned = await admin.client.rpc('admin_unban_user', { p_user_id: person.id });
    expect(unbanned.error).toBeNull();
    expect((unbanned.data as UserRow).banned_until).toBeNull();
    const back = clientFor(server);
    const signedIn = await back.auth.signInWithPassword({
      email: person.email,
      password: PASSWORD,
    });
    expect(signedIn.error).toBeNull();
    expect((await back.from('profiles').select('id')).status).toBe(200);

    const entries = await auditFor(person.id);
    expect(entries.map((entry) => [entry.action, entry.actor_id])).toEqual([
      ['update', admin.id],
      ['update', admin.id],
    ]);
    expect(entries[0]!.before).toEqual({ banned_until: null });
    expect(entries[0]!.after?.banned_until).toEqual(expect.any(String));
    expect(entries[1]!.after).toEqual({ banned_until: null });
  });

  it('bans indefinitely without a duration, and refuses bad durations and banning oneself', async () => {
    const person = await signedInClient(server, { fullName: 'Ivy Indefinite' });
    const banned = await admin.client.rpc('admin_ban_user', { p_user_id: person.id });
    expect(new Date((banned.data as UserRow).banned_until!).getFullYear()).toBeGreaterThan(
      new Date().getFullYear() + 50,
    );
    for (const hours of [0, -1, 87601]) {
      expectRefusal(
        await admin.client.rpc('admin_ban_user', { p_user_id: customer.id, p_hours: hours }),
        400,
        'hours',
      );
    }
    expectRefusal(
      await admin.client.rpc('admin_ban_user', { p_user_id: admin.id, p_hours: 1 }),
      400,
      'user_id',
    );
    expect((await admin.client.from('profiles').select('id').limit(1)).status).toBe(200);
  });
});

describe('deleting', () => {
  it('removes the account and what hangs on it, keeping who it was in the log', async () => {
    const person = await signedInClient(server, { fullName: 'Del Deleted', company: 'Del Co' });
    const deleted = await admin.client.rpc('admin_delete_user', { p_user_id: person.id });
    expect(deleted.error).toBeNull();
    const { rows } = await server.db.query(
      `select (select count(*)::int from auth.users where id = $1) as users,
              (select count(*)::int from public.profiles where id = $1) as profiles,
              (select count(*)::int from auth.sessions where user_id = $1) as sessions,
              (select count(*)::int from public.workspace_members where user_id = $1) as members`,
      [person.id],
    );
    expect(rows[0]).toEqual({ users: 0, profiles: 0, sessions: 0, members: 0 });
    expect((await person.client.from('profiles').select('id')).status).toBe(401);
    const entries = await auditFor(person.id);
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'delete',
        actor_id: admin.id,
        before: expect.objectContaining({
          email: person.email,
          full_name: 'Del Deleted',
          company: 'Del Co',
          role: 'customer',
        }),
        after: null,
      }),
    ]);
    const again = await admin.client.rpc('admin_delete_user', { p_user_id: person.id });
    expect(again.status).toBe(404);
  });

  it('refuses deleting oneself', async () => {
    expectRefusal(
      await admin.client.rpc('admin_delete_user', { p_user_id: admin.id }),
      400,
      'user_id',
    );
    expect(await roleOf(admin.id)).toBe('admin');
  });
});

describe('invitations and password resets', () => {
  it('invite a new address through the auth service, logged', async () => {
    const email = uniqueEmail('invitee');
    const invited = await invokeAdminUsers(admin.client, {
      action: 'invite',
      email: `  ${email.toUpperCase()} `,
      redirect_to: `${server.url}/auth?mode=reset`,
    });
    expect(invited.status).toBe(200);
    const user = invited.body.user as { id: string; email: string };
    expect(user.email).toBe(email);
    const message = await latestMessage(server.db, email, 'auth.invite');
    expect(message.recipient).toBe(email);
    const entries = await auditFor(user.id);
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'insert',
        actor_id: admin.id,
        actor_email: admin.email,
        after: expect.objectContaining({ email }),
      }),
    ]);

    const twice = await invokeAdminUsers(admin.client, { action: 'invite', email });
    expect(twice.status).toBe(409);
    for (const bad of ['not-an-email', 'a@b', `${'x'.repeat(250)}@example.com`]) {
      const refused = await invokeAdminUsers(admin.client, { action: 'invite', email: bad });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.field).toBe('email');
    }
    expect(
      (await invokeAdminUsers(admin.client, { action: 'invite', email: 'x'.repeat(20_000) }))
        .status,
    ).toBe(413);
    expect((await invokeAdminUsers(admin.client, { action: 'delete' })).status).toBe(400);
  });

  it('send a password reset to the account’s own address, logged', async () => {
    const person = await signedInClient(server, { fullName: 'Rita Reset' });
    const sent = await invokeAdminUsers(admin.client, { action: 'reset', user_id: person.id });
    expect(sent.status).toBe(200);
    const message = await latestMessage(server.db, person.email, 'auth.recovery');
    expect(message.recipient).toBe(person.email);
    expect(await auditFor(person.id)).toEqual([
      expect.objectContaining({
        action: 'update',
        actor_id: admin.id,
        after: { password_reset_sent_to: person.email },
      }),
    ]);
    const unknown = await invokeAdminUsers(admin.client, {
      action: 'reset',
      user_id: '00000000-0000-0000-0000-000000000009',
    });
    expect(unknown.status).toBe(404);
    const bad = await invokeAdminUsers(admin.client, { action: 'reset', user_id: 'me' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('user_id');
  });
});

describe('the last admin', () => {
  let solo: TestServer;
  afterAll(async () => {
    await solo?.close();
  });

  it('stays: two admins removing each other at once leave one', async () => {
    solo = await startFormsServer(ENV);
    const { rows } = await solo.db.query<{ count: number }>(
      `select count(*)::int as count from auth.users where raw_app_meta_data ->> 'role' = 'admin'`,
    );
    expect(rows[0]!.count).toBe(0);
    const first = await signedInClient(solo, { fullName: 'Una One', role: 'admin' });
    const second = await signedInClient(solo, { fullName: 'Tom Two', role: 'admin' });
    const results = await Promise.all([
      first.client.rpc('admin_set_user_role', { p_user_id: second.id, p_role: 'customer' }),
      second.client.rpc('admin_ban_user', { p_user_id: first.id }),
    ]);
    expect(results.filter((result) => result.error === null)).toHaveLength(1);
    const refused = results.find((result) => result.error !== null)!;
    expect([401, 403, 409]).toContain(refused.status);
    const { rows: left } = await solo.db.query<{ count: number }>(
      `select count(*)::int as count from auth.users
       where raw_app_meta_data ->> 'role' = 'admin' and (banned_until is null or banned_until <= now())`,
    );
    expect(left[0]!.count).toBe(1);
  });
});
