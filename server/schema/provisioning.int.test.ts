import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoAccounts } from '../auth/demo-accounts';
import type { Database } from '../db/database';
import { withRequestContext } from '../db/request-context';
import { clientFor, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';
import { PASSWORD, createSignedInUser } from './test-world';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: { MAILER_AUTOCONFIRM: 'true', EXTERNAL_ANONYMOUS_USERS_ENABLED: 'true' },
  });
});
afterAll(() => server?.close());

interface Profile {
  full_name: string | null;
  company: string | null;
  created_at: string;
  updated_at: string;
}

async function profileOf(db: Database, userId: string): Promise<Profile | undefined> {
  const { rows } = await db.query<Profile>(
    `select full_name, company, created_at, updated_at from public.profiles where id = $1`,
    [userId],
  );
  return rows[0];
}

/** The user's workspaces as `name (role)`. */
async function workspacesOf(db: Database, userId: string): Promise<string[]> {
  const { rows } = await db.query<{ label: string }>(
    `select w.name || ' (' || m.role || ')' as label from public.workspace_members m
     join public.workspaces w on w.id = m.workspace_id where m.user_id = $1 order by w.name`,
    [userId],
  );
  return rows.map((row) => row.label);
}

async function signUp(data: Record<string, unknown>) {
  const client = clientFor(server);
  const { data: result, error } = await client.auth.signUp({
    email: uniqueEmail('provision'),
    password: PASSWORD,
    options: { data },
  });
  if (error) throw error;
  return { client, id: result.user!.id };
}

describe('sign-up', () => {
  it('creates the profile from the metadata and a workspace the new user owns', async () => {
    const { id } = await signUp({
      full_name: '  Ada \n Lovelace ',
      company: 'Analytical\tEngines ',
    });
    expect(await profileOf(server.db, id)).toMatchObject({
      full_name: 'Ada Lovelace',
      company: 'Analytical Engines',
    });
    expect(await workspacesOf(server.db, id)).toEqual(['Analytical Engines (owner)']);
  });

  it('names the workspace after the person without a company, else "My workspace"', async () => {
    const named = await signUp({ full_name: 'Grace Hopper' });
    expect(await workspacesOf(server.db, named.id)).toEqual(["Grace Hopper's workspace (owner)"]);
    const unnamed = await signUp({});
    expect(await profileOf(server.db, unnamed.id)).toMatchObject({
      full_name: null,
      company: null,
    });
    expect(await workspacesOf(server.db, unnamed.id)).toEqual(['My workspace (owner)']);
  });

  it('ignores metadata that is not text and cuts long values to 120 characters', async () => {
    const { id } = await signUp({ full_name: { first: 'Ada' }, company: `${'x'.repeat(200)}` });
    expect(await profileOf(server.db, id)).toMatchObject({
      full_name: null,
      company: 'x'.repeat(120),
    });
    expect(await workspacesOf(server.db, id)).toEqual([`${'x'.repeat(120)} (owner)`]);
  });

  it('gives admin-created partners and admins a profile but no workspace', async () => {
    for (const role of ['partner', 'admin'] as const) {
      const user = await createSignedInUser(server, {
        fullName: 'Pat Example',
        company: 'Example Co',
        role,
      });
      expect(await profileOf(server.db, user.id)).toMatchObject({
        full_name: 'Pat Example',
        company: 'Example Co',
      });
      expect(await workspacesOf(server.db, user.id)).toEqual([]);
    }
    // The admin API writes metadata after inserting the user: the workspace still gets the company.
    const customer = await createSignedInUser(server, { fullName: 'Cy Customer', company: 'Cyco' });
    expect(await workspacesOf(server.db, customer.id)).toEqual(['Cyco (owner)']);
  });

  it('gives the demo customer a workspace and the demo partner and admin none', async () => {
    const log = { info: () => undefined };
    const accounts = await seedDemoAccounts(server.db, server.config.auth, log);
    expect(accounts.map((account) => account.label)).toEqual(['customer', 'partner', 'admin']);
    const { rows } = await server.db.query<{ id: string; email: string }>(
      `select id, email from auth.users where email like '%@demo.cervana.ai' order by email`,
    );
    const byEmail = Object.fromEntries(rows.map((row) => [row.email, row.id]));
    expect(await workspacesOf(server.db, byEmail['customer@demo.cervana.ai']!)).toEqual([
      'Northwind Logistics (owner)',
    ]);
    for (const email of ['partner@demo.cervana.ai', 'admin@demo.cervana.ai']) {
      expect(await profileOf(server.db, byEmail[email]!)).toBeDefined();
      expect(await workspacesOf(server.db, byEmail[email]!)).toEqual([]);
    }
  });

  it('gives anonymous users a profile, and a workspace once they become permanent', async () => {
    const client = clientFor(server);
    const { data, error } = await client.auth.signInAnonymously();
    expect(error).toBeNull();
    const id = data.user!.id;
    expect(await profileOf(server.db, id)).toMatchObject({ full_name: null, company: null });
    expect(await workspacesOf(server.db, id)).toEqual([]);

    const converted = await client.auth.updateUser({
      email: uniqueEmail('converted'),
      data: { full_name: 'Gus Guest' },
    });
    expect(converted.error).toBeNull();
    expect(converted.data.user?.is_anonymous).toBe(false);
    expect(await workspacesOf(server.db, id)).toEqual(["Gus Guest's workspace (owner)"]);
  });
});

