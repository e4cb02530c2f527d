import { createHash } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, type SignedIn } from '../forms/forms-testing';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * The product's buckets (supabase/migrations/…_storage_buckets.sql) through
 * the official client: recordings and knowledge belong to a workspace (the
 * first folder of the name), partner assets are public and kept by admins.
 */

let server: TestServer;
let service: SupabaseClient;
let anon: SupabaseClient;
let owner: SignedIn & { workspace: string };
let colleague: SignedIn;
let stranger: SignedIn & { workspace: string };
let admin: SignedIn;
let partner: SignedIn;

async function workspaceOf(userId: string): Promise<string> {
  const { rows } = await server.db.query<{ workspace_id: string }>(
    `select workspace_id from public.workspace_members where user_id = $1 and role = 'owner'`,
    [userId],
  );
  return rows[0]!.workspace_id;
}

const audio = (text: string) => new Blob([text], { type: 'audio/wav' });
const sha256 = async (blob: Blob) =>
  createHash('sha256')
    .update(Buffer.from(await blob.arrayBuffer()))
    .digest('hex');

beforeAll(async () => {
  server = await startTestServer();
  service = clientFor(server, { key: server.serviceRoleKey });
  anon = clientFor(server);
  const [o, s, a, p] = await Promise.all([
    signedInClient(server, { fullName: 'Olive Owner', company: 'Olive Clinics' }),
    signedInClient(server, { fullName: 'Sid Stranger', company: 'Stranger Things Ltd' }),
    signedInClient(server, { fullName: 'Ada Admin', company: 'Cervana', role: 'admin' }),
    signedInClient(server, { fullName: 'Pat Partner', company: 'Pat Partners', role: 'partner' }),
  ]);
  owner = { ...o, workspace: await workspaceOf(o.id) };
  stranger = { ...s, workspace: await workspaceOf(s.id) };
  admin = a;
  partner = p;
  colleague = await signedInClient(server, { fullName: 'Cole Colleague', company: 'Cole Co' });
  await server.db.query(
    `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'member')`,
    [owner.workspace, colleague.id],
  );
}, 60_000);

afterAll(() => server?.close());

describe('call recordings', () => {
  it('are read by the members of their workspace only', async () => {
    const path = `${owner.workspace}/2026-11-21/call-1.wav`;
    const upload = await service.storage.from('call-recordings').upload(path, audio('RIFF one'));
    expect(upload.error).toBeNull();

    for (const member of [owner, colleague]) {
      const { data, error } = await member.client.storage.from('call-recordings').download(path);
      expect(error).toBeNull();
      expect(await sha256(data!)).toBe(await sha256(audio('RIFF one')));
    }
    const denied = await stranger.client.storage.from('call-recordings').download(path);
    expect(denied.data).toBeNull();
    expect(denied.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
    const anonymous = await anon.storage.from('call-recordings').download(path);
    expect(anonymous.error).toMatchObject({ statusCode: '404' });

    const listed = await stranger.client.storage.from('call-recordings').list(owner.workspace);
    expect(listed.data).toEqual([]);
  });

  it('are written by the phone agent, not by users', async () => {
    const { error } = await owner.client.storage
      .from('call-recordings')
      .upload(`${owner.workspace}/forged.wav`, audio('forged'));
    expect(error).toMatchObject({
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    const { rows } = await server.db.query(
      `select 1 from storage.objects where name like '%forged%'`,
    );
    expect(rows).toEqual([]);
  });

  it('accept only audio', async () => {
    const { error } = await service.storage
      .from('call-recordings')
      .upload(`${owner.workspace}/notes.txt`, new Blob(['text'], { type: 'text/plain' }));
    expect(error).toMatchObject({
      statusCode: '415',
      message: 'mime type text/plain is not supported',
    });
  });
});

describe('knowledge documents', () => {
  it('are added by workspace owners, read by members, and refused to plain members and strangers', async () => {
    const path = `${owner.workspace}/faq.md`;
    const added = await owner.client.storage
      .from('knowledge')
      .upload(path, new Blob(['# FAQ'], { type: 'text/markdown' }));
    expect(added.error).toBeNull();
    const read = await colleague.client.storage.from('knowledge').download(path);
    expect(await read.data!.text()).toBe('# FAQ');

    const byMember = await colleague.client.storage
      .from('knowledge')
      .upload(`${owner.workspace}/member.md`, new Blob(['x'], { type: 'text/markdown' }));
    expect(byMember.error).toMatchObject({ statusCode: '403' });
    const intoOther = await stranger.client.storage
      .from('knowledge')
      .upload(`${owner.workspace}/intruder.md`, new Blob(['x'], { type: 'text/markdown' }));
    expect(intoOther.error).toMatchObject({ statusCode: '403' });
    const notAWorkspace = await owner.client.storage
      .from('knowledge')
      .upload(`not-a-uuid/file.md`, new Blob(['x'], { type: 'text/markdown' }));
    expect(notAWorkspace.error).toMatchObject({ statusCode: '403' });

    const removedByStranger = await stranger.client.storage.from('knowledge').remove([path]);
    expect(removedByStranger.data).toEqual([]);
    const removed = await owner.client.storage.from('knowledge').remove([path]);
    expect(removed.data).toHaveLength(1);
  });
});

describe('partner assets', () => {
  it('are added by admins, public to download and listed for partners', async () => {
    const added = await admin.client.storage
      .from('partner-assets')
      .upload('logos/cervana.png', new Blob(['png'], { type: 'image/png' }));
    expect(added.error).toBeNull();
    const byPartner = await partner.client.storage
      .from('partner-assets')
      .upload('logos/mine.png', new Blob(['png'], { type: 'image/png' }));
    expect(byPartner.error).toMatchObject({ statusCode: '403' });

    const { data } = anon.storage.from('partner-assets').getPublicUrl('logos/cervana.png');
    const response = await fetch(data.publicUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(await response.text()).toBe('png');

    const listed = await partner.client.storage.from('partner-assets').list('logos');
    expect(listed.data?.map((entry) => entry.name)).toEqual(['cervana.png']);
    const listedByCustomer = await owner.client.storage.from('partner-assets').list('logos');
    expect(listedByCustomer.data).toEqual([]);
  });

  it('buckets are visible to signed-in users with their limits', async () => {
    const { data, error } = await owner.client.storage.getBucket('knowledge');
    expect(error).toBeNull();
    expect(data).toMatchObject({ id: 'knowledge', public: false, file_size_limit: 26_214_400 });
    const hidden = await anon.storage.getBucket('knowledge');
    expect(hidden.error).toMatchObject({ message: 'Bucket not found' });
  });
});
