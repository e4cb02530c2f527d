import { request } from 'node:http';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, workspaceOf } from '../calls/ingestion-testing';
import { signedInClient, type SignedIn } from '../forms/forms-testing';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';
import { blobNames, eventually, expectNothingStored, objectRows } from './storage-testing';

/**
 * The knowledge library (issue 16, decision 020) through the official client
 * over real HTTP: who may upload, list, download, rename and delete in the
 * private `knowledge` bucket (owner, workspace admin, member, another
 * workspace's owner, anon), the bucket's types and size, the write policy's
 * name rules against hostile names, repeated uploads, and a removed member
 * losing access at once.
 */

const BUCKET = 'knowledge';
const LIMIT = 25 * 1024 * 1024;
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

let server: TestServer;
let anon: SupabaseClient;
let owner: SignedIn & { workspace: string };
let admin: SignedIn;
let member: SignedIn;
let stranger: SignedIn & { workspace: string };

const pdf = (text = 'guide') => new Blob([`%PDF-1.7\n${text}\n%%EOF`], { type: 'application/pdf' });
const markdown = (text: string) => new Blob([text], { type: 'text/markdown' });
const storageOf = (who: { client: SupabaseClient } | SupabaseClient) =>
  ('client' in who ? who.client : who).storage.from(BUCKET);
const path = (name: string, workspace = owner.workspace) => `${workspace}/${name}`;

async function names(
  who: { client: SupabaseClient } | SupabaseClient,
  workspace = owner.workspace,
) {
  const { data, error } = await storageOf(who).list(workspace, {
    sortBy: { column: 'updated_at', order: 'desc' },
  });
  return error ? { error: error.message } : (data ?? []).map((entry) => entry.name);
}

async function textOf(who: { client: SupabaseClient } | SupabaseClient, name: string) {
  const { data, error } = await storageOf(who).download(path(name));
  return error ? { statusCode: (error as { statusCode?: string }).statusCode } : data.text();
}

async function rowNames(): Promise<string[]> {
  return (await objectRows(server, BUCKET)).map((row) => row.name).sort();
}

/** A raw request to the storage API as a signed-in user (what the app's uploader sends). */
async function rawUpload(
  who: SignedIn,
  key: string,
  body: BodyInit,
  headers: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { data } = await who.client.auth.getSession();
  const response = await fetch(`${server.url}/storage/v1/object/${BUCKET}/${key}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${data.session!.access_token}`,
      apikey: server.anonKey,
      ...headers,
    },
    body,
    // @ts-expect-error Node's fetch needs this for a streamed body.
    duplex: 'half',
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The same request with the path sent byte for byte (fetch resolves `..`, even encoded). */
async function verbatimUpload(who: SignedIn, key: string): Promise<Record<string, unknown>> {
  const { data } = await who.client.auth.getSession();
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: `/storage/v1/object/${BUCKET}/${key}`,
        headers: {
          Authorization: `Bearer ${data.session!.access_token}`,
          apikey: server.anonKey,
          'Content-Type': 'text/markdown',
          'Content-Length': '1',
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve(JSON.parse(body) as Record<string, unknown>));
      },
    );
    outgoing.on('error', reject);
    outgoing.end('x');
  });
}

beforeAll(async () => {
  server = await startTestServer();
  anon = clientFor(server);
  const [o, s] = await Promise.all([
    signedInClient(server, { fullName: 'Olive Owner', company: 'Olive Clinics' }),
    signedInClient(server, { fullName: 'Sid Stranger', company: 'Stranger Things Ltd' }),
  ]);
  owner = { ...o, workspace: await workspaceOf(server, o.id) };
  stranger = { ...s, workspace: await workspaceOf(server, s.id) };
  admin = await addMember(server, owner.workspace, 'Ada Admin', 'admin');
  member = await addMember(server, owner.workspace, 'Mo Member', 'member');
}, 60_000);

afterAll(() => server?.close());

