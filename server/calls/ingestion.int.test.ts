import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness';
import {
  addMember,
  callBody,
  callCount,
  expectInvalidSignature,
  nowSeconds,
  ownerWithSecret,
  postAs,
  postCallEvent,
  raiseRateLimit,
  sign,
  type Owner,
} from './ingestion-testing';

/**
 * POST /functions/v1/call-events end to end (issue 15): the function in
 * supabase/functions/call-events on the server's own runtime, over real HTTP,
 * signed as a telephony provider signs, on PGlite and PostgreSQL.
 */

let server: TestServer;
let owner: Owner;

beforeAll(async () => {
  server = await startTestServer();
  owner = await ownerWithSecret(server, 'Olivia Owner');
  await raiseRateLimit(server, owner.workspaceId);
});
afterAll(async () => {
  await server?.close();
});

interface StoredCall {
  id: string;
  workspace_id: string;
  provider_call_id: string;
  direction: string;
  from_number: string;
  to_number: string;
  started_at: string;
  duration_seconds: number;
  outcome: string;
  sentiment: string | null;
  summary: string | null;
  transcript: unknown;
  extracted: unknown;
  recording_path: string | null;
  is_sample: boolean;
}

async function storedCall(id: string): Promise<StoredCall | undefined> {
  const { rows } = await server.db.query<StoredCall>(
    `select id, workspace_id, provider_call_id, direction, from_number, to_number,
            to_char(started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as started_at, duration_seconds, outcome, sentiment,
            summary, transcript, extracted, recording_path, is_sample
     from public.calls where id = $1`,
    [id],
  );
  return rows[0];
}

describe('a sound call event', () => {
  it('is stored once: 201 with the id and a signed upload URL for the recording', async () => {
    // An hour ago, written in UTC+01:00 with milliseconds.
    const hourAgo = new Date(Math.floor(Date.now() / 1000) * 1000 - 3600_000);
    const local = new Date(hourAgo.getTime() + 3600_000).toISOString().slice(0, 19);
    const body = callBody({
      started_at: `${local}.250+01:00`,
      transcript: [
        { speaker: 'agent', start_ms: 0, end_ms: 1200, text: 'Hello!', confidence: 0.93 },
        { speaker: 'caller', start_ms: 1200, end_ms: 1200, text: '' },
      ],
    });
    const before = await callCount(server, owner.workspaceId);
    const result = await postAs(server, owner, body);

    expect(result.status).toBe(201);
    expect(result.headers.get('content-type')).toMatch(/^application\/json/);
    expect(result.headers.get('x-relay-error')).toBeNull();
    const id = result.body.id!;
    expect(result.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'created',
      recording_upload: {
        path: `${owner.workspaceId}/${id}`,
        url: expect.stringMatching(
          new RegExp(
            `^${server.url}/storage/v1/object/upload/sign/call-recordings/${owner.workspaceId}/${id}\\?token=`,
          ),
        ),
        token: expect.any(String),
      },
    });
    expect(await callCount(server, owner.workspaceId)).toBe(before + 1);
    expect(await storedCall(id)).toEqual({
      id,
      workspace_id: owner.workspaceId,
      provider_call_id: body.call_id,
      direction: 'inbound',
      from_number: '+14155550123',
      to_number: '+18005550199',
      started_at: `${hourAgo.toISOString().slice(0, 19)}.250Z`,
      duration_seconds: 184,
      outcome: 'resolved',
      sentiment: 'positive',
      summary: body.summary,
      // Stored as documented: the four keys, nothing else a segment carried.
      transcript: [
        { speaker: 'agent', start_ms: 0, end_ms: 1200, text: 'Hello!' },
        { speaker: 'caller', start_ms: 1200, end_ms: 1200, text: '' },
      ],
      extracted: body.extracted,
      recording_path: `${owner.workspaceId}/${id}`,
      is_sample: false,
    });
  });

  it('needs only the required fields; the optional ones default', async () => {
    const body = callBody({
      sentiment: undefined,
      summary: null,
      transcript: undefined,
      extracted: undefined,
      outcome: 'missed',
      duration_seconds: 0,
      direction: 'outbound',
    });
    const result = await postAs(server, owner, body);
    expect(result.status).toBe(201);
    expect(await storedCall(result.body.id!)).toMatchObject({
      sentiment: null,
      summary: null,
      transcript: [],
      extracted: {},
      outcome: 'missed',
      duration_seconds: 0,
      direction: 'outbound',
    });
  });

  it('accepts a body that is exactly 1 MB', async () => {
    const segment = { speaker: 'caller', start_ms: 0, end_ms: 1, text: 'x'.repeat(1900) };
    const body = callBody({ transcript: Array.from({ length: 500 }, () => segment) });
    let raw = JSON.stringify(body);
    expect(raw.length).toBeLessThan(1024 * 1024);
    raw += ' '.repeat(1024 * 1024 - Buffer.byteLength(raw));
    const result = await postAs(server, owner, raw);
    expect(result.status, JSON.stringify(result.body)).toBe(201);
  });

  it('counts any one of several v1 signatures (a sender mid-rotation)', async () => {
    const result = await postCallEvent(server, callBody(), {
      workspaceId: owner.workspaceId,
      secret: [`whsec_${'0'.repeat(64)}`, owner.secret],
    });
    expect(result.status).toBe(201);
  });
});