describe('a metadata change', () => {
  it('updates the profile (PUT /auth/v1/user), and the workspace keeps its name', async () => {
    const { client, id } = await signUp({ full_name: 'Ada Lovelace', company: 'Engines' });
    const before = (await profileOf(server.db, id))!;

    expect((await client.auth.updateUser({ data: { full_name: ' Ada King ' } })).error).toBeNull();
    const renamed = (await profileOf(server.db, id))!;
    expect(renamed).toMatchObject({ full_name: 'Ada King', company: 'Engines' });
    expect(Date.parse(renamed.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));

    expect((await client.auth.updateUser({ data: { company: null } })).error).toBeNull();
    expect(await profileOf(server.db, id)).toMatchObject({ full_name: 'Ada King', company: null });
    expect(await workspacesOf(server.db, id)).toEqual(['Engines (owner)']);
  });

  it('leaves the profile alone when other metadata changes', async () => {
    const { client, id } = await signUp({ full_name: 'Ada Lovelace', company: 'Engines' });
    const before = (await profileOf(server.db, id))!;
    expect((await client.auth.updateUser({ data: { theme: 'dark' } })).error).toBeNull();
    expect(await profileOf(server.db, id)).toEqual(before);
  });
});

describe('deleting a user', () => {
  const admin = () => clientFor(server, { key: server.serviceRoleKey }).auth.admin;

  it('removes their profile and memberships, and a workspace they were alone in', async () => {
    const { id } = await signUp({ full_name: 'Short Stay', company: 'Gone Soon' });
    const [workspace] = (
      await server.db.query<{ id: string }>(
        `select id from public.workspaces where created_by = $1`,
        [id],
      )
    ).rows;
    expect((await admin().deleteUser(id)).error).toBeNull();
    expect(await profileOf(server.db, id)).toBeUndefined();
    const left = await server.db.query(
      `select 1 from public.workspace_members where user_id = $1
       union all select 1 from public.workspaces where id = $2`,
      [id, workspace!.id],
    );
    expect(left.rowCount).toBe(0);
  });

  it('hands a shared workspace to the longest-standing admin, else member', async () => {
    const owner = await signUp({ full_name: 'Olive Owner', company: 'Handover Ltd' });
    const member = await createSignedInUser(server, { fullName: 'Mo Member' });
    const adminUser = await createSignedInUser(server, { fullName: 'Ada Admin' });
    const { rows } = await server.db.query<{ id: string }>(
      `select id from public.workspaces where created_by = $1`,
      [owner.id],
    );
    const workspaceId = rows[0]!.id;
    await server.db.query(
      `insert into public.workspace_members (workspace_id, user_id, role, created_at)
       values ($1, $2, 'member', now() - interval '2 days'), ($1, $3, 'admin', now() - interval '1 day')`,
      [workspaceId, member.id, adminUser.id],
    );
    expect((await admin().deleteUser(owner.id)).error).toBeNull();
    expect(await workspacesOf(server.db, adminUser.id)).toContain('Handover Ltd (owner)');
    expect(await workspacesOf(server.db, member.id)).toContain('Handover Ltd (member)');

    expect((await admin().deleteUser(adminUser.id)).error).toBeNull();
    expect(await workspacesOf(server.db, member.id)).toContain('Handover Ltd (owner)');
  });

  it('soft-deleted: the profile keeps no names', async () => {
    const { id } = await signUp({ full_name: 'Soft Delete', company: 'Erased Inc' });
    expect((await admin().deleteUser(id, true)).error).toBeNull();
    expect(await profileOf(server.db, id)).toMatchObject({ full_name: null, company: null });
  });
});

describe('the last owner of a workspace', () => {
  async function twoOwners() {
    const first = await createSignedInUser(server, { fullName: 'First Owner', company: 'Duo' });
    const second = await createSignedInUser(server, { fullName: 'Second Owner' });
    const { rows } = await server.db.query<{ id: string }>(
      `select id from public.workspaces where created_by = $1`,
      [first.id],
    );
    await server.db.query(
      `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'owner')`,
      [rows[0]!.id, second.id],
    );
    return { workspaceId: rows[0]!.id, first, second };
  }

  it('stays even for service_role, and goes with the workspace', async () => {
    const { workspaceId, first, second } = await twoOwners();
    await server.db.query(
      `delete from public.workspace_members where workspace_id = $1 and user_id = $2`,
      [workspaceId, second.id],
    );
    await expect(
      server.db.query(
        `update public.workspace_members set role = 'member' where workspace_id = $1`,
        [workspaceId],
      ),
    ).rejects.toMatchObject({ code: '23514', constraint: 'workspace_members_last_owner' });
    await expect(
      server.db.query(`delete from public.workspace_members where user_id = $1`, [first.id]),
    ).rejects.toMatchObject({ code: '23514' });
    await server.db.query(`delete from public.workspaces where id = $1`, [workspaceId]);
    expect(await workspacesOf(server.db, first.id)).toEqual([]);
  });

  it('survives two owners stepping down at the same moment: one of them stays', async () => {
    const { workspaceId, first, second } = await twoOwners();
    const stepDown = (user: typeof first) =>
      withRequestContext(
        server.db,
        { ...user.identity, method: 'PATCH', path: '/rest/v1/workspace_members', headers: {} },
        async (tx) => {
          await tx.query(
            `update public.workspace_members set role = 'member'
             where workspace_id = $1 and user_id = auth.uid()`,
            [workspaceId],
          );
          await new Promise((resolve) => setTimeout(resolve, 300)); // commit late: overlap
        },
      );
    const results = await Promise.allSettled([stepDown(first), stepDown(second)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const [failure] = results.filter((result) => result.status === 'rejected');
    expect(failure?.reason).toMatchObject({ code: '23514' });
    const { rows } = await server.db.query(
      `select 1 from public.workspace_members where workspace_id = $1 and role = 'owner'`,
      [workspaceId],
    );
    expect(rows).toHaveLength(1);
  });
});
