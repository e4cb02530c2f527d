import type { RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  callBody,
  ownerWithSecret,
  postAs,
  raiseRateLimit,
  workspaceOf,
  type Owner,
} from '../calls/ingestion-testing';
import { syncSiteSettings } from '../db/site-settings';
import { expectRefusal, snapshot, type SignedIn } from '../forms/forms-testing';
import { delay, Inbox, subscribed, uniqueTopic } from '../realtime/realtime-testing';
import { clientFor, latestMessage, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';
import {
  callTeamInvite,
  expectFunctionRefusal,
  followInviteEmail,
  type InviteResult,
} from './team-testing';

/**
 * Team invitations and membership (issue 16): validation of every field, who
 * may invite, resend, revoke and accept, row-level security on
 * workspace_invitations, the last-owner rule, and a removed member's access
 * to calls, recordings and realtime ending at once.
 */

type Change = RealtimePostgresChangesPayload<Record<string, unknown>>;

let server: TestServer;
let owner: Owner;
let admin: SignedIn;
let member: SignedIn;
let stranger: Owner;

const TABLES = [
  'public.workspace_invitations',
  'private.workspace_invitation_sends',
  'public.outbox_messages',
  'public.workspace_members',
  'auth.users',
];

const realtimeClients: SupabaseClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  await syncSiteSettings(server.db, server.config);
  owner = await ownerWithSecret(server, 'Olga Owner');
  await raiseRateLimit(server, owner.workspaceId);
  admin = await addMember(server, owner.workspaceId, 'Adam Admin', 'admin');
  member = await addMember(server, owner.workspaceId, 'Mira Member', 'member');
  stranger = await ownerWithSecret(server, 'Sven Stranger');
});
afterAll(async () => {
  await Promise.all(realtimeClients.map((client) => client.removeAllChannels()));
  await server?.close();
});

const invite = (client: SupabaseClient, email: string, role = 'member', workspaceId?: string) =>
  callTeamInvite(server, client, {
    workspace_id: workspaceId ?? owner.workspaceId,
    email,
    role,
  });

function expectInvited(result: InviteResult, delivery: 'account_invite' | 'team_email') {
  expect(result.status, result.body.message).toBe(201);
  expect(result.body.delivery).toBe(delivery);
  return result.body.invitation!;
}

async function invitationRow(id: string) {
  const { rows } = await server.db.query<{
    revoked_at: string | null;
    accepted_at: string | null;
    declined_at: string | null;
  }>(
    'select revoked_at, accepted_at, declined_at from public.workspace_invitations where id = $1',
    [id],
  );
  return rows[0];
}

