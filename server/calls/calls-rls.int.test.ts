import type { RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, type SignedIn } from '../forms/forms-testing';
import { PASSWORD } from '../schema/test-world';
import {
  delay,
  Inbox,
  realtimeClient,
  subscribed,
  uniqueTopic,
} from '../realtime/realtime-testing';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';
import {
  addMember,
  callBody,
  ownerWithSecret,
  postAs,
  raiseRateLimit,
  serviceClient,
  type Owner,
} from './ingestion-testing';

/**
 * Row-level security of the calls (issue 15): a member of workspace A never
 * sees workspace B's calls, transcripts, agents, numbers, recordings or
 * secrets, through the data API, storage or realtime; Cervana's admins read
 * every workspace's calls; anonymous callers read nothing.
 */

type Change = RealtimePostgresChangesPayload<Record<string, unknown>>;

let server: TestServer;
let alpha: Owner;
let beta: Owner;
let alphaMember: SignedIn;
/** A word only B's call says. */
const SECRET_WORD = 'zanzibarquokka';
let betaCall: { id: string; path: string };
let alphaCall: { id: string; path: string };
const realtimeClients: SupabaseClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  alpha = await ownerWithSecret(server, 'Alma Alpha');
  beta = await ownerWithSecret(server, 'Bruno Beta');
  await raiseRateLimit(server, alpha.workspaceId);
  await raiseRateLimit(server, beta.workspaceId);
  alphaMember = await addMember(server, alpha.workspaceId, 'Arlo Member', 'member');

  const ingest = async (owner: Owner, body: Record<string, unknown>) => {
    const result = await postAs(server, owner, body);
    expect(result.status).toBe(201);
    const upload = result.body.recording_upload!;
    const put = await fetch(upload.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'audio/mpeg' },
      body: Buffer.from(`ID3 recording of ${owner.workspaceId}`),
    });
    expect(put.status).toBe(200);
    return { id: result.body.id!, path: upload.path };
  };
  betaCall = await ingest(
    beta,
    callBody({
      summary: `Beta's confidential ${SECRET_WORD} renewal.`,
      transcript: [{ speaker: 'caller', start_ms: 0, end_ms: 900, text: `My ${SECRET_WORD} code` }],
      to: '+442079460111',
    }),
  );
  alphaCall = await ingest(alpha, callBody({ summary: 'Alpha call about invoices.' }));
  await serviceClient(server)
    .from('phone_numbers')
    .insert({ workspace_id: beta.workspaceId, e164: '+442079460111', label: 'Beta line' });
});
afterAll(async () => {
  await Promise.all(realtimeClients.map((client) => client.removeAllChannels()));
  await server?.close();
});

describe('the data API', () => {
  it("shows a member their workspace's calls and never another's", async () => {
    for (const user of [alpha, alphaMember]) {
      const all = await user.client.from('calls').select('id, workspace_id, transcript, summary');
      expect(all.error).toBeNull();
      expect(all.data!.map((row) => row.workspace_id as string)).not.toContain(beta.workspaceId);
      expect(all.data!.map((row) => row.id as string)).toContain(alphaCall.id);

      const direct = await user.client.from('calls').select('*').eq('id', betaCall.id);
      expect(direct.data).toEqual([]);
      const byWorkspace = await user.client
        .from('calls')
        .select('id')
        .eq('workspace_id', beta.workspaceId);
      expect(byWorkspace.data).toEqual([]);
      const searched = await user.client
        .from('calls')
        .select('id')
        .textSearch('search', SECRET_WORD);
      expect(searched.data).toEqual([]);
      const counted = await user.client
        .from('calls')
        .select('id', { count: 'exact', head: true })
        .eq('workspace_id', beta.workspaceId);
      expect(counted.count).toBe(0);
    }
    // B's own owner finds the word (the search column is real).
    const found = await beta.client.from('calls').select('id').textSearch('search', SECRET_WORD);
    expect(found.data).toEqual([{ id: betaCall.id }]);
  });

  it("hides another workspace's agents and phone numbers", async () => {
    // The member also owns the workspace they got at sign-up: that one and A's, never B's.
    const agents = await alphaMember.client.from('agents').select('workspace_id');
    const seen = agents.data!.map((row) => row.workspace_id as string);
    expect(seen).toContain(alpha.workspaceId);
    expect(seen).not.toContain(beta.workspaceId);
    const numbers = await alpha.client.from('phone_numbers').select('e164');
    expect(numbers.data).toEqual([]);
    const betaNumbers = await beta.client.from('phone_numbers').select('e164');
    expect(betaNumbers.data).toEqual([{ e164: '+442079460111' }]);
    // Nor can A change B's.
    const renamed = await alpha.client
      .from('agents')
      .update({ name: 'Hijacked' })
      .eq('workspace_id', beta.workspaceId)
      .select();
    expect(renamed.data ?? []).toEqual([]);
    const removed = await alpha.client
      .from('phone_numbers')
      .delete()
      .eq('workspace_id', beta.workspaceId)
      .select();
    expect(removed.data ?? []).toEqual([]);
    expect((await beta.client.from('phone_numbers').select('e164')).data).toHaveLength(1);
  });

  it('lets Cervana admins read every workspace, and anonymous callers nothing', async () => {
    const admin = await signedInClient(server, { fullName: 'Sam Staff', role: 'admin' });
    const both = await admin.client
      .from('calls')
      .select('id')
      .in('id', [alphaCall.id, betaCall.id]);
    expect(both.data).toHaveLength(2);

    const anon = clientFor(server);
    for (const table of ['calls', 'agents', 'phone_numbers']) {
      const result = await anon.from(table).select('*');
      expect(result.data, table).toBeNull();
      expect(result.error?.code, table).toBe('42501');
    }
  });

  it("refuses B's ingestion settings to A's owner and members", async () => {
    for (const user of [alpha, alphaMember]) {
      const rotate = await user.client.rpc('rotate_ingestion_secret', {
        p_workspace_id: beta.workspaceId,
      });
      expect(rotate.data).toBeNull();
      expect(rotate.error?.code).toBe('42501');
      const status = await user.client.rpc('ingestion_status', {
        p_workspace_id: beta.workspaceId,
      });
      expect(status.data).toBeNull();
      expect(status.error?.code).toBe('42501');
    }
    // A plain member of A does not rotate A's secret either.
    const byMember = await alphaMember.client.rpc('rotate_ingestion_secret', {
      p_workspace_id: alpha.workspaceId,
    });
    expect(byMember.error?.code).toBe('42501');
    // B's secret still signs (nothing rotated it).
    expect((await postAs(server, beta, callBody())).status).toBe(201);
  });
});

