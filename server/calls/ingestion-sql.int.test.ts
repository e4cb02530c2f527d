import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';
import {
  addMember,
  callBody,
  nowSeconds,
  ownerWithSecret,
  serviceClient,
  sign,
  type Owner,
} from './ingestion-testing';

/**
 * The database half of call ingestion (migration 20261124001400_calls.sql):
 * the HMAC-SHA256 written in SQL agrees with RFC 4231 and with Node's crypto,
 * ingest_call is for the service role only, and the secrets, rotation and
 * status functions answer only whom they should.
 */

let server: TestServer;
let owner: Owner;

beforeAll(async () => {
  server = await startTestServer();
  owner = await ownerWithSecret(server, 'Hannah Hmac');
});
afterAll(async () => {
  await server?.close();
});

async function hmacInSql(key: Buffer, message: Buffer): Promise<string> {
  const { rows } = await server.db.query<{ mac: string }>(
    `select encode(private.hmac_sha256($1::bytea, $2::bytea), 'hex') as mac`,
    [key, message],
  );
  return rows[0]!.mac;
}

describe('HMAC-SHA256 in SQL', () => {
  it('matches the RFC 4231 test vectors (short key, key longer than a block)', async () => {
    expect(await hmacInSql(Buffer.from('Jefe'), Buffer.from('what do ya want for nothing?'))).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    expect(
      await hmacInSql(
        Buffer.alloc(131, 0xaa),
        Buffer.from('Test Using Larger Than Block-Size Key - Hash Key First'),
      ),
    ).toBe('60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54');
  });

  it('agrees with node:crypto on any key and message', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 150 }),
        fc.uint8Array({ minLength: 0, maxLength: 400 }),
        async (key, message) => {
          const expected = createHmac('sha256', key).update(message).digest('hex');
          expect(await hmacInSql(Buffer.from(key), Buffer.from(message))).toBe(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('transcript validation', () => {
  it('takes the fast path to the same answer as the segment-by-segment check', async () => {
    let sound = 0;
    const value = fc.oneof(
      fc.integer({ min: -2, max: 90_000_000 }),
      fc.constantFrom(0, 1.5, 2.0, -0, 86_400_000, 86_400_001, 1e300),
      fc.string({ maxLength: 3 }),
      fc.constant(null),
      fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 1 }),
    );
    const segment = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record(
          {
            speaker: fc.oneof(
              { weight: 6, arbitrary: fc.constantFrom('agent', 'caller') },
              fc.constantFrom('bot', 1, null),
            ),
            start_ms: fc.oneof({ weight: 4, arbitrary: fc.nat({ max: 5000 }) }, value),
            end_ms: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 5000, max: 9000 }) }, value),
            text: fc.oneof(
              { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
              fc.constantFrom('x'.repeat(2000), 'y'.repeat(2001), 'é'.repeat(2000)),
              fc.constant(7),
            ),
            extra: fc.jsonValue({ maxDepth: 1 }),
          },
          { requiredKeys: ['speaker', 'start_ms', 'end_ms', 'text'] },
        ),
      },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
    );
    const soundSegment = fc.record(
      {
        speaker: fc.constantFrom('agent', 'caller'),
        start_ms: fc.nat({ max: 5000 }),
        end_ms: fc.oneof(fc.integer({ min: 5000, max: 9000 }), fc.constant(5000.0)),
        text: fc.oneof(fc.string({ maxLength: 20 }), fc.constant('z'.repeat(2000))),
        extra: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: ['speaker', 'start_ms', 'end_ms', 'text'] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.array(segment, { maxLength: 6 }), fc.array(soundSegment, { maxLength: 6 })),
        async (segments) => {
          const { rows } = await server.db.query<{ fast: unknown; checked: unknown }>(
            `select to_jsonb(f) as fast, to_jsonb(c) as checked
           from private.clean_transcript($1::jsonb) f, private.check_transcript($1::jsonb) c`,
            [JSON.stringify(segments)],
          );
          const { fast, checked } = rows[0]!;
          expect(fast).toEqual(checked);
          if (segments.length > 1 && (checked as { problem: unknown }).problem === null) sound += 1;
        },
      ),
      { numRuns: 300 },
    );
    // The fast path really ran: many of the transcripts were sound.
    expect(sound).toBeGreaterThan(20);
  });
});