describe('the bucket', () => {
  it('takes PDF, Word, text and Markdown up to 25 MiB, and shows its limits to signed-in users', async () => {
    const { data, error } = await member.client.storage.getBucket(BUCKET);
    expect(error).toBeNull();
    expect(data).toMatchObject({ id: BUCKET, public: false, file_size_limit: LIMIT });
    expect([...(data!.allowed_mime_types ?? [])].sort()).toEqual(
      ['application/pdf', DOCX, 'text/markdown', 'text/plain'].sort(),
    );
    expect((await anon.storage.getBucket(BUCKET)).error).toMatchObject({
      message: 'Bucket not found',
    });
  });

  it('refuses other types, even under an accepted extension, and stores nothing', async () => {
    const blobsBefore = await blobNames(server);
    const uploads = [
      ['contacts.txt', 'text/csv'],
      ['page.md', 'text/html'],
      ['setup.pdf', 'application/x-msdownload'],
      ['image.docx', 'image/png'],
    ] as const;
    for (const [name, type] of uploads) {
      const { error } = await storageOf(owner).upload(path(name), new Blob(['x'], { type }));
      expect(error, name).toMatchObject({
        statusCode: '415',
        message: `mime type ${type} is not supported`,
      });
    }
    // Under their own extensions the write policy refuses them before the bucket is asked.
    const csv = await storageOf(owner).upload(
      path('contacts.csv'),
      new Blob(['a,b'], { type: 'text/csv' }),
    );
    expect(csv.error).toMatchObject({ statusCode: '403' });
    await expectNothingStored(server, BUCKET, blobsBefore, [
      ...uploads.map(([name]) => path(name)),
      path('contacts.csv'),
    ]);
  });

  it('refuses a file over 25 MiB, declared or streamed, and stores nothing', async () => {
    const blobsBefore = await blobNames(server);
    const tooBig = new Blob([new Uint8Array(LIMIT + 1)], { type: 'application/pdf' });
    const declared = await storageOf(owner).upload(path('huge.pdf'), tooBig);
    expect(declared.error).toMatchObject({ statusCode: '413' });

    // No Content-Length: the body is cut off as it passes the limit.
    let sent = 0;
    const chunk = new Uint8Array(1024 * 1024);
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > LIMIT * 2) controller.close();
        else controller.enqueue(chunk);
        sent += chunk.length;
      },
    });
    const streamed = await rawUpload(owner, path('streamed.pdf'), endless, {
      'Content-Type': 'application/pdf',
    }).catch((error: unknown) => ({ status: 0, body: { error: String(error) } }));
    if (streamed.status !== 0) expect(streamed.body).toMatchObject({ statusCode: '413' });
    expect(sent).toBeLessThan(LIMIT * 2);
    await expectNothingStored(server, BUCKET, blobsBefore, [
      path('huge.pdf'),
      path('streamed.pdf'),
    ]);
  });
});

