import { readFile, readdir } from 'node:fs/promises';
import { createServer as createTcpServer, connect, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, type SignedIn } from '../forms/forms-testing';
import { PASSWORD } from '../schema/test-world';
import { clientFor, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';
import { ROOT_DIR } from '../testing/root-dir';
import { ensureSampleRecordings } from './sample-recordings';

/**
 * The sample data of a new workspace (supabase/migrations/20261124001600_sample_calls.sql):
 * what a new customer sees, its recordings through storage, and the owner's
 * one action that clears it, over real HTTP with the official client.
 */

const RECORDINGS_DIR = path.join(ROOT_DIR, 'supabase', 'sample-recordings');
const DAY_MS = 24 * 60 * 60 * 1000;

interface Segment {
  speaker: 'agent' | 'caller';
  start_ms: number;
  end_ms: number;
  text: string;
}

interface Scenario {
  id: string;
  title: string;
  summary: string;
  outcome: string;
  sentiment: string;
  extracted: Record<string, unknown>;
  recording: string;
  duration_ms: number;
  transcript: Segment[];
}

interface CallRow {
  id: string;
  provider_call_id: string;
  direction: string;
  from_number: string;
  to_number: string;
  started_at: string;
  duration_seconds: number;
  outcome: string;
  sentiment: string | null;
  summary: string | null;
  extracted: Record<string, unknown>;
  transcript: Segment[];
  recording_path: string | null;
  agent_id: string | null;
  is_sample: boolean;
}

let server: TestServer;
let scenarios: Scenario[];
let owner: SignedIn & { workspaceId: string };

async function workspaceOf(userId: string): Promise<string> {
  const { rows } = await server.db.query<{ workspace_id: string }>(
    'select workspace_id from public.workspace_members where user_id = $1 order by created_at limit 1',
    [userId],
  );
  return rows[0]!.workspace_id;
}

async function sampleCount(workspaceId: string): Promise<number> {
  const { rows } = await server.db.query<{ count: number }>(
    'select count(*)::int as count from public.calls where workspace_id = $1 and is_sample',
    [workspaceId],
  );
  return rows[0]!.count;
}

/** Every call of a workspace the client can read, through the data API (RLS applies). */
async function callsSeenBy(client: SupabaseClient, workspaceId: string): Promise<CallRow[]> {
  const rows: CallRow[] = [];
  for (let from = 0; ; from += 1000) {
    const { data, error } = await client
      .from('calls')
      .select('*')
      .eq('workspace_id', workspaceId)
      .order('started_at', { ascending: false })
      .order('id')
      .range(from, from + 999);
    if (error) throw error;
    rows.push(...(data as CallRow[]));
    if (data.length < 1000) return rows;
  }
}

/** A refusal as a user sees it: 403, 42501 and a sentence. */
function expectRefused(result: {
  error: { code: string; message: string } | null;
  status: number;
}) {
  expect(result.status).toBe(403);
  expect(result.error?.code).toBe('42501');
  expect(result.error?.message).toMatch(/^[A-Z][^\n]{10,}\.$/);
}

beforeAll(async () => {
  server = await startTestServer({ env: { MAILER_AUTOCONFIRM: 'true' } });
  // On by default; a test database may have switched it off.
  await server.db.query('update private.sample_data_settings set enabled = true');
  const json = JSON.parse(
    await readFile(path.join(RECORDINGS_DIR, 'scenarios.generated.json'), 'utf8'),
  ) as { scenarios: Scenario[] };
  scenarios = json.scenarios;
  // A new customer signs up as anyone does (the sign-up triggers make the workspace).
  const client = clientFor(server);
  const email = uniqueEmail('sample-owner');
  const { data, error } = await client.auth.signUp({
    email,
    password: PASSWORD,
    options: { data: { full_name: 'Sasha Sample', company: 'Sample Co' } },
  });
  if (error) throw error;
  expect(data.session).not.toBeNull();
  owner = { id: data.user!.id, email, client, workspaceId: await workspaceOf(data.user!.id) };
});

afterAll(async () => {
  await server?.close();
});

describe('a new workspace', () => {
  it('has at least 200 labelled sample calls over the last 30 days, with transcripts', async () => {
    const calls = await callsSeenBy(owner.client, owner.workspaceId);
    const now = Date.now();
    expect(calls.length).toBeGreaterThanOrEqual(200);
    expect(calls.length).toBeLessThanOrEqual(300);
    const { rows } = await server.db.query<{ id: string }>(
      'select id from public.agents where workspace_id = $1',
      [owner.workspaceId],
    );
    const byId = new Map(scenarios.map((scenario) => [`samples/${scenario.recording}`, scenario]));
    for (const call of calls) {
      expect(call.is_sample).toBe(true);
      expect(call.provider_call_id).toMatch(/^sample-\d+$/);
      expect(call.direction).toBe('inbound');
      expect(call.from_number).toMatch(/^\+1\d{10}$/);
      expect(call.agent_id).toBe(rows[0]!.id);
      const started = Date.parse(call.started_at);
      expect(started).toBeGreaterThan(now - 30 * DAY_MS);
      // Over before now (allowing for the clocks of the test and the database).
      expect(started + call.duration_seconds * 1000).toBeLessThanOrEqual(now + 5000);
      if (call.outcome === 'missed') {
        expect(call).toMatchObject({
          duration_seconds: 0,
          recording_path: null,
          transcript: [],
          sentiment: null,
          summary: null,
        });
        continue;
      }
      // The scenario's own recording, transcript and fields; a few seconds longer at most.
      const scenario = byId.get(call.recording_path ?? '');
      expect(scenario, call.recording_path ?? 'no recording').toBeDefined();
      expect(call).toMatchObject({
        outcome: scenario!.outcome,
        sentiment: scenario!.sentiment,
        summary: scenario!.summary,
        extracted: scenario!.extracted,
        transcript: scenario!.transcript,
      });
      // As long as its recording: the player and the details say the same.
      expect(call.duration_seconds).toBe(Math.floor(scenario!.duration_ms / 1000));
    }
    expect(new Set(calls.map((call) => call.provider_call_id)).size).toBe(calls.length);
    expect(new Set(calls.map((call) => call.from_number)).size).toBeGreaterThan(30);
  });

  it('looks like a support line: the outcome mix, weekdays and business hours', async () => {
    const calls = await callsSeenBy(owner.client, owner.workspaceId);
    const share = (outcome: string) =>
      calls.filter((call) => call.outcome === outcome).length / calls.length;
    expect(share('resolved')).toBeGreaterThan(0.6);
    expect(share('resolved')).toBeLessThan(0.8);
    expect(share('escalated')).toBeGreaterThan(0.1);
    expect(share('escalated')).toBeLessThan(0.2);
    expect(share('voicemail')).toBeGreaterThan(0.04);
    expect(share('voicemail')).toBeLessThan(0.12);
    expect(share('missed')).toBeGreaterThan(0.03);
    expect(share('missed')).toBeLessThan(0.11);
    // Every scenario is used, and so is every sentiment.
    expect(new Set(calls.map((call) => call.recording_path).filter(Boolean))).toEqual(
      new Set(scenarios.map((scenario) => `samples/${scenario.recording}`)),
    );
    expect(new Set(calls.map((call) => call.sentiment))).toEqual(
      new Set([null, 'positive', 'neutral', 'negative']),
    );
    // Local (US Eastern) weekday and hour.
    const local = calls.map((call) => {
      const parts = new Intl.DateTimeFormat('en-US', {
        timeZone: 'America/New_York',
        weekday: 'short',
        hour: 'numeric',
        hourCycle: 'h23',
      }).formatToParts(new Date(call.started_at));
      const part = (type: string) => parts.find((p) => p.type === type)!.value;
      return { outcome: call.outcome, weekday: part('weekday'), hour: Number(part('hour')) };
    });
    const weekend = local.filter((call) => call.weekday === 'Sat' || call.weekday === 'Sun');
    expect(weekend.length / local.length).toBeLessThan(0.12);
    for (const call of local) {
      if (call.outcome === 'voicemail') expect(call.hour).toBeGreaterThanOrEqual(18);
      else expect(call.hour, JSON.stringify(call)).toBeGreaterThanOrEqual(8);
      expect(call.hour).toBeLessThan(call.outcome === 'voicemail' ? 21 : 18);
    }
    // Spread over the month: calls on most weekdays of it.
    const days = new Set(calls.map((call) => call.started_at.slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(18);
  });

  it('says so through workspace_sample_state, and only to its members', async () => {
    const state = await owner.client.rpc('workspace_sample_state', {
      p_workspace_id: owner.workspaceId,
    });
    expect(state.error).toBeNull();
    expect(state.data).toEqual({
      sample_calls: await sampleCount(owner.workspaceId),
      cleared_at: null,
      can_clear: true,
    });
    const outsider = await signedInClient(server, { fullName: 'Olga Outsider', company: 'Else' });
    expectRefused(
      await outsider.client.rpc('workspace_sample_state', { p_workspace_id: owner.workspaceId }),
    );
    const anon = await clientFor(server).rpc('workspace_sample_state', {
      p_workspace_id: owner.workspaceId,
    });
    expect(anon.error?.code).toBe('42501');
  });

  it('was made from the recorded scenarios, as the migration holds them', async () => {
    const { rows } = await server.db.query<
      Omit<Scenario, 'recording'> & { recording_path: string }
    >(
      `select id, title, summary, outcome, sentiment, extracted, duration_ms, recording_path, transcript
       from private.sample_call_scenarios order by id`,
    );
    expect(rows).toEqual(
      [...scenarios]
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map(({ recording, ...scenario }) => ({
          id: scenario.id,
          title: scenario.title,
          summary: scenario.summary,
          outcome: scenario.outcome,
          sentiment: scenario.sentiment,
          extracted: scenario.extracted,
          duration_ms: scenario.duration_ms,
          recording_path: `samples/${recording}`,
          transcript: scenario.transcript,
        })),
    );
    const files = (await readdir(RECORDINGS_DIR)).filter((name) => name.endsWith('.mp3')).sort();
    expect(files).toEqual(scenarios.map((scenario) => scenario.recording).sort());
  });

  it('cannot make sample calls through the API: the generator is no API role’s', async () => {
    const { rows } = await server.db.query<{ role: string; allowed: boolean }>(
      `select r.role, has_function_privilege(r.role, 'private.add_sample_calls(uuid)', 'execute') as allowed
       from unnest(array['anon', 'authenticated', 'service_role']) as r(role)`,
    );
    expect(rows.every((row) => !row.allowed)).toBe(true);
    const viaApi = await owner.client
      .schema('private' as 'public')
      .rpc('add_sample_calls', { p_workspace_id: owner.workspaceId });
    expect(viaApi.error).not.toBeNull();
    // Nor can anyone insert a call (sample or not) as a user.
    const insert = await owner.client.from('calls').insert({
      workspace_id: owner.workspaceId,
      provider_call_id: 'user-made',
      direction: 'inbound',
      from_number: '+15555550100',
      to_number: '+15555550101',
      started_at: new Date().toISOString(),
      duration_seconds: 1,
      outcome: 'resolved',
      is_sample: true,
    });
    expect(insert.error?.code).toBe('42501');
  });
});

describe('the sample recordings', () => {
  it('are uploaded once, idempotently, even by servers racing', async () => {
    const options = {
      url: server.url,
      serviceRoleKey: server.serviceRoleKey,
      directory: RECORDINGS_DIR,
    };
    const [first, second] = await Promise.all([
      ensureSampleRecordings(options),
      ensureSampleRecordings(options),
    ]);
    const all = scenarios.map((scenario) => scenario.recording).sort();
    for (const result of [first, second]) {
      expect([...result.uploaded, ...result.replaced, ...result.present].sort()).toEqual(all);
    }
    const again = await ensureSampleRecordings(options);
    expect(again).toEqual({ uploaded: [], replaced: [], present: all });
  });

  it('leave no kept-alive connection open behind them (a stop right after the start waits for none)', async () => {
    // A plain TCP relay in front of the server, counting the job's connections still open.
    const open = new Set<Socket>();
    const serverUrl = new URL(server.url);
    const relay = createTcpServer((incoming) => {
      open.add(incoming);
      const outgoing = connect(Number(serverUrl.port), serverUrl.hostname);
      incoming.pipe(outgoing).pipe(incoming);
      const end = () => {
        open.delete(incoming);
        incoming.destroy();
        outgoing.destroy();
      };
      incoming.on('close', end).on('error', end);
      outgoing.on('close', end).on('error', end);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    let opened = 0;
    relay.on('connection', () => (opened += 1));
    try {
      const result = await ensureSampleRecordings({
        url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
        serviceRoleKey: server.serviceRoleKey,
        directory: RECORDINGS_DIR,
      });
      expect([...result.uploaded, ...result.replaced, ...result.present]).not.toEqual([]);
      expect(opened).toBeGreaterThan(0);
      // fetch keeps an idle connection 4 s by default; closed at once here.
      const deadline = Date.now() + 1000;
      while (open.size > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(open.size).toBe(0);
    } finally {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
    }
  });

  it('replaces a stored recording that differs from the file', async () => {
    const admin = clientFor(server, { key: server.serviceRoleKey });
    const stale = await admin.storage
      .from('call-recordings')
      .upload('samples/voicemail.mp3', Buffer.from('not the recording'), {
        contentType: 'audio/mpeg',
        upsert: true,
      });
    expect(stale.error).toBeNull();
    const result = await ensureSampleRecordings({
      url: server.url,
      serviceRoleKey: server.serviceRoleKey,
      directory: RECORDINGS_DIR,
    });
    expect(result.replaced).toEqual(['voicemail.mp3']);
    const { data } = await admin.storage.from('call-recordings').download('samples/voicemail.mp3');
    expect(Buffer.from(await data!.arrayBuffer())).toEqual(
      await readFile(path.join(RECORDINGS_DIR, 'voicemail.mp3')),
    );
  });

  it('play for a member through a signed URL, seekable', async () => {
    const member = await signedInClient(server, { fullName: 'Mia Member' });
    await server.db.query(
      `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'member')`,
      [owner.workspaceId, member.id],
    );
    const calls = await callsSeenBy(member.client, owner.workspaceId);
    const call = calls.find((candidate) => candidate.recording_path)!;
    const signed = await member.client.storage
      .from('call-recordings')
      .createSignedUrl(call.recording_path!, 300);
    expect(signed.error).toBeNull();
    const file = await readFile(path.join(RECORDINGS_DIR, path.basename(call.recording_path!)));
    const whole = await fetch(signed.data!.signedUrl);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(file);
    const part = await fetch(signed.data!.signedUrl, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(file.subarray(1000, 2000));
    // Visitors who are not signed in get nothing.
    const anon = await clientFor(server)
      .storage.from('call-recordings')
      .createSignedUrl(call.recording_path!, 300);
    expect(anon.data).toBeNull();
  });
});

describe('clearing the sample data', () => {
  let member: SignedIn;
  let other: SignedIn & { workspaceId: string };
  let ingestedId: string;

  beforeAll(async () => {
    member = await signedInClient(server, { fullName: 'Max Member' });
    await server.db.query(
      `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'member')`,
      [owner.workspaceId, member.id],
    );
    const otherUser = await signedInClient(server, { fullName: 'Otto Other', company: 'Other Co' });
    other = { ...otherUser, workspaceId: await workspaceOf(otherUser.id) };
    // A call from the phone system, stored as the service role: never sample data. Its provider
    // id is one a sample call also has: a provider's own ids are never taken for samples.
    const admin = clientFor(server, { key: server.serviceRoleKey });
    const { data, error } = await admin
      .from('calls')
      .insert({
        workspace_id: owner.workspaceId,
        provider_call_id: 'sample-7',
        direction: 'inbound',
        from_number: '+15555550123',
        to_number: '+15555550100',
        started_at: new Date(Date.now() - 60_000).toISOString(),
        duration_seconds: 42,
        outcome: 'resolved',
        summary: 'A real call.',
      })
      .select('id, is_sample')
      .single();
    if (error) throw error;
    expect(data.is_sample).toBe(false);
    ingestedId = data.id as string;
  });

  it('is refused to a plain member and to another workspace’s owner', async () => {
    const before = await sampleCount(owner.workspaceId);
    expect(before).toBeGreaterThanOrEqual(200);
    expectRefused(
      await member.client.rpc('clear_sample_calls', { p_workspace_id: owner.workspaceId }),
    );
    expectRefused(
      await other.client.rpc('clear_sample_calls', { p_workspace_id: owner.workspaceId }),
    );
    const anon = await clientFor(server).rpc('clear_sample_calls', {
      p_workspace_id: owner.workspaceId,
    });
    expect(anon.error?.code).toBe('42501');
    expect(await sampleCount(owner.workspaceId)).toBe(before);
    const memberState = await member.client.rpc('workspace_sample_state', {
      p_workspace_id: owner.workspaceId,
    });
    expect(memberState.data).toMatchObject({ sample_calls: before, can_clear: false });
  });

  it('removes only the sample calls, for the owner, in one call', async () => {
    const before = await sampleCount(owner.workspaceId);
    const otherBefore = await sampleCount(other.workspaceId);
    const cleared = await owner.client.rpc('clear_sample_calls', {
      p_workspace_id: owner.workspaceId,
    });
    expect(cleared.error).toBeNull();
    expect(cleared.data).toBe(before);
    const calls = await callsSeenBy(owner.client, owner.workspaceId);
    expect(calls.map((call) => call.id)).toEqual([ingestedId]);
    expect(await sampleCount(other.workspaceId)).toBe(otherBefore);
    const state = await owner.client.rpc('workspace_sample_state', {
      p_workspace_id: owner.workspaceId,
    });
    expect(state.data).toMatchObject({ sample_calls: 0, can_clear: true });
    expect(Date.now() - Date.parse((state.data as { cleared_at: string }).cleared_at)).toBeLessThan(
      60_000,
    );
    // Again: nothing left to clear.
    const again = await owner.client.rpc('clear_sample_calls', {
      p_workspace_id: owner.workspaceId,
    });
    expect(again.data).toBe(0);
  });

  it('for good: a cleared workspace never gets sample calls again', async () => {
    const { rows } = await server.db.query<{ added: number }>(
      'select private.add_sample_calls($1) as added',
      [owner.workspaceId],
    );
    expect(rows[0]!.added).toBe(0);
    expect(await sampleCount(owner.workspaceId)).toBe(0);
    // While a workspace that has them does not get them twice.
    const twice = await server.db.query<{ added: number }>(
      'select private.add_sample_calls($1) as added',
      [other.workspaceId],
    );
    expect(twice.rows[0]!.added).toBe(0);
    expect(await sampleCount(other.workspaceId)).toBeGreaterThanOrEqual(200);
  });
});

describe('the switch', () => {
  it('keeps sample calls from new workspaces while sample data is off', async () => {
    await server.db.query('update private.sample_data_settings set enabled = false');
    try {
      const user = await signedInClient(server, { fullName: 'Nora None', company: 'None Co' });
      const workspaceId = await workspaceOf(user.id);
      expect(await sampleCount(workspaceId)).toBe(0);
      const state = await user.client.rpc('workspace_sample_state', {
        p_workspace_id: workspaceId,
      });
      expect(state.data).toEqual({ sample_calls: 0, cleared_at: null, can_clear: true });
    } finally {
      await server.db.query('update private.sample_data_settings set enabled = true');
    }
    const user = await signedInClient(server, { fullName: 'Sol Some', company: 'Some Co' });
    expect(await sampleCount(await workspaceOf(user.id))).toBeGreaterThanOrEqual(200);
  });
});