describe('who may call what', () => {
  function ingestArgs(body = JSON.stringify(callBody())) {
    const t = String(nowSeconds());
    return {
      p_workspace_id: owner.workspaceId,
      p_timestamp: t,
      p_signature: sign(owner.secret, t, body),
      p_body: body,
    };
  }

  it('lets the service role ingest, and nobody else', async () => {
    const service = await serviceClient(server).rpc('ingest_call', ingestArgs());
    expect(service.error).toBeNull();
    expect(service.data).toMatchObject({ status: 'created' });

    for (const client of [clientFor(server), owner.client]) {
      const refused = await client.rpc('ingest_call', ingestArgs());
      expect(refused.data).toBeNull();
      expect(refused.error?.code).toMatch(/^(42501|PGRST202)$/);
    }
  });

  it('keeps the secrets out of every API role’s reach', async () => {
    for (const role of ['anon', 'authenticated', 'service_role']) {
      const { rows } = await server.db.query<{ allowed: boolean }>(
        `select has_table_privilege($1, 'private.ingestion_secrets', 'select')
           or has_schema_privilege($1, 'private', 'usage') as allowed`,
        [role],
      );
      expect(rows[0]!.allowed, role).toBe(false);
    }
    for (const client of [clientFor(server), owner.client, serviceClient(server)]) {
      const direct = await client
        .schema('private' as never)
        .from('ingestion_secrets')
        .select('*');
      expect(direct.data).toBeNull();
      expect(direct.error).not.toBeNull();
    }
    // Nothing readable in public names a secret either.
    const { rows } = await server.db.query<{ hits: number }>(
      `select count(*)::int as hits from public.calls where extracted::text like '%whsec_%'`,
    );
    expect(rows[0]!.hits).toBe(0);
  });

  it('rotates for owners and workspace admins only; members see the status, never the secret', async () => {
    const admin = await addMember(server, owner.workspaceId, 'Ada Admin', 'admin');
    const member = await addMember(server, owner.workspaceId, 'Max Member', 'member');
    const stranger = await ownerWithSecret(server, 'Stella Stranger');

    const byAdmin = await admin.client.rpc('rotate_ingestion_secret', {
      p_workspace_id: owner.workspaceId,
    });
    expect(byAdmin.error).toBeNull();
    expect(byAdmin.data).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(byAdmin.data).not.toBe(owner.secret);

    for (const [who, client] of [
      ['member', member.client],
      ['stranger', stranger.client],
      ['anon', clientFor(server)],
    ] as const) {
      const refused = await client.rpc('rotate_ingestion_secret', {
        p_workspace_id: owner.workspaceId,
      });
      expect(refused.data, who).toBeNull();
      expect(refused.error?.code).toMatch(/^(42501|PGRST202)$/);
    }

    const status = await member.client.rpc('ingestion_status', {
      p_workspace_id: owner.workspaceId,
    });
    expect(status.error).toBeNull();
    const value = status.data as Record<string, unknown>;
    expect(Object.keys(value).sort()).toEqual(['has_secret', 'previous_valid_until', 'rotated_at']);
    expect(value.has_secret).toBe(true);
    expect(
      Date.parse(value.previous_valid_until as string) - Date.parse(value.rotated_at as string),
    ).toBeGreaterThan(23.9 * 3600_000);
    expect(JSON.stringify(value)).not.toContain('whsec_');

    for (const client of [stranger.client, clientFor(server)]) {
      const refused = await client.rpc('ingestion_status', { p_workspace_id: owner.workspaceId });
      expect(refused.data).toBeNull();
      expect(refused.error?.code).toMatch(/^(42501|PGRST202)$/);
    }

    // Back to a secret this file knows.
    owner.secret = byAdmin.data as string;
  });

  it('reports no secret for a workspace that never rotated', async () => {
    const fresh = await ownerWithSecret(server, 'Nora New');
    await server.db.query('delete from private.ingestion_secrets where workspace_id = $1', [
      fresh.workspaceId,
    ]);
    const { data, error } = await fresh.client.rpc('ingestion_status', {
      p_workspace_id: fresh.workspaceId,
    });
    expect(error).toBeNull();
    expect(data).toEqual({ has_secret: false, rotated_at: null, previous_valid_until: null });
  });

  it('makes secrets that never repeat', async () => {
    const secrets = new Set<string>();
    for (let i = 0; i < 20; i += 1) {
      const { data, error } = await owner.client.rpc('rotate_ingestion_secret', {
        p_workspace_id: owner.workspaceId,
      });
      expect(error).toBeNull();
      secrets.add(data as string);
      owner.secret = data as string;
    }
    expect(secrets.size).toBe(20);
    // One current and one previous secret at most, however often it rotates.
    const { rows } = await server.db.query<{ count: number }>(
      'select count(*)::int as count from private.ingestion_secrets where workspace_id = $1',
      [owner.workspaceId],
    );
    expect(rows[0]!.count).toBe(2);
  });
});