describe('who may do what', () => {
  beforeAll(async () => {
    for (const [name, blob] of [
      ['returns-policy.pdf', pdf('returns')],
      ['faq.md', markdown('# FAQ')],
      ['pricing.txt', new Blob(['Basic: $10'], { type: 'text/plain' })],
      ['handbook.docx', new Blob(['PK\u0003\u0004 word/document.xml'], { type: DOCX })],
    ] as const) {
      const { error } = await storageOf(owner).upload(path(name), blob);
      expect(error, name).toBeNull();
    }
  });

  it('owner, workspace admin and member list (newest first) and download; a stranger and anon see nothing', async () => {
    const expected = ['handbook.docx', 'pricing.txt', 'faq.md', 'returns-policy.pdf'];
    for (const reader of [owner, admin, member]) {
      const listed = await names(reader);
      expect(listed, reader.email).toEqual(expect.arrayContaining(expected));
      expect(
        (listed as string[]).filter((name) => expected.includes(name)),
        reader.email,
      ).toEqual(expected);
      expect(await textOf(reader, 'faq.md')).toBe('# FAQ');
    }
    const { data } = await storageOf(member).list(owner.workspace);
    expect(data?.find((entry) => entry.name === 'faq.md')?.metadata).toMatchObject({
      size: 5,
      mimetype: 'text/markdown',
    });

    for (const outsider of [stranger, anon]) {
      expect(await names(outsider)).toEqual([]);
      expect(await textOf(outsider, 'faq.md')).toEqual({ statusCode: '404' });
      const signed = await storageOf(outsider).createSignedUrl(path('faq.md'), 60);
      expect(signed.data).toBeNull();
    }
  });

  it('a member and a stranger upload, rename and delete nothing; anon neither', async () => {
    const before = await rowNames();
    for (const outsider of [member, stranger]) {
      const upload = await storageOf(outsider).upload(path('mine.md'), markdown('x'));
      expect(upload.error, outsider.email).toMatchObject({
        statusCode: '403',
        message: 'new row violates row-level security policy',
      });
      const replace = await storageOf(outsider).upload(path('faq.md'), markdown('defaced'), {
        upsert: true,
      });
      expect(replace.error, outsider.email).not.toBeNull();
      const moved = await storageOf(outsider).move(path('faq.md'), path('moved.md'));
      expect(moved.error, outsider.email).not.toBeNull();
      const removed = await storageOf(outsider).remove([path('faq.md')]);
      expect(removed.data ?? [], outsider.email).toEqual([]);
    }
    const anonymous = await storageOf(anon).upload(path('anon.md'), markdown('x'));
    expect(anonymous.error).not.toBeNull();
    expect((await storageOf(anon).remove([path('faq.md')])).data ?? []).toEqual([]);

    expect(await rowNames()).toEqual(before);
    expect(await textOf(owner, 'faq.md')).toBe('# FAQ');
  });

  it('a workspace admin uploads, replaces, renames and deletes', async () => {
    const storage = storageOf(admin);
    expect((await storage.upload(path('admin-notes.md'), markdown('v1'))).error).toBeNull();
    const replaced = await storage.upload(path('admin-notes.md'), markdown('v2'), { upsert: true });
    expect(replaced.error).toBeNull();
    expect((await storage.move(path('admin-notes.md'), path('admin-guide.md'))).error).toBeNull();
    expect(await textOf(member, 'admin-guide.md')).toBe('v2');
    const removed = await storage.remove([path('admin-guide.md')]);
    expect(removed.data?.map((entry) => entry.name)).toEqual([path('admin-guide.md')]);
    expect(await textOf(owner, 'admin-guide.md')).toEqual({ statusCode: '404' });
  });

  it('the owner renames (a taken name refused, both documents kept) and deletes', async () => {
    const storage = storageOf(owner);
    expect((await storage.upload(path('old-name.md'), markdown('keep me'))).error).toBeNull();
    const taken = await storage.move(path('old-name.md'), path('faq.md'));
    expect(taken.error).toMatchObject({ statusCode: '409' });
    expect(await textOf(owner, 'faq.md')).toBe('# FAQ');
    expect(await textOf(owner, 'old-name.md')).toBe('keep me');

    expect((await storage.move(path('old-name.md'), path('New name (2026).md'))).error).toBeNull();
    expect(await textOf(member, 'old-name.md')).toEqual({ statusCode: '404' });
    expect(await textOf(member, 'New name (2026).md')).toBe('keep me');
    const removed = await storage.remove([path('New name (2026).md')]);
    expect(removed.data).toHaveLength(1);
    expect(await names(member)).not.toContain('New name (2026).md');
  });

  it('a repeated upload of one name is refused and keeps the first; replacing is explicit', async () => {
    const storage = storageOf(owner);
    expect((await storage.upload(path('twice.md'), markdown('first'))).error).toBeNull();
    const blobsBefore = await blobNames(server);
    const again = await storage.upload(path('twice.md'), markdown('second'));
    expect(again.error).toMatchObject({
      statusCode: '409',
      message: 'The resource already exists',
    });
    expect(await textOf(owner, 'twice.md')).toBe('first');
    expect(await blobNames(server)).toEqual(blobsBefore);
    expect((await rowNames()).filter((name) => name === path('twice.md'))).toHaveLength(1);

    const replaced = await storage.upload(path('twice.md'), markdown('second'), { upsert: true });
    expect(replaced.error).toBeNull();
    expect(await textOf(member, 'twice.md')).toBe('second');
    await eventually(
      async () => (await blobNames(server)).length === blobsBefore.length,
      'the old blob to go',
    );
  });
});