describe('validation', () => {
  it('refuses every bad field of invite_to_workspace with 400, the field named, nothing stored', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ p_workspace_id: null, p_email: 'a@example.com', p_role: 'member' }, 'workspace_id'],
      [{ p_workspace_id: owner.workspaceId, p_email: '', p_role: 'member' }, 'email'],
      [{ p_workspace_id: owner.workspaceId, p_email: null, p_role: 'member' }, 'email'],
      [{ p_workspace_id: owner.workspaceId, p_email: 'not-an-address', p_role: 'member' }, 'email'],
      [
        { p_workspace_id: owner.workspaceId, p_email: 'a\n@example.com', p_role: 'member' },
        'email',
      ],
      [
        {
          p_workspace_id: owner.workspaceId,
          p_email: `${'a'.repeat(250)}@example.com`,
          p_role: 'member',
        },
        'email',
      ],
      [{ p_workspace_id: owner.workspaceId, p_email: 'a@example.com', p_role: '' }, 'role'],
      [{ p_workspace_id: owner.workspaceId, p_email: 'a@example.com', p_role: null }, 'role'],
      [
        { p_workspace_id: owner.workspaceId, p_email: 'a@example.com', p_role: 'superuser' },
        'role',
      ],
      [{ p_workspace_id: owner.workspaceId, p_email: 'a@example.com', p_role: 'Owner' }, 'role'],
    ];
    const before = await snapshot(server, TABLES);
    for (const [args, field] of cases) {
      const result = await owner.client.rpc('invite_to_workspace', args);
      expectRefusal(result, 400, field);
    }
    // A workspace admin may not invite an owner: the role is refused.
    const asAdmin = await admin.client.rpc('invite_to_workspace', {
      p_workspace_id: owner.workspaceId,
      p_email: uniqueEmail('would-be-owner'),
      p_role: 'owner',
    });
    expectRefusal(asAdmin, 400, 'role');
    expect(asAdmin.error!.message).toBe(
      'Only an owner can invite another owner. Choose admin or member.',
    );
    expect(await snapshot(server, TABLES)).toEqual(before);
  });

  it('refuses bad requests to the edge function with the field named, nothing stored', async () => {
    const before = await snapshot(server, TABLES);
    const cases: [unknown, number, string][] = [
      [{ workspace_id: 'not-a-uuid', email: 'a@example.com', role: 'member' }, 400, 'workspace_id'],
      [{ email: 'a@example.com', role: 'member' }, 400, 'workspace_id'],
      [{ workspace_id: owner.workspaceId, email: 42, role: 'member' }, 400, 'email'],
      [{ workspace_id: owner.workspaceId, email: ['a@example.com'], role: 'member' }, 400, 'email'],
      [{ workspace_id: owner.workspaceId, email: 'bad address', role: 'member' }, 400, 'email'],
      [{ workspace_id: owner.workspaceId, email: 'a@example.com', role: { $ne: 1 } }, 400, 'role'],
      [{ workspace_id: owner.workspaceId, email: 'a@example.com', role: 'root' }, 400, 'role'],
      [
        { workspace_id: owner.workspaceId, email: 'a@example.com', role: 'member', action: 'drop' },
        400,
        'action',
      ],
      [{ action: 'resend', invitation_id: "x' or 1=1" }, 400, 'invitation_id'],
      [['not', 'an', 'object'], 400, 'body'],
      [null, 400, 'body'],
    ];
    for (const [body, status, field] of cases) {
      expectFunctionRefusal(await callTeamInvite(server, owner.client, body), status, field);
    }
    const notJson = await callTeamInvite(server, owner.client, null, { rawBody: '{"email": ' });
    expectFunctionRefusal(notJson, 400, 'body');
    const huge = await callTeamInvite(server, owner.client, null, {
      rawBody: JSON.stringify({
        workspace_id: owner.workspaceId,
        email: 'a@example.com',
        role: 'member',
        pad: 'x'.repeat(20_000),
      }),
    });
    expectFunctionRefusal(huge, 413);
    expect(await snapshot(server, TABLES)).toEqual(before);
  });

  it('answers the CORS preflight and refuses other methods', async () => {
    const preflight = await fetch(`${server.url}/functions/v1/team-invite`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, x-client-info, apikey, content-type',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const get = await callTeamInvite(server, owner.client, null, { method: 'GET' });
    expectFunctionRefusal(get, 405);
  });
});