describe('a duplicate call_id', () => {
  it('answers 200 with the first id and stores nothing twice', async () => {
    const body = callBody();
    const first = await postAs(server, owner, body);
    expect(first.status).toBe(201);
    const count = await callCount(server, owner.workspaceId);

    const again = await postAs(server, owner, {
      ...body,
      outcome: 'escalated',
      summary: 'Changed',
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, status: 'duplicate' });
    // The recording is not there yet: the retry may upload it.
    expect(again.body.recording_upload?.path).toBe(`${owner.workspaceId}/${first.body.id}`);
    expect(await callCount(server, owner.workspaceId)).toBe(count);
    expect(await storedCall(first.body.id!)).toMatchObject({
      outcome: 'resolved',
      summary: body.summary,
    });

    // Concurrent retries of one call: still one row.
    const racing = callBody();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => postAs(server, owner, racing)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(await callCount(server, owner.workspaceId)).toBe(count + 1);
  });

  it('is per workspace: the same call_id in another workspace is another call', async () => {
    const other = await ownerWithSecret(server, 'Peter Peer');
    const body = callBody();
    expect((await postAs(server, owner, body)).status).toBe(201);
    expect((await postAs(server, other, body)).status).toBe(201);
  });
});

describe('401, one answer for every signature problem', () => {
  it('refuses an unknown, malformed or missing workspace', async () => {
    const body = callBody();
    expectInvalidSignature(
      await postCallEvent(server, body, { workspaceId: randomUUID(), secret: owner.secret }),
    );
    expectInvalidSignature(
      await postCallEvent(server, body, { workspaceId: 'not-a-uuid', secret: owner.secret }),
    );
    expectInvalidSignature(await postCallEvent(server, body, { secret: owner.secret }));
  });

  it('refuses a missing signature header', async () => {
    expectInvalidSignature(
      await postCallEvent(server, callBody(), { workspaceId: owner.workspaceId }),
    );
  });

  it.each([
    ['empty', ''],
    ['no timestamp', `v1=${'a'.repeat(64)}`],
    ['no v1', `t=${nowSeconds()}`],
    ['a v0 only', `t=${nowSeconds()},v0=${'a'.repeat(64)}`],
    ['a short v1', `t=${nowSeconds()},v1=abc123`],
    ['a non-hex v1', `t=${nowSeconds()},v1=${'g'.repeat(64)}`],
    ['a non-numeric t', `t=yesterday,v1=${'a'.repeat(64)}`],
    ['two timestamps', `t=1,t=${nowSeconds()},v1=${'a'.repeat(64)}`],
    ['no equals sign', 'signature'],
    ['nine v1 values', `t=${nowSeconds()}${`,v1=${'a'.repeat(64)}`.repeat(9)}`],
  ])('refuses a malformed signature header: %s', async (_, header) => {
    expectInvalidSignature(
      await postCallEvent(server, callBody(), {
        workspaceId: owner.workspaceId,
        signatureHeader: header,
      }),
    );
  });

  it('refuses a wrong signature: another secret, a changed body, another timestamp', async () => {
    const other = await ownerWithSecret(server, 'Wanda Wrong');
    const count = await callCount(server, owner.workspaceId);
    expectInvalidSignature(
      await postCallEvent(server, callBody(), {
        workspaceId: owner.workspaceId,
        secret: other.secret,
      }),
    );
    const raw = JSON.stringify(callBody());
    const t = nowSeconds();
    const signature = sign(owner.secret, t, raw);
    expectInvalidSignature(
      await postCallEvent(server, raw.replace('resolved', 'escalated'), {
        workspaceId: owner.workspaceId,
        signatureHeader: `t=${t},v1=${signature}`,
      }),
    );
    expectInvalidSignature(
      await postCallEvent(server, raw, {
        workspaceId: owner.workspaceId,
        signatureHeader: `t=${t - 1},v1=${signature}`,
      }),
    );
    // Upper-case hex is the same signature.
    const accepted = await postCallEvent(server, raw, {
      workspaceId: owner.workspaceId,
      signatureHeader: `t=${t}, v1=${signature.toUpperCase()}`,
    });
    expect(accepted.status).toBe(201);
    expect(await callCount(server, owner.workspaceId)).toBe(count + 1);
  });

  it('refuses a timestamp more than 5 minutes old or more than 1 minute ahead', async () => {
    const now = nowSeconds();
    expectInvalidSignature(await postAs(server, owner, callBody(), { timestamp: now - 302 }));
    expectInvalidSignature(await postAs(server, owner, callBody(), { timestamp: now + 62 }));
    expectInvalidSignature(await postAs(server, owner, callBody(), { timestamp: 0 }));
    expect((await postAs(server, owner, callBody(), { timestamp: now - 280 })).status).toBe(201);
    expect((await postAs(server, owner, callBody(), { timestamp: now + 50 })).status).toBe(201);
  });

  it('refuses everything for a workspace without a secret', async () => {
    const fresh = await ownerWithSecret(server, 'Nico Nosecret');
    await server.db.query('delete from private.ingestion_secrets where workspace_id = $1', [
      fresh.workspaceId,
    ]);
    expectInvalidSignature(await postAs(server, fresh, callBody()));
  });
});