describe('the tables', () => {
  it('gives every workspace a default agent, and no API role writes calls', async () => {
    const { rows } = await server.db.query<{ missing: number }>(
      `select count(*)::int as missing from public.workspaces w
       where not exists (select from public.agents a where a.workspace_id = w.id)`,
    );
    expect(rows[0]!.missing).toBe(0);
    const agents = await owner.client.from('agents').select('name');
    expect(agents.data).toEqual([{ name: 'Cervana assistant' }]);

    for (const privilege of ['insert', 'update', 'delete']) {
      for (const role of ['anon', 'authenticated']) {
        const { rows: granted } = await server.db.query<{ allowed: boolean }>(
          `select has_table_privilege($1, 'public.calls', $2) as allowed`,
          [role, privilege],
        );
        expect(granted[0]!.allowed, `${role} ${privilege}`).toBe(false);
      }
    }
    const insert = await owner.client.from('calls').insert({
      workspace_id: owner.workspaceId,
      provider_call_id: 'forged',
      direction: 'inbound',
      from_number: '+14155550123',
      to_number: '+14155550124',
      started_at: new Date().toISOString(),
      duration_seconds: 1,
      outcome: 'resolved',
    });
    expect(insert.error?.code).toBe('42501');
  });

  it('links an ingested call to the workspace’s number and its agent', async () => {
    const service = serviceClient(server);
    const { data: agent } = await service
      .from('agents')
      .insert({ workspace_id: owner.workspaceId, name: 'Night shift' })
      .select('id')
      .single();
    const e164 = `+1415${String(Date.now()).slice(-7)}`;
    const { data: number, error } = await owner.client.rpc('add_phone_number', {
      p_workspace_id: owner.workspaceId,
      p_e164: e164,
      p_label: 'Support',
      p_agent_id: agent!.id,
    });
    expect(error).toBeNull();

    const ingest = async (body: Record<string, unknown>) => {
      const raw = JSON.stringify(body);
      const t = String(nowSeconds());
      const result = await service.rpc('ingest_call', {
        p_workspace_id: owner.workspaceId,
        p_timestamp: t,
        p_signature: sign(owner.secret, t, raw),
        p_body: raw,
      });
      expect(result.error).toBeNull();
      const { rows } = await server.db.query<{ phone_number_id: string; agent_id: string }>(
        'select phone_number_id, agent_id from public.calls where id = $1',
        [(result.data as { id: string }).id],
      );
      return rows[0]!;
    };
    expect(await ingest(callBody({ direction: 'inbound', to: e164 }))).toEqual({
      phone_number_id: (number as { id: string }).id,
      agent_id: agent!.id,
    });
    expect(await ingest(callBody({ direction: 'outbound', from: e164 }))).toEqual({
      phone_number_id: (number as { id: string }).id,
      agent_id: agent!.id,
    });
    const { rows: defaults } = await server.db.query<{ id: string }>(
      `select id from public.agents where workspace_id = $1 and name = 'Cervana assistant'`,
      [owner.workspaceId],
    );
    // The number is the caller's, not the workspace's: no number, the default agent.
    expect(
      await ingest(callBody({ direction: 'inbound', from: e164, to: '+18005550100' })),
    ).toEqual({ phone_number_id: null, agent_id: defaults[0]!.id });

    // A number's agent belongs to the same workspace.
    const other = await ownerWithSecret(server, 'Otto Other');
    const crossed = await other.client.rpc('add_phone_number', {
      p_workspace_id: other.workspaceId,
      p_e164: '+442079460000',
      p_label: null,
      p_agent_id: agent!.id,
    });
    expect(crossed.error).toMatchObject({ code: '22023', details: 'agent_id' });
    // A member does not manage numbers.
    const member = await addMember(server, owner.workspaceId, 'Mia Member', 'member');
    const byMember = await member.client.rpc('add_phone_number', {
      p_workspace_id: owner.workspaceId,
      p_e164: '+442079460001',
      p_label: null,
      p_agent_id: agent!.id,
    });
    expect(byMember.error?.code).toBe('42501');
  });
});