describe('storage', () => {
  it("serves B's recording to B and never to A", async () => {
    const own = await beta.client.storage.from('call-recordings').download(betaCall.path);
    expect(own.error).toBeNull();
    expect(await own.data!.text()).toBe(`ID3 recording of ${beta.workspaceId}`);

    for (const user of [alpha, alphaMember]) {
      const download = await user.client.storage.from('call-recordings').download(betaCall.path);
      expect(download.data).toBeNull();
      const signed = await user.client.storage
        .from('call-recordings')
        .createSignedUrl(betaCall.path, 60);
      expect(signed.data).toBeNull();
      const listed = await user.client.storage.from('call-recordings').list(beta.workspaceId);
      expect(listed.data ?? []).toEqual([]);
      // Nor may a member write recordings (only the signed upload URL does).
      const upload = await user.client.storage
        .from('call-recordings')
        .upload(`${alpha.workspaceId}/forged.mp3`, Buffer.from('ID3'), {
          contentType: 'audio/mpeg',
        });
      expect(upload.error).not.toBeNull();
    }
    const mine = await alphaMember.client.storage
      .from('call-recordings')
      .createSignedUrl(alphaCall.path, 60);
    expect(mine.error).toBeNull();
  });
});

describe('realtime', () => {
  async function listener(user: SignedIn, filter?: string) {
    const client = realtimeClient(server);
    realtimeClients.push(client);
    const { data, error } = await client.auth.signInWithPassword({
      email: user.email,
      password: PASSWORD,
    });
    if (error) throw error;
    client.realtime.setAuth(data.session.access_token);
    const inbox = new Inbox<Change>();
    const channel = client
      .channel(uniqueTopic('calls'))
      .on(
        'postgres_changes' as never,
        { event: '*', schema: 'public', table: 'calls', ...(filter ? { filter } : {}) } as never,
        inbox.push as never,
      );
    await subscribed(channel);
    return inbox;
  }

  it("delivers a new call to its workspace's members only", async () => {
    const betaInbox = await listener(beta, `workspace_id=eq.${beta.workspaceId}`);
    const alphaAll = await listener(alpha);
    const alphaSpying = await listener(alphaMember, `workspace_id=eq.${beta.workspaceId}`);
    const alphaOwn = await listener(alphaMember, `workspace_id=eq.${alpha.workspaceId}`);

    const posted = await postAs(server, beta, callBody({ summary: `Live ${SECRET_WORD}` }));
    expect(posted.status).toBe(201);
    const [change] = await betaInbox.waitFor(1);
    expect(change).toMatchObject({
      eventType: 'INSERT',
      table: 'calls',
      new: { id: posted.body.id, workspace_id: beta.workspaceId },
    });

    const alphaPosted = await postAs(server, alpha, callBody());
    const [own] = await alphaOwn.waitFor(1);
    expect(own!.new).toMatchObject({ id: alphaPosted.body.id });
    const [ownAll] = await alphaAll.waitFor(1);
    expect(ownAll!.new).toMatchObject({ id: alphaPosted.body.id });

    await delay(500);
    expect(alphaAll.items).toHaveLength(1);
    expect(alphaSpying.items).toEqual([]);
    expect(JSON.stringify(alphaAll.items)).not.toContain(SECRET_WORD);
    expect(betaInbox.items).toHaveLength(1);
  });
});