describe('rotating the secret', () => {
  it('keeps the previous secret verifying for 24 hours, then only the new one', async () => {
    const rotating = await ownerWithSecret(server, 'Rita Rotate');
    const admin = await addMember(server, rotating.workspaceId, 'Rafael Admin', 'admin');
    const old = rotating.secret;
    const { data: fresh, error } = await admin.client.rpc('rotate_ingestion_secret', {
      p_workspace_id: rotating.workspaceId,
    });
    expect(error).toBeNull();
    const both = { workspaceId: rotating.workspaceId };

    expect((await postCallEvent(server, callBody(), { ...both, secret: old })).status).toBe(201);
    expect((await postCallEvent(server, callBody(), { ...both, secret: fresh })).status).toBe(201);

    // 23 hours later: still both.
    await server.db.query(
      `update private.ingestion_secrets
       set created_at = created_at - interval '23 hours',
           retired_at = retired_at - interval '23 hours'
       where workspace_id = $1`,
      [rotating.workspaceId],
    );
    expect((await postCallEvent(server, callBody(), { ...both, secret: old })).status).toBe(201);

    // Past 24 hours: the retired secret no longer verifies; the new one does.
    await server.db.query(
      `update private.ingestion_secrets
       set created_at = created_at - interval '61 minutes',
           retired_at = retired_at - interval '61 minutes'
       where workspace_id = $1`,
      [rotating.workspaceId],
    );
    expectInvalidSignature(await postCallEvent(server, callBody(), { ...both, secret: old }));
    expect((await postCallEvent(server, callBody(), { ...both, secret: fresh })).status).toBe(201);
    const status = await rotating.client.rpc('ingestion_status', {
      p_workspace_id: rotating.workspaceId,
    });
    expect(status.data).toMatchObject({ has_secret: true, previous_valid_until: null });
  });

  it('ends the older secret at once when a second rotation follows', async () => {
    const rotating = await ownerWithSecret(server, 'Ravi Twice');
    const first = rotating.secret;
    const second = (
      await rotating.client.rpc('rotate_ingestion_secret', { p_workspace_id: rotating.workspaceId })
    ).data as string;
    const third = (
      await rotating.client.rpc('rotate_ingestion_secret', { p_workspace_id: rotating.workspaceId })
    ).data as string;
    const target = { workspaceId: rotating.workspaceId };
    expectInvalidSignature(await postCallEvent(server, callBody(), { ...target, secret: first }));
    expect((await postCallEvent(server, callBody(), { ...target, secret: second })).status).toBe(
      201,
    );
    expect((await postCallEvent(server, callBody(), { ...target, secret: third })).status).toBe(
      201,
    );
  });
});