describe('names and folders', () => {
  it("refuses another workspace's folder, for uploads, renames and copies", async () => {
    expect((await storageOf(owner).upload(path('mine.md'), markdown('mine'))).error).toBeNull();
    const blobsBefore = await blobNames(server);
    const into = await storageOf(owner).upload(
      path('intruder.md', stranger.workspace),
      markdown('x'),
    );
    expect(into.error).toMatchObject({ statusCode: '403' });
    const back = await storageOf(stranger).upload(path('intruder.md'), markdown('x'));
    expect(back.error).toMatchObject({ statusCode: '403' });
    const moved = await storageOf(owner).move(path('mine.md'), path('mine.md', stranger.workspace));
    expect(moved.error).toMatchObject({ statusCode: '403' });
    const copied = await storageOf(owner).copy(
      path('mine.md'),
      path('mine.md', stranger.workspace),
    );
    expect(copied.error).toMatchObject({ statusCode: '403' });

    expect(await textOf(owner, 'mine.md')).toBe('mine');
    expect(await names(stranger, stranger.workspace)).toEqual([]);
    await expectNothingStored(server, BUCKET, blobsBefore, [
      path('intruder.md', stranger.workspace),
      path('intruder.md'),
      path('mine.md', stranger.workspace),
    ]);
  });

  it('refuses hostile and malformed names, and stores nothing for them', async () => {
    const before = await rowNames();
    const blobsBefore = await blobNames(server);
    const refusedByPolicy = [
      `${owner.workspace}/sub/faq.md`, // deeper than one folder
      `${owner.workspace}/.hidden.md`, // starts with a dot
      `${owner.workspace}/ leading-space.md`,
      `${owner.workspace}/notes`, // no extension
      `${owner.workspace}/script.md.exe`,
      `${owner.workspace}/what?.md`, // a sign Windows cannot save
      `${owner.workspace}/star*.md`,
      `${owner.workspace}/${'a'.repeat(198)}.md`, // 201 characters
      `${owner.workspace.toUpperCase()}/faq.md`, // not the workspace's folder as written
      `not-a-workspace/faq.md`,
      `faq.md`,
    ];
    for (const key of refusedByPolicy) {
      const { error } = await storageOf(owner).upload(key, markdown('x'));
      expect(error, key).toMatchObject({ statusCode: '403' });
    }
    // fetch resolves `.` and `..` in a URL before sending: what arrives is another
    // workspace's folder or no workspace at all, which the policy refuses.
    for (const key of [
      `${owner.workspace}/../${stranger.workspace}/faq.md`,
      `${owner.workspace}/./../faq.md`,
      `../faq.md`,
    ]) {
      const { error } = await storageOf(owner).upload(key, markdown('x'));
      expect(error, key).toMatchObject({ statusCode: expect.stringMatching(/^40[03]$/) });
    }
    // The server's URL parsing resolves dot segments, encoded or not, as fetch does:
    // what is left is another workspace's folder, which the policy refuses.
    for (const key of [
      `${owner.workspace}/%2e%2e/${stranger.workspace}/x.md`,
      `${owner.workspace}/../${stranger.workspace}/x.md`,
      `${owner.workspace}/.%2E/%2e%2e/x.md`,
    ]) {
      expect(await verbatimUpload(owner, key), key).toMatchObject({
        statusCode: expect.stringMatching(/^40[03]$/),
      });
    }
    // Sent as they are (supabase-js tidies `//`, fetch drops newlines and tabs).
    for (const key of [
      `${owner.workspace}//empty-segment.md`,
      `${owner.workspace}/%00nul.md`,
      `${owner.workspace}/line%0Abreak.md`,
      `${owner.workspace}/tab%09.md`,
    ]) {
      expect(await verbatimUpload(owner, key), key).toMatchObject({
        statusCode: '400',
        code: 'InvalidKey',
      });
    }

    expect(await rowNames()).toEqual(before);
    expect(await blobNames(server)).toEqual(blobsBefore);
    expect(await names(stranger, stranger.workspace)).toEqual([]);
  });

  it('keeps a name and its type together: a PDF named .txt, and a rename to another extension, are refused', async () => {
    const blobsBefore = await blobNames(server);
    const mislabelled = await storageOf(owner).upload(path('looks-like-text.txt'), pdf());
    expect(mislabelled.error).toMatchObject({ statusCode: '403' });
    await expectNothingStored(server, BUCKET, blobsBefore, [path('looks-like-text.txt')]);

    expect((await storageOf(owner).upload(path('manual.pdf'), pdf('manual'))).error).toBeNull();
    const renamed = await storageOf(owner).move(path('manual.pdf'), path('manual.txt'));
    expect(renamed.error).toMatchObject({ statusCode: '403' });
    expect(await names(owner)).toContain('manual.pdf');
  });

  it('stores bytes that only claim to be a PDF as declared, and serves them inert (the app checks content)', async () => {
    const program = new Blob(['MZ\u0090\u0000 This program cannot be run in DOS mode'], {
      type: 'application/pdf',
    });
    expect((await storageOf(owner).upload(path('setup.pdf'), program)).error).toBeNull();
    const signed = await storageOf(member).createSignedUrl(path('setup.pdf'), 60, {
      download: 'setup.pdf',
    });
    const response = await fetch(signed.data!.signedUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(response.headers.get('content-security-policy')).toMatch(/sandbox/);
    await response.arrayBuffer();
  });
});

describe('a removed member', () => {
  it('loses listing, downloads and signed URLs at once when the owner removes them', async () => {
    const leaving = await addMember(server, owner.workspace, 'Lee Leaving', 'member');
    expect(await names(leaving)).toContain('faq.md');
    expect(await textOf(leaving, 'faq.md')).toBe('# FAQ');

    const { error } = await owner.client
      .from('workspace_members')
      .delete()
      .eq('workspace_id', owner.workspace)
      .eq('user_id', leaving.id);
    expect(error).toBeNull();

    expect(await names(leaving)).toEqual([]);
    expect(await textOf(leaving, 'faq.md')).toEqual({ statusCode: '404' });
    const signed = await storageOf(leaving).createSignedUrl(path('faq.md'), 60);
    expect(signed.data).toBeNull();
    const upload = await storageOf(leaving).upload(path('parting-gift.md'), markdown('x'));
    expect(upload.error).toMatchObject({ statusCode: '403' });
  });

  it('a removed admin loses writing as well', async () => {
    const leavingAdmin = await addMember(server, owner.workspace, 'Al Leaving', 'admin');
    expect(
      (await storageOf(leavingAdmin).upload(path('by-admin.md'), markdown('x'))).error,
    ).toBeNull();
    const { error } = await owner.client
      .from('workspace_members')
      .delete()
      .eq('workspace_id', owner.workspace)
      .eq('user_id', leavingAdmin.id);
    expect(error).toBeNull();
    expect((await storageOf(leavingAdmin).remove([path('by-admin.md')])).data ?? []).toEqual([]);
    const again = await storageOf(leavingAdmin).upload(path('after.md'), markdown('x'));
    expect(again.error).toMatchObject({ statusCode: '403' });
    expect(await textOf(owner, 'by-admin.md')).toBe('x');
  });
});