describe('who may invite', () => {
  it('lets the owner invite a new address: the auth service mails a link back to the team page', async () => {
    const email = uniqueEmail('newcomer');
    const invitation = expectInvited(
      await invite(owner.client, email.toUpperCase()),
      'account_invite',
    );
    expect(invitation).toMatchObject({ email, role: 'member', workspace_id: owner.workspaceId });
    expect(invitation).not.toHaveProperty('link');
    const mail = await latestMessage(server.db, email, 'auth.invite');
    const redirect = new URL(mail.metadata.link!).searchParams.get('redirect_to');
    expect(redirect).toBe(`${server.config.siteUrl}/dashboard/team?invitation=${invitation.id}`);
  });

  it('lets a workspace admin invite admins and members', async () => {
    const email = uniqueEmail('by-admin');
    expectInvited(await invite(admin.client, email, 'admin'), 'account_invite');
  });

  it('lets an owner invite an owner', async () => {
    expectInvited(await invite(owner.client, uniqueEmail('co-owner'), 'owner'), 'account_invite');
  });

  it('refuses a member, a stranger, an anonymous caller and no token, storing nothing', async () => {
    const before = await snapshot(server, TABLES);
    const email = uniqueEmail('refused');
    const byMember = await invite(member.client, email);
    expectFunctionRefusal(byMember, 403);
    expect(byMember.body.message).toBe("Only the workspace's owners and admins can invite people.");
    // Another workspace's id: its owner is nobody here.
    expectFunctionRefusal(await invite(stranger.client, email, 'member', owner.workspaceId), 403);
    // And the owner cannot invite into the stranger's workspace either.
    expectFunctionRefusal(await invite(owner.client, email, 'member', stranger.workspaceId), 403);
    const asAnon = await callTeamInvite(
      server,
      { token: server.anonKey },
      { workspace_id: owner.workspaceId, email, role: 'member' },
    );
    expectFunctionRefusal(asAnon, 401);
    const noToken = await callTeamInvite(
      server,
      { token: null },
      { workspace_id: owner.workspaceId, email, role: 'member' },
    );
    expect(noToken.status).toBe(401);
    const forged = await callTeamInvite(
      server,
      { token: 'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.c2lnbmF0dXJl' },
      { workspace_id: owner.workspaceId, email, role: 'member' },
    );
    expect(forged.status).toBe(401);
    // Straight to SQL: anon may not execute it; a member is refused.
    const anonRpc = await clientFor(server).rpc('invite_to_workspace', {
      p_workspace_id: owner.workspaceId,
      p_email: email,
      p_role: 'member',
    });
    expect(anonRpc.status).toBe(401);
    const memberRpc = await member.client.rpc('invite_to_workspace', {
      p_workspace_id: owner.workspaceId,
      p_email: email,
      p_role: 'member',
    });
    expect(memberRpc.status).toBe(403);
    // The email function is the service role's alone.
    const queued = await owner.client.rpc('queue_workspace_invitation_email', {
      p_invitation_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(queued.status).toBe(403);
    expect(await snapshot(server, TABLES)).toEqual(before);
  });

  it('refuses an existing member and a repeated invitation with a sentence under email', async () => {
    const before = await snapshot(server, TABLES);
    const existing = await invite(owner.client, member.email);
    expectFunctionRefusal(existing, 400, 'email');
    expect(existing.body.message).toBe(
      `There is already a member with the address ${member.email} in this workspace.`,
    );
    expect(await snapshot(server, TABLES)).toEqual(before);

    const email = uniqueEmail('twice');
    expectInvited(await invite(owner.client, email), 'account_invite');
    const again = await invite(admin.client, email.toUpperCase(), 'admin');
    expectFunctionRefusal(again, 400, 'email');
    expect(again.body.message).toMatch(/^There is already a pending invitation for /);
  });

  it('caps invitation emails per workspace and day', async () => {
    const workspace = await ownerWithSecret(server, 'Lina Limit');
    await server.db.query('update private.team_settings set invitations_per_day = 2');
    try {
      expectInvited(
        await invite(workspace.client, uniqueEmail('cap'), 'member', workspace.workspaceId),
        'account_invite',
      );
      expectInvited(
        await invite(workspace.client, uniqueEmail('cap'), 'member', workspace.workspaceId),
        'account_invite',
      );
      const before = await snapshot(server, TABLES);
      const third = await invite(
        workspace.client,
        uniqueEmail('cap'),
        'member',
        workspace.workspaceId,
      );
      expectFunctionRefusal(third, 429);
      expect(third.body.message).toMatch(
        /^This workspace has sent 2 invitations in the last 24 hours/,
      );
      expect(await snapshot(server, TABLES)).toEqual(before);
    } finally {
      await server.db.query('update private.team_settings set invitations_per_day = 50');
    }
  });
});

describe('row-level security on workspace_invitations', () => {
  let invitationId: string;
  let inviteeEmail: string;

  beforeAll(async () => {
    inviteeEmail = uniqueEmail('rls');
    invitationId = expectInvited(await invite(owner.client, inviteeEmail), 'account_invite').id;
  });

  it('shows invitations to the owner and admins, not to members or strangers', async () => {
    for (const reader of [owner, admin]) {
      const { data, error } = await reader.client
        .from('workspace_invitations')
        .select('id, email, role')
        .eq('id', invitationId);
      expect(error).toBeNull();
      expect(data).toEqual([{ id: invitationId, email: inviteeEmail, role: 'member' }]);
    }
    for (const reader of [member, stranger]) {
      const { data } = await reader.client
        .from('workspace_invitations')
        .select('id')
        .eq('workspace_id', owner.workspaceId);
      expect(data).toEqual([]);
    }
    const anon = await clientFor(server).from('workspace_invitations').select('id');
    expect(anon.data).toBeNull();
    expect(anon.error?.code).toBe('42501');
  });

  it('lets nobody write through the API, not even the owner', async () => {
    const before = await snapshot(server, TABLES);
    for (const writer of [owner, admin, member, stranger]) {
      const inserted = await writer.client.from('workspace_invitations').insert({
        workspace_id: owner.workspaceId,
        email: uniqueEmail('forged'),
        role: 'owner',
      });
      expect(inserted.error?.code).toBe('42501');
      const updated = await writer.client
        .from('workspace_invitations')
        .update({ role: 'owner', expires_at: '2100-01-01T00:00:00Z' })
        .eq('id', invitationId);
      expect(updated.error?.code).toBe('42501');
      const deleted = await writer.client
        .from('workspace_invitations')
        .delete()
        .eq('id', invitationId);
      expect(deleted.error?.code).toBe('42501');
    }
    expect(await snapshot(server, TABLES)).toEqual(before);
  });

  it("shows the invitee their own invitation and nobody else's", async () => {
    const { client } = await followInviteEmail(server, inviteeEmail);
    const own = await client.from('workspace_invitations').select('id, workspace_id');
    expect(own.data).toEqual([{ id: invitationId, workspace_id: owner.workspaceId }]);
    const mine = await client.rpc('my_workspace_invitations');
    expect(mine.data).toEqual([
      expect.objectContaining({
        id: invitationId,
        workspace_name: 'Olga Owner Co',
        role: 'member',
        invited_by_name: 'Olga Owner',
      }),
    ]);
    // The invitee is not a member yet: no team, no calls.
    expect((await client.rpc('workspace_team', { p_workspace_id: owner.workspaceId })).status).toBe(
      403,
    );
    expect((await client.from('calls').select('id')).data).toEqual([]);
  });
});

describe('accepting', () => {
  it('makes a new address a member, without a workspace of its own, once', async () => {
    const email = uniqueEmail('joiner');
    const invitation = expectInvited(await invite(admin.client, email, 'admin'), 'account_invite');
    const { client, redirectedTo } = await followInviteEmail(server, email);
    expect(redirectedTo).toBe(
      `${server.config.siteUrl}/dashboard/team?invitation=${invitation.id}`,
    );
    const { data: user } = await client.auth.getUser();
    // Invited, so no workspace of their own was made at sign-up.
    const before = await server.db.query(
      'select 1 from public.workspace_members where user_id = $1',
      [user.user!.id],
    );
    expect(before.rows).toEqual([]);

    const accepted = await client.rpc('accept_workspace_invitation', {
      p_invitation_id: invitation.id,
    });
    expect(accepted.error).toBeNull();
    expect(accepted.data).toEqual({
      workspace_id: owner.workspaceId,
      workspace_name: 'Olga Owner Co',
      role: 'admin',
    });
    // Idempotent.
    const again = await client.rpc('accept_workspace_invitation', {
      p_invitation_id: invitation.id,
    });
    expect(again.data).toEqual(accepted.data);
    expect(await workspaceOf(server, user.user!.id)).toBe(owner.workspaceId);
    const team = await client.rpc('workspace_team', { p_workspace_id: owner.workspaceId });
    expect(team.data).toContainEqual(
      expect.objectContaining({ email, role: 'admin', is_me: true }),
    );
    expect((await client.rpc('my_workspace_invitations')).data).toEqual([]);
  });

  it('invites an existing account with our own email, and it joins a second workspace', async () => {
    const result = await invite(owner.client, stranger.email.toUpperCase(), 'member');
    const invitation = expectInvited(result, 'team_email');
    const mail = await latestMessage(server.db, stranger.email, 'team.invitation');
    expect(mail.subject).toBe('Join Olga Owner Co on Cervana');
    expect(mail.body_text).toContain(
      'Olga Owner invited you to the Olga Owner Co workspace on Cervana as a member.',
    );
    expect(mail.body_text).toContain(
      `${server.config.siteUrl}/dashboard/team?invitation=${invitation.id}`,
    );
    const accepted = await stranger.client.rpc('accept_workspace_invitation', {
      p_invitation_id: invitation.id,
    });
    expect(accepted.error).toBeNull();
    const { data } = await stranger.client
      .from('workspace_members')
      .select('workspace_id')
      .eq('user_id', stranger.id);
    expect(data!.map((row) => row.workspace_id as string).sort()).toEqual(
      [owner.workspaceId, stranger.workspaceId].sort(),
    );
    // Leave again, so the other tests' stranger is a stranger.
    const left = await stranger.client
      .from('workspace_members')
      .delete()
      .eq('workspace_id', owner.workspaceId)
      .eq('user_id', stranger.id)
      .select();
    expect(left.data).toHaveLength(1);
  });

  it('refuses the wrong user, and a revoked, declined or expired invitation', async () => {
    const email = uniqueEmail('target');
    const invitation = expectInvited(await invite(owner.client, email), 'account_invite');
    const before = await snapshot(server, TABLES);
    for (const wrong of [member, admin, stranger]) {
      const refused = await wrong.client.rpc('accept_workspace_invitation', {
        p_invitation_id: invitation.id,
      });
      expect(refused.status).toBe(403);
      expect(refused.error!.message).toBe(
        'This invitation was sent to another email address. Sign in with that address to accept it.',
      );
      const declined = await wrong.client.rpc('decline_workspace_invitation', {
        p_invitation_id: invitation.id,
      });
      expect(declined.status).toBe(403);
    }
    const unknown = await member.client.rpc('accept_workspace_invitation', {
      p_invitation_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    const nullId = await member.client.rpc('accept_workspace_invitation', {
      p_invitation_id: null,
    });
    expectRefusal(nullId, 400, 'invitation_id');
    expect(await snapshot(server, TABLES)).toEqual(before);

    const { client } = await followInviteEmail(server, email);
    await server.db.query(
      `update public.workspace_invitations set created_at = now() - interval '8 days',
       expires_at = now() - interval '1 day' where id = $1`,
      [invitation.id],
    );
    const expired = await client.rpc('accept_workspace_invitation', {
      p_invitation_id: invitation.id,
    });
    expect(expired.status).toBe(409);
    expect(expired.error!.message).toMatch(/has expired/);
    // Inviting the address again closes the expired one and opens a new one.
    const fresh = expectInvited(await invite(owner.client, email), 'team_email');
    expect((await invitationRow(invitation.id))!.revoked_at).not.toBeNull();

    const revoked = await owner.client.rpc('revoke_workspace_invitation', {
      p_invitation_id: fresh.id,
    });
    expect(revoked.error).toBeNull();
    const afterRevoke = await client.rpc('accept_workspace_invitation', {
      p_invitation_id: fresh.id,
    });
    expect(afterRevoke.status).toBe(409);
    expect(afterRevoke.error!.message).toMatch(/withdrawn/);

    // The address has an account now (the first link confirmed it): our own email.
    const third = expectInvited(await invite(owner.client, email), 'team_email');
    const latest = client;
    expect(
      (await latest.rpc('decline_workspace_invitation', { p_invitation_id: third.id })).error,
    ).toBeNull();
    const afterDecline = await latest.rpc('accept_workspace_invitation', {
      p_invitation_id: third.id,
    });
    expect(afterDecline.status).toBe(409);
    const members = await server.db.query(
      'select 1 from public.workspace_members m join auth.users u on u.id = m.user_id where u.email = $1',
      [email],
    );
    expect(members.rows).toEqual([]);
  });
});

describe('resending and revoking', () => {
  it('resends a pending invitation once a minute, and only for those who may manage it', async () => {
    const email = uniqueEmail('resend');
    const invitation = expectInvited(await invite(owner.client, email), 'account_invite');
    const resend = (client: SupabaseClient) =>
      callTeamInvite(server, client, { action: 'resend', invitation_id: invitation.id });
    expectFunctionRefusal(await resend(owner.client), 429);
    await server.db.query(
      `update public.workspace_invitations set last_sent_at = now() - interval '2 minutes' where id = $1`,
      [invitation.id],
    );
    expectFunctionRefusal(await resend(member.client), 404);
    expectFunctionRefusal(await resend(stranger.client), 404);
    const again = await resend(admin.client);
    expect(again.status, again.body.message).toBe(200);
    expect(again.body.delivery).toBe('account_invite');
    const { rows } = await server.db.query<{ count: number }>(
      `select count(*)::int as count from public.outbox_messages where recipient = $1 and template = 'auth.invite'`,
      [email],
    );
    expect(rows[0]!.count).toBe(2);
  });

  it('revokes for owners and admins; an admin cannot touch an owner invitation', async () => {
    const ownerInvitation = expectInvited(
      await invite(owner.client, uniqueEmail('owner-inv'), 'owner'),
      'account_invite',
    );
    const byAdmin = await admin.client.rpc('revoke_workspace_invitation', {
      p_invitation_id: ownerInvitation.id,
    });
    expect(byAdmin.status).toBe(404);
    for (const outsider of [member, stranger]) {
      const refused = await outsider.client.rpc('revoke_workspace_invitation', {
        p_invitation_id: ownerInvitation.id,
      });
      expect(refused.status).toBe(404);
    }
    expect((await invitationRow(ownerInvitation.id))!.revoked_at).toBeNull();
    const byOwner = await owner.client.rpc('revoke_workspace_invitation', {
      p_invitation_id: ownerInvitation.id,
    });
    expect(byOwner.error).toBeNull();
    expect((await invitationRow(ownerInvitation.id))!.revoked_at).not.toBeNull();
    const twice = await owner.client.rpc('revoke_workspace_invitation', {
      p_invitation_id: ownerInvitation.id,
    });
    expect(twice.status).toBe(409);
  });

  it('closes the open invitations of someone who can no longer invite', async () => {
    const workspace = await ownerWithSecret(server, 'Cora Close');
    const helper = await addMember(server, workspace.workspaceId, 'Hal Helper', 'admin');
    const pending = expectInvited(
      await invite(helper.client, uniqueEmail('orphan'), 'member', workspace.workspaceId),
      'account_invite',
    );
    const demoted = await workspace.client
      .from('workspace_members')
      .update({ role: 'member' })
      .eq('workspace_id', workspace.workspaceId)
      .eq('user_id', helper.id)
      .select();
    expect(demoted.data).toHaveLength(1);
    expect((await invitationRow(pending.id))!.revoked_at).not.toBeNull();
  });
});

describe('the last-owner rule', () => {
  it('keeps the only owner from demoting themselves, leaving or being removed', async () => {
    const workspace = await ownerWithSecret(server, 'Uma Unique');
    const second = await addMember(server, workspace.workspaceId, 'Sid Second', 'admin');
    const demote = await workspace.client
      .from('workspace_members')
      .update({ role: 'admin' })
      .eq('workspace_id', workspace.workspaceId)
      .eq('user_id', workspace.id)
      .select();
    expect(demote.error?.message).toBe('A workspace must keep at least one owner.');
    expect(demote.status).toBe(400);
    const leave = await workspace.client
      .from('workspace_members')
      .delete()
      .eq('workspace_id', workspace.workspaceId)
      .eq('user_id', workspace.id)
      .select();
    expect(leave.error?.message).toBe('A workspace must keep at least one owner.');
    // A workspace admin may not remove or demote an owner at all.
    const removed = await second.client
      .from('workspace_members')
      .delete()
      .eq('workspace_id', workspace.workspaceId)
      .eq('user_id', workspace.id)
      .select();
    expect(removed.data).toEqual([]);
    const selfPromoted = await second.client
      .from('workspace_members')
      .update({ role: 'owner' })
      .eq('workspace_id', workspace.workspaceId)
      .eq('user_id', second.id)
      .select();
    expect(selfPromoted.error?.code).toBe('42501');

    // With a second owner, the first may step down and leave.
    const promoted = await workspace.client
      .from('workspace_members')
      .update({ role: 'owner' })
      .eq('workspace_id', workspace.workspaceId)
      .eq('user_id', second.id)
      .select();
    expect(promoted.data).toHaveLength(1);
    const stepDown = await workspace.client
      .from('workspace_members')
      .update({ role: 'admin' })
      .eq('workspace_id', workspace.workspaceId)
      .eq('user_id', workspace.id)
      .select();
    expect(stepDown.error).toBeNull();
    const left = await workspace.client
      .from('workspace_members')
      .delete()
      .eq('workspace_id', workspace.workspaceId)
      .eq('user_id', workspace.id)
      .select();
    expect(left.data).toHaveLength(1);
    const { rows } = await server.db.query<{ role: string }>(
      'select role from public.workspace_members where workspace_id = $1',
      [workspace.workspaceId],
    );
    expect(rows).toEqual([{ role: 'owner' }]);
  });
});

describe("a removed member's access", () => {
  async function listenForCalls(client: SupabaseClient): Promise<Inbox<Change>> {
    realtimeClients.push(client);
    const { data } = await client.auth.getSession();
    client.realtime.setAuth(data.session!.access_token);
    const inbox = new Inbox<Change>();
    const channel = client
      .channel(uniqueTopic('team-calls'))
      .on(
        'postgres_changes' as never,
        { event: 'INSERT', schema: 'public', table: 'calls' } as never,
        inbox.push as never,
      );
    await subscribed(channel);
    return inbox;
  }

  it('ends at once: data API, storage and realtime', async () => {
    // A teammate joins through an invitation.
    const email = uniqueEmail('teammate');
    const invitation = expectInvited(await invite(owner.client, email), 'account_invite');
    const { client: teammate } = await followInviteEmail(server, email);
    expect(
      (await teammate.rpc('accept_workspace_invitation', { p_invitation_id: invitation.id })).error,
    ).toBeNull();
    const { data: me } = await teammate.auth.getUser();
    const teammateId = me.user!.id;

    // A call with a recording.
    const posted = await postAs(server, owner, callBody({ summary: 'Before removal.' }));
    expect(posted.status).toBe(201);
    const upload = posted.body.recording_upload!;
    const put = await fetch(upload.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'audio/mpeg' },
      body: Buffer.from('ID3 team recording'),
    });
    expect(put.status).toBe(200);

    const inbox = await listenForCalls(teammate);
    const ownerInbox = await listenForCalls(owner.client);

    // While a member: everything.
    const seen = await teammate.from('calls').select('id').eq('id', posted.body.id!);
    expect(seen.data).toEqual([{ id: posted.body.id }]);
    const download = await teammate.storage.from('call-recordings').download(upload.path);
    expect(download.error).toBeNull();
    const live = await postAs(server, owner, callBody({ summary: 'Live while a member.' }));
    const [change] = await inbox.waitFor(1);
    expect(change!.new).toMatchObject({ id: live.body.id });

    // Removed by the owner.
    const removed = await owner.client
      .from('workspace_members')
      .delete()
      .eq('workspace_id', owner.workspaceId)
      .eq('user_id', teammateId)
      .select();
    expect(removed.data).toHaveLength(1);

    // The same session, at once: nothing.
    expect((await teammate.from('calls').select('id')).data).toEqual([]);
    const refused = await teammate.storage.from('call-recordings').download(upload.path);
    expect(refused.data).toBeNull();
    expect(refused.error).not.toBeNull();
    const signed = await teammate.storage.from('call-recordings').createSignedUrl(upload.path, 60);
    expect(signed.data).toBeNull();
    expect(
      (await teammate.rpc('workspace_team', { p_workspace_id: owner.workspaceId })).status,
    ).toBe(403);
    const after = await postAs(server, owner, callBody({ summary: 'After removal.' }));
    expect(after.status).toBe(201);
    // The owner's subscription proves the change went out; the teammate's got none.
    const ownerChanges = await ownerInbox.waitFor(2);
    expect(ownerChanges.map((item) => item.new)).toContainEqual(
      expect.objectContaining({ id: after.body.id }),
    );
    await delay(500);
    expect(inbox.items).toHaveLength(1);

    // The old invitation does not let them back in.
    const back = await teammate.rpc('accept_workspace_invitation', {
      p_invitation_id: invitation.id,
    });
    expect(back.status).toBe(409);
    expect((await teammate.from('calls').select('id')).data).toEqual([]);
  });
});