describe('400, naming the first bad field', () => {
  const longText = 'x'.repeat(2001);
  const cases: [field: string, overrides: Record<string, unknown>][] = [
    ['call_id', { call_id: undefined }],
    ['call_id', { call_id: '' }],
    ['call_id', { call_id: 'x'.repeat(201) }],
    ['call_id', { call_id: 42 }],
    ['call_id', { call_id: 'line\nbreak' }],
    ['direction', { direction: 'sideways' }],
    ['direction', { direction: undefined }],
    ['from', { from: '4155550123' }],
    ['from', { from: '+0155550123' }],
    ['from', { from: null }],
    ['to', { to: '+1 415 555 0123' }],
    ['to', { to: '+1234567890123456' }],
    ['started_at', { started_at: '2026-11-24 09:30:00' }],
    ['started_at', { started_at: '2026-11-24T09:30:00' }],
    ['started_at', { started_at: '2026-02-30T09:30:00Z' }],
    ['started_at', { started_at: 1_700_000_000 }],
    ['started_at', { started_at: new Date(Date.now() + 3 * 86_400_000).toISOString() }],
    ['started_at', { started_at: '1970-01-01T00:00:00Z' }],
    ['duration_seconds', { duration_seconds: -1 }],
    ['duration_seconds', { duration_seconds: 86_401 }],
    ['duration_seconds', { duration_seconds: 1.5 }],
    ['duration_seconds', { duration_seconds: '60' }],
    ['outcome', { outcome: 'hung up' }],
    ['outcome', { outcome: undefined }],
    ['sentiment', { sentiment: 'ecstatic' }],
    ['sentiment', { sentiment: 1 }],
    ['summary', { summary: 'x'.repeat(4001) }],
    ['summary', { summary: ['a list'] }],
    ['transcript', { transcript: 'hello' }],
    ['transcript', { transcript: [{ speaker: 'bot', start_ms: 0, end_ms: 1, text: '' }] }],
    ['transcript', { transcript: [{ speaker: 'agent', start_ms: -1, end_ms: 1, text: '' }] }],
    ['transcript', { transcript: [{ speaker: 'agent', start_ms: 5, end_ms: 4, text: '' }] }],
    ['transcript', { transcript: [{ speaker: 'agent', start_ms: 0.5, end_ms: 4, text: '' }] }],
    ['transcript', { transcript: [{ speaker: 'agent', start_ms: 0, end_ms: '4', text: '' }] }],
    ['transcript', { transcript: [{ speaker: 'agent', start_ms: 0, end_ms: 4 }] }],
    ['transcript', { transcript: [{ speaker: 'agent', start_ms: 0, end_ms: 4, text: longText }] }],
    ['transcript', { transcript: ['a string'] }],
    [
      'transcript',
      {
        transcript: Array.from({ length: 2001 }, () => ({
          speaker: 'agent',
          start_ms: 0,
          end_ms: 0,
          text: '',
        })),
      },
    ],
    ['extracted', { extracted: ['not', 'an', 'object'] }],
    ['extracted', { extracted: 'text' }],
    ['extracted', { extracted: { blob: 'x'.repeat(65_536) } }],
  ];

  it.each(cases)('%s: %j', async (field, overrides) => {
    const count = await callCount(server, owner.workspaceId);
    const result = await postAs(server, owner, callBody(overrides));
    expect(result.status).toBe(400);
    expect(result.headers.get('content-type')).toMatch(/^application\/json/);
    expect(result.body).toEqual({ error: 'invalid_field', field, message: expect.any(String) });
    expect(result.body.message).toMatch(new RegExp(`^(${field}|transcript segment \\d+)`));
    expect(await callCount(server, owner.workspaceId)).toBe(count);
  });

  it('names the first bad field in the documented order', async () => {
    const result = await postAs(
      server,
      owner,
      callBody({ outcome: 'nope', to: 'nope', duration_seconds: -5, extracted: 1 }),
    );
    expect(result.body.field).toBe('to');
    const segment = await postAs(
      server,
      owner,
      callBody({
        transcript: [
          { speaker: 'agent', start_ms: 0, end_ms: 1, text: 'fine' },
          { speaker: 'agent', start_ms: 9, end_ms: 1, text: 'backwards' },
        ],
      }),
    );
    expect(segment.body).toMatchObject({ field: 'transcript' });
    expect(segment.body.message).toContain('segment 1');
  });

  it.each([
    ['not JSON', '{"call_id": '],
    ['an array', '[1, 2, 3]'],
    ['a string', '"call"'],
    ['null', 'null'],
    ['empty', ''],
    ['a JSON \\u0000 escape', '{"call_id": "a\\u0000b"}'],
  ])('refuses a body that is %s (field "body")', async (_, raw) => {
    const result = await postAs(server, owner, raw);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ error: 'invalid_field', field: 'body' });
  });

  it('refuses a body that is not UTF-8', async () => {
    const raw = Buffer.concat([
      Buffer.from('{"call_id": "'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}'),
    ]);
    const result = await postAs(server, owner, raw);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ error: 'invalid_field', field: 'body' });
  });
});

