import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAUTH_ENV, oauthFlow } from '../auth/testing/oauth-flow';
import { addMember, workspaceOf } from '../calls/ingestion-testing';
import { signedInClient, type SignedIn } from '../forms/forms-testing';
import { PASSWORD, totpCode } from '../schema/test-world';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * A workspace's connected apps (issue 23): an app a member allowed through the
 * OAuth server acts as that member under row-level security, so the
 * workspace's owners list every member's grants (workspace_connected_apps) and
 * end any of them (revoke_workspace_app), and nobody else may do either.
 */

let server: TestServer;
let owner: SignedIn & { workspaceId: string };
let admin: SignedIn;
let member: SignedIn;
let stranger: SignedIn & { workspaceId: string };
let strangersMember: SignedIn;

beforeAll(async () => {
  server = await startTestServer({ env: OAUTH_ENV });
  const ownerUser = await signedInClient(server, { fullName: 'Olga Owner', company: 'Olga Co' });
  owner = { ...ownerUser, workspaceId: await workspaceOf(server, ownerUser.id) };
  admin = await addMember(server, owner.workspaceId, 'Adam Admin', 'admin');
  member = await addMember(server, owner.workspaceId, 'Mira Member', 'member');
  const strangerUser = await signedInClient(server, { fullName: 'Sven Stranger', company: 'S Co' });
  stranger = { ...strangerUser, workspaceId: await workspaceOf(server, strangerUser.id) };
  strangersMember = await addMember(server, stranger.workspaceId, 'Stina Member', 'member');
});
afterAll(() => server?.close());

const { newClient, appAccessToken: connect } = oauthFlow(() => server);

/** What the app reads on the data API with its token: the member's own profile, or a 401. */
async function appReads(accessToken: string): Promise<number> {
  const app = clientFor(server, {
    global: { headers: { Authorization: `Bearer ${accessToken}` } },
  });
  const { status } = await app.from('profiles').select('id').limit(1);
  return status;
}

const list = (user: SupabaseClient, workspaceId: string) =>
  user.rpc('workspace_connected_apps', { p_workspace_id: workspaceId });

const revoke = (user: SupabaseClient, workspaceId: string, clientId: string, userId: string) =>
  user.rpc('revoke_workspace_app', {
    p_workspace_id: workspaceId,
    p_client_id: clientId,
    p_user_id: userId,
  });

describe('connected apps of a workspace', () => {
  it('shows the owner every member’s grants, and only this workspace’s', async () => {
    const { id: clientId } = await newClient({ public: true, name: 'Reporting app' });
    await connect(member.client, clientId);
    await connect(strangersMember.client, clientId);

    const { data, error } = await list(owner.client, owner.workspaceId);
    expect(error).toBeNull();
    const rows = (data as { client_id: string; user_id: string }[]).filter(
      (row) => row.client_id === clientId,
    );
    expect(rows).toEqual([
      {
        client_id: clientId,
        client_name: 'Reporting app',
        client_uri: null,
        user_id: member.id,
        full_name: 'Mira Member',
        email: member.email.toLowerCase(),
        scopes: ['email', 'profile'],
        granted_at: expect.any(String),
        is_me: false,
      },
    ]);
  });

  it('refuses admins, members and other workspaces’ owners, with a sentence', async () => {
    for (const [who, workspaceId] of [
      [admin.client, owner.workspaceId],
      [member.client, owner.workspaceId],
      [stranger.client, owner.workspaceId],
      [clientFor(server), owner.workspaceId],
    ] as const) {
      const { data, error, status } = await list(who, workspaceId);
      expect(data).toBeNull();
      expect([401, 403]).toContain(status);
      expect(error?.code).toBe('42501');
    }
    const denied = await revoke(stranger.client, owner.workspaceId, randomUUID(), member.id);
    expect(denied.error).toMatchObject({
      code: '42501',
      message: "Only the workspace's owners can see and remove its connected apps.",
    });
  });

  it('asks an owner with a second factor to have passed it', async () => {
    const enrolled = await owner.client.auth.mfa.enroll({ factorType: 'totp' });
    expect(enrolled.error).toBeNull();
    const raised = await owner.client.auth.mfa.challengeAndVerify({
      factorId: enrolled.data!.id,
      code: totpCode(enrolled.data!.totp!.secret),
    });
    expect(raised.error).toBeNull();
    try {
      expect((await list(owner.client, owner.workspaceId)).error).toBeNull();
      const passwordOnly = clientFor(server);
      const signedIn = await passwordOnly.auth.signInWithPassword({
        email: owner.email,
        password: PASSWORD,
      });
      expect(signedIn.error).toBeNull();
      expect((await list(passwordOnly, owner.workspaceId)).error).toMatchObject({ code: '42501' });
      const revoked = await revoke(passwordOnly, owner.workspaceId, randomUUID(), member.id);
      expect(revoked.error).toMatchObject({ code: '42501' });
    } finally {
      expect(
        (await owner.client.auth.mfa.unenroll({ factorId: enrolled.data!.id })).error,
      ).toBeNull();
    }
  });

  it('ends a member’s grant: the app’s token stops at once, the member no longer lists it', async () => {
    const { id: clientId } = await newClient({ public: true, name: 'Sync app' });
    const accessToken = await connect(member.client, clientId);
    expect(await appReads(accessToken)).toBe(200);

    // Another workspace's member cannot be reached through this workspace.
    const strangersToken = await connect(strangersMember.client, clientId);
    const foreign = await revoke(owner.client, owner.workspaceId, clientId, strangersMember.id);
    expect(foreign.status).toBe(404);
    expect(foreign.error).toMatchObject({ code: 'PT404' });
    expect(await appReads(strangersToken)).toBe(200);

    const revoked = await revoke(owner.client, owner.workspaceId, clientId, member.id);
    expect(revoked.error).toBeNull();
    expect(await appReads(accessToken)).toBe(401);
    const own = await member.client.auth.oauth.listGrants();
    expect(own.error).toBeNull();
    expect(own.data!.map((grant) => grant.client.id)).not.toContain(clientId);
    const listed = (await list(owner.client, owner.workspaceId)).data as { client_id: string }[];
    expect(listed.map((row) => row.client_id)).not.toContain(clientId);

    const again = await revoke(owner.client, owner.workspaceId, clientId, member.id);
    expect(again.status).toBe(404);
    const junk = await owner.client.rpc('revoke_workspace_app', {
      p_workspace_id: owner.workspaceId,
      p_client_id: 'not-a-uuid',
      p_user_id: member.id,
    });
    expect(junk.status).toBe(400);

    const { rows } = await server.db.query<{ payload: { traits: Record<string, string> } }>(
      `select payload from auth.audit_log_entries
       where payload->'traits'->>'action' = 'revoke_workspace_app'
         and payload->'traits'->>'oauth_client_id' = $1`,
      [clientId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toMatchObject({
      actor_id: owner.id,
      action: 'token_revoked',
      traits: { user_id: member.id, workspace_id: owner.workspaceId },
    });
  });
});