describe('405 and 413', () => {
  it('answers other methods with 405 and Allow: POST', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const result = await postAs(server, owner, callBody(), { method });
      expect(result.status, method).toBe(405);
      expect(result.headers.get('allow')).toBe('POST');
    }
  });

  it('refuses a body past 1 MB, declared or streamed, and stores nothing', async () => {
    const count = await callCount(server, owner.workspaceId);
    const raw = JSON.stringify(callBody()) + ' '.repeat(1024 * 1024);
    const declared = await postAs(server, owner, raw);
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ error: 'payload_too_large' });

    // Chunked, no Content-Length: cut off as it passes the cap.
    const streamed = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${server.url}/functions/v1/call-events`);
      const req = httpRequest(
        {
          method: 'POST',
          hostname: url.hostname,
          port: url.port,
          path: url.pathname,
          headers: {
            'Content-Type': 'application/json',
            'X-Cervana-Workspace': owner.workspaceId,
            'X-Cervana-Signature': `t=${nowSeconds()},v1=${'a'.repeat(64)}`,
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 40) {
          sent += 1;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        req.end();
      };
      pump();
    });
    expect(streamed).toBe(413);
    expect(await callCount(server, owner.workspaceId)).toBe(count);
  });
});

describe('429, the per-workspace rate', () => {
  it('refuses past the limit with Retry-After, counting only signed requests', async () => {
    const limited = await ownerWithSecret(server, 'Lena Limit');
    await raiseRateLimit(server, limited.workspaceId, 3);
    // Unsigned and wrongly signed requests do not use up the limit.
    for (let i = 0; i < 5; i += 1) {
      expectInvalidSignature(
        await postCallEvent(server, callBody(), {
          workspaceId: limited.workspaceId,
          secret: 'whsec_wrong',
        }),
      );
    }
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push((await postAs(server, limited, callBody())).status);
    // A minute boundary between them would reset the count; start again then.
    const refused = await postAs(server, limited, callBody());
    if (refused.status === 201) return expect(statuses).toEqual([201, 201, 201]);
    expect(statuses).toEqual([201, 201, 201]);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'rate_limited', message: expect.any(String) });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await callCount(server, limited.workspaceId)).toBe(3);
    // Other workspaces are not affected.
    expect((await postAs(server, owner, callBody())).status).toBe(201);
  });

  it('uses 1,200 a minute by default', async () => {
    const plain = await ownerWithSecret(server, 'Dora Default');
    await server.db.query(
      `insert into private.ingestion_counts (workspace_id, window_start, hits)
       values ($1, date_trunc('minute', now()), 1199),
              ($1, date_trunc('minute', now()) + interval '1 minute', 1199)`,
      [plain.workspaceId],
    );
    const first = await postAs(server, plain, callBody());
    const second = await postAs(server, plain, callBody());
    expect([first.status, second.status]).toEqual([201, 429]);
  });
});

describe('the recording', () => {
  it('uploads through the returned URL; members read it, other workspaces do not', async () => {
    const member = await addMember(server, owner.workspaceId, 'Mona Member', 'member');
    const outsider = await ownerWithSecret(server, 'Oscar Outsider');
    const created = await postAs(server, owner, callBody());
    expect(created.status).toBe(201);
    const upload = created.body.recording_upload!;
    const audio = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(4096, 7)]);

    const put = await fetch(upload.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'audio/mpeg' },
      body: audio,
    });
    expect(put.status, await put.clone().text()).toBe(200);
    // The token is for this object only, and once there, the object stays.
    const again = await fetch(upload.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'audio/mpeg' },
      body: Buffer.from('replaced'),
    });
    expect(again.status).toBeGreaterThanOrEqual(400);

    const signed = await member.client.storage
      .from('call-recordings')
      .createSignedUrl(upload.path, 60);
    expect(signed.error).toBeNull();
    const downloaded = await fetch(signed.data!.signedUrl);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(audio)).toBe(true);

    const refused = await outsider.client.storage
      .from('call-recordings')
      .createSignedUrl(upload.path, 60);
    expect(refused.data).toBeNull();
    expect(refused.error).not.toBeNull();
    const download = await outsider.client.storage.from('call-recordings').download(upload.path);
    expect(download.data).toBeNull();

    // A retry of the same call after the upload: a duplicate with nothing left to upload.
    const { rows } = await server.db.query<{ provider_call_id: string }>(
      'select provider_call_id from public.calls where id = $1',
      [created.body.id],
    );
    const retry = await postAs(server, owner, callBody({ call_id: rows[0]!.provider_call_id }));
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({
      id: created.body.id,
      status: 'duplicate',
      recording_upload: null,
    });
  });

  it('does not let an upload URL write anywhere else', async () => {
    const created = await postAs(server, owner, callBody());
    const url = new URL(created.body.recording_upload!.url);
    url.pathname = url.pathname.replace(created.body.id!, randomUUID());
    const put = await fetch(url, {
      method: 'PUT',
      headers: { 'Content-Type': 'audio/mpeg' },
      body: Buffer.from('ID3 elsewhere'),
    });
    expect(put.status).toBeGreaterThanOrEqual(400);
    expect(put.status).toBeLessThan(500);
  });
});

describe('fuzz', () => {
  it('never answers a malformed request with a 5xx, and stays healthy', async () => {
    const fuzzed = await ownerWithSecret(server, 'Fiona Fuzz');
    await raiseRateLimit(server, fuzzed.workspaceId);
    const sound = callBody();
    const jsonValue = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
      fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    );
    // Sound bodies with one field replaced, removed or added.
    const mutatedBody = fc
      .tuple(
        fc.constantFrom(...Object.keys(sound), 'extra', 'transcript'),
        fc.option(jsonValue, { nil: undefined }),
      )
      .map(([key, value]) => JSON.stringify(callBody({ [key]: value })));
    const rawBody = fc.oneof(
      mutatedBody,
      fc.string(),
      fc.json(),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    );
    const header = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom(
        `t=${nowSeconds()}`,
        'v1=',
        't=,v1=',
        `t=99999999999999,v1=${'a'.repeat(64)}`,
      ),
      fc
        .tuple(
          fc.integer({ min: -1e6, max: 1e6 }),
          fc
            .array(fc.constantFrom(...'0123456789abcdefABCDEF'), { minLength: 60, maxLength: 68 })
            .map((digits) => digits.join('')),
        )
        .map(([offset, hex]) => `t=${nowSeconds() + offset},v1=${hex}`),
    );
    const printable = (value: string) => value.replace(/[^\x20-\x7e]/g, '');

    await fc.assert(
      fc.asyncProperty(
        rawBody,
        fc.oneof(fc.constant('sign'), header),
        fc.oneof(fc.constant(fuzzed.workspaceId), fc.uuid(), fc.string({ maxLength: 60 })),
        async (body, signature, workspaceId) => {
          const result = await postCallEvent(server, body, {
            workspaceId: printable(workspaceId),
            ...(signature === 'sign'
              ? { secret: fuzzed.secret }
              : { signatureHeader: printable(signature) }),
          });
          expect(result.status, JSON.stringify(result.body)).toBeLessThan(500);
          expect([200, 201, 400, 401]).toContain(result.status);
        },
      ),
      { numRuns: 250 },
    );
    expect((await postAs(server, fuzzed, callBody())).status).toBe(201);
    const health = await fetch(`${server.url}/rest/v1/`, {
      headers: { apikey: server.anonKey },
    });
    expect(health.status).toBeLessThan(500);
  });
});
