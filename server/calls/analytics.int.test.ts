import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRequestContext } from '../db/request-context';
import { PASSWORD, createSignedInUser } from '../schema/test-world';
import { clientFor } from '../testing/clients';
import {
  cloneTestDatabase,
  startTestServer,
  type TestDatabase,
  type TestServer,
} from '../testing/harness';
import {
  OUTCOMES,
  explainAs,
  insertCalls,
  makeCalls,
  percentile,
  planNodes,
  planText,
  recordingDatabase,
  type CallRow,
  type PlanNode,
  type RecordedStatement,
} from './analytics-testing';

/**
 * The dashboard's analytics (20261124001500_call_analytics.sql) through the
 * data API with the official client, on PGlite and PostgreSQL: the KPIs and
 * trends agree exactly with the rows filtered_calls returns and with a direct
 * count of the table, for every filter; keyset pages and the CSV export go
 * through filtered_calls; row-level security decides what anyone counts; bad
 * filters are refused with the filter named; and with 10,000 calls the plan
 * reads the calls index with the function inlined.
 */

interface User {
  id: string;
  client: SupabaseClient;
  claims: Record<string, unknown> & { role: 'authenticated' };
  workspaceId: string;
}

interface Kpi {
  calls: number;
  answered: number;
  resolved: number;
  escalated: number;
  voicemail: number;
  missed: number;
  resolution_rate: number | null;
  avg_handle_seconds: number | null;
  handled_seconds: number;
}

interface TrendRow {
  day: string;
  resolved: number;
  escalated: number;
  voicemail: number;
  missed: number;
}

type Filters = Record<string, unknown>;

let database: TestDatabase;
let recorded: RecordedStatement[];
let server: TestServer;
let anon: SupabaseClient;
let service: SupabaseClient;
let owner: User;
let member: User;
let outsider: User;
const ownerCalls: CallRow[] = [];

// The main period (59 days) and the one before it (the KPIs' comparison).
const FROM = '2030-01-01T00:00:00.000Z';
const TO = '2030-03-01T00:00:00.000Z';
const PREVIOUS_FROM = '2029-11-03T00:00:00.000Z';

async function signUp(fullName: string): Promise<User> {
  const user = await createSignedInUser(server, { fullName, company: `${fullName} Co` });
  const client = clientFor(server);
  const { error } = await client.auth.signInWithPassword({ email: user.email, password: PASSWORD });
  if (error) throw error;
  const { rows } = await server.db.query<{ workspace_id: string }>(
    `select workspace_id from public.workspace_members where user_id = $1`,
    [user.id],
  );
  // Whatever a new workspace starts with (sample calls) is not ours to count.
  await server.db.query(`delete from public.calls where workspace_id = $1`, [
    rows[0]!.workspace_id,
  ]);
  return {
    id: user.id,
    client,
    claims: user.identity.claims as User['claims'],
    workspaceId: rows[0]!.workspace_id,
  };
}

function call(overrides: Partial<CallRow> & Pick<CallRow, 'id' | 'started_at'>): CallRow {
  return {
    workspace_id: owner.workspaceId,
    provider_call_id: `special-${overrides.id}`,
    direction: 'inbound',
    from_number: '+14155550123',
    to_number: '+18005550199',
    duration_seconds: 60,
    outcome: 'resolved',
    sentiment: 'positive',
    summary: 'A special call.',
    transcript: [],
    extracted: {},
    is_sample: false,
    ...overrides,
  };
}

function args(from: string, to: string, filters?: Filters, workspaceId = owner.workspaceId) {
  return {
    p_workspace_id: workspaceId,
    p_from: from,
    p_to: to,
    ...(filters === undefined ? {} : { p_filters: filters }),
  };
}

const PAGE = 50;

/** Every row of filtered_calls, newest first, through keyset pages as the calls page reads them. */
async function allRows(
  client: SupabaseClient,
  rpcArgs: ReturnType<typeof args>,
  pageSize = PAGE,
): Promise<{ rows: CallRow[]; pages: number }> {
  const rows: CallRow[] = [];
  let pages = 0;
  let last: CallRow | undefined;
  for (;;) {
    let request = client
      .rpc('filtered_calls', rpcArgs)
      .select('id,started_at,outcome,duration_seconds,sentiment,direction,from_number,to_number')
      .order('started_at', { ascending: false })
      .order('id', { ascending: false });
    if (last)
      request = request.or(
        `started_at.lt.${last.started_at},and(started_at.eq.${last.started_at},id.lt.${last.id})`,
      );
    const { data, error } = await request.limit(pageSize);
    if (error) throw new Error(`filtered_calls: ${error.message}`);
    pages += 1;
    const page = data as unknown as CallRow[];
    rows.push(...page);
    if (page.length < pageSize) return { rows, pages };
    last = page[page.length - 1];
  }
}

function kpiOf(rows: Pick<CallRow, 'outcome' | 'duration_seconds'>[]): Kpi {
  const count = (outcome: string) => rows.filter((row) => row.outcome === outcome).length;
  const answered = rows.filter((row) => row.outcome !== 'missed');
  const handled = answered.reduce((sum, row) => sum + row.duration_seconds, 0);
  return {
    calls: rows.length,
    answered: answered.length,
    resolved: count('resolved'),
    escalated: count('escalated'),
    voicemail: count('voicemail'),
    missed: count('missed'),
    resolution_rate: answered.length > 0 ? count('resolved') / answered.length : null,
    avg_handle_seconds: answered.length > 0 ? handled / answered.length : null,
    handled_seconds: handled,
  };
}

/** The KPIs counted straight from the table (as the superuser) with a WHERE of the test's own. */
async function directKpi(
  workspaceId: string,
  from: string,
  to: string,
  where: string,
): Promise<Kpi & { ids: string[] }> {
  const { rows } = await server.db.query<{ outcome: string; duration_seconds: number; id: string }>(
    `select id, outcome, duration_seconds from public.calls
     where workspace_id = $1 and started_at >= $2 and started_at < $3 and (${where})
     order by started_at desc, id desc`,
    [workspaceId, from, to],
  );
  return { ...kpiOf(rows as CallRow[]), ids: rows.map((row) => row.id) };
}

function expectSameKpi(actual: Kpi, expected: Kpi): void {
  const { resolution_rate, avg_handle_seconds, ...counts } = actual;
  const {
    resolution_rate: expectedRate,
    avg_handle_seconds: expectedAverage,
    ...expectedCounts
  } = expected;
  expect(counts).toEqual(expectedCounts);
  if (expectedRate === null) expect(resolution_rate).toBeNull();
  else expect(resolution_rate).toBeCloseTo(expectedRate, 12);
  if (expectedAverage === null) expect(avg_handle_seconds).toBeNull();
  else expect(avg_handle_seconds).toBeCloseTo(expectedAverage, 9);
}

async function kpis(
  client: SupabaseClient,
  rpcArgs: ReturnType<typeof args>,
): Promise<{ current: Kpi; previous: Kpi }> {
  const { data, error } = await client.rpc('call_kpis', rpcArgs);
  if (error) throw new Error(`call_kpis: ${error.message}`);
  return data as { current: Kpi; previous: Kpi };
}

async function trends(
  client: SupabaseClient,
  rpcArgs: ReturnType<typeof args> & { p_time_zone?: string },
): Promise<TrendRow[]> {
  const { data, error } = await client.rpc('call_trends', rpcArgs);
  if (error) throw new Error(`call_trends: ${error.message}`);
  return data as TrendRow[];
}

beforeAll(async () => {
  database = await cloneTestDatabase();
  const recording = recordingDatabase(database.db);
  recorded = recording.statements;
  server = await startTestServer({ database: recording.db });
  anon = clientFor(server);
  service = clientFor(server, { key: server.serviceRoleKey });
  owner = await signUp('Olive Owner');
  outsider = await signUp('Oscar Outsider');
  const memberUser = await signUp('Mia Member');
  await server.db.query(
    `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'member')`,
    [owner.workspaceId, memberUser.id],
  );
  member = { ...memberUser, workspaceId: owner.workspaceId };

  ownerCalls.push(
    ...makeCalls({
      workspaceId: owner.workspaceId,
      count: 600,
      from: new Date(PREVIOUS_FROM),
      to: new Date(TO),
      seed: 1,
    }),
    // Only the summary, only the transcript say it.
    call({
      id: '00000000-0000-4000-8000-00000000000a',
      started_at: '2030-01-20T10:00:00Z',
      summary: 'The caller keeps a zebra.',
    }),
    call({
      id: '00000000-0000-4000-8000-00000000000b',
      started_at: '2030-01-21T10:00:00Z',
      summary: null,
      transcript: [
        { speaker: 'caller', start_ms: 0, end_ms: 1000, text: 'My giraffe ate the router.' },
      ],
    }),
    // Every filter at once.
    call({
      id: '00000000-0000-4000-8000-00000000000c',
      started_at: '2030-01-22T10:00:00Z',
      from_number: '+14155550102',
      outcome: 'escalated',
      sentiment: 'neutral',
      summary: 'Refund asked for a double charge.',
    }),
    // Six calls at one instant: the keyset pages must order ties by id.
    ...['1', '2', '3', '4', '5', '6'].map((digit) =>
      call({
        id: `00000000-0000-4000-8000-00000000010${digit}`,
        started_at: '2030-02-10T12:00:00Z',
        outcome: digit < '4' ? 'resolved' : 'missed',
      }),
    ),
    // Local days around Europe/Paris's summer time (2030-03-31), outside the main period.
    call({
      id: '00000000-0000-4000-8000-000000000201',
      started_at: '2030-03-29T22:30:00Z',
      outcome: 'resolved',
    }),
    call({
      id: '00000000-0000-4000-8000-000000000202',
      started_at: '2030-03-29T23:30:00Z',
      outcome: 'missed',
    }),
    call({
      id: '00000000-0000-4000-8000-000000000203',
      started_at: '2030-03-31T22:30:00Z',
      outcome: 'escalated',
    }),
    call({
      id: '00000000-0000-4000-8000-000000000204',
      started_at: '2030-04-02T06:30:00Z',
      outcome: 'voicemail',
    }),
  );
  await insertCalls(service, ownerCalls);
  // The outsider's own calls, in the same period.
  await insertCalls(
    service,
    makeCalls({
      workspaceId: outsider.workspaceId,
      count: 120,
      from: new Date(PREVIOUS_FROM),
      to: new Date(TO),
      seed: 2,
    }),
  );
});

afterAll(async () => {
  await server?.close();
  await database?.drop();
});

// A filter combination, and the same selection written independently as SQL
// over the table (ILIKE for the searches, so the oracle is not the search).
const COMBINATIONS: { name: string; filters: Filters; where: string }[] = [
  { name: 'no filters', filters: {}, where: 'true' },
  {
    name: 'blank and empty filters',
    filters: { q: '   ', outcome: [], sentiment: [], direction: null, number: '' },
    where: 'true',
  },
  {
    name: 'a search of stop words only',
    filters: { q: 'the and of' },
    where: 'true',
  },
  {
    name: 'outcomes',
    filters: { outcome: ['resolved', 'escalated'] },
    where: `outcome in ('resolved', 'escalated')`,
  },
  {
    name: 'sentiment and direction',
    filters: { sentiment: ['negative'], direction: 'inbound' },
    where: `sentiment = 'negative' and direction = 'inbound'`,
  },
  {
    name: 'a word of the summaries only',
    filters: { q: 'admin' },
    where: `summary ilike '%admin%'`,
  },
  {
    name: 'a word of the transcripts only',
    filters: { q: 'locked' },
    where: `transcript::text ilike '%locked%'`,
  },
  {
    name: 'a word of both',
    filters: { q: 'refund' },
    where: `summary ilike '%refund%' or transcript::text ilike '%refund%'`,
  },
  {
    name: 'a phrase, or a word, with an outcome',
    filters: { q: '"tracking page" or cancel', outcome: ['escalated'] },
    where: `(transcript::text ilike '%tracking page%' or summary ilike '%cancel%'
             or transcript::text ilike '%cancel%') and outcome = 'escalated'`,
  },
  {
    name: 'a number',
    filters: { number: '+14155550101' },
    where: `'+14155550101' in (from_number, to_number)`,
  },
  {
    name: 'a number written without +',
    filters: { number: '1 (415) 555-0101' },
    where: `'+14155550101' in (from_number, to_number)`,
  },
  {
    name: 'every filter at once',
    filters: {
      q: 'refund',
      outcome: ['resolved', 'escalated'],
      sentiment: ['positive', 'neutral'],
      direction: 'inbound',
      number: '+14155550102',
    },
    where: `(summary ilike '%refund%' or transcript::text ilike '%refund%')
            and outcome in ('resolved', 'escalated') and sentiment in ('positive', 'neutral')
            and direction = 'inbound' and '+14155550102' in (from_number, to_number)`,
  },
];

describe('KPIs agree with the rows and the table', () => {
  it.each(COMBINATIONS)('$name', async ({ filters, where }) => {
    const result = await kpis(owner.client, args(FROM, TO, filters));
    const direct = await directKpi(owner.workspaceId, FROM, TO, where);
    const directPrevious = await directKpi(owner.workspaceId, PREVIOUS_FROM, FROM, where);
    const { rows } = await allRows(owner.client, args(FROM, TO, filters));

    expect(direct.calls, 'the combination selects some calls').toBeGreaterThan(0);
    expect(rows.map((row) => row.id)).toEqual(direct.ids);
    const { ids, ...directCounts } = direct;
    const { ids: previousIds, ...previousCounts } = directPrevious;
    expectSameKpi(result.current, kpiOf(rows));
    expectSameKpi(result.current, directCounts);
    expectSameKpi(result.previous, previousCounts);
    expect(ids.length + previousIds.length).toBeGreaterThan(0);

    const days = await trends(owner.client, args(FROM, TO, filters));
    expect(days).toHaveLength(59);
    for (const outcome of OUTCOMES) {
      expect(
        days.reduce((sum, day) => sum + day[outcome], 0),
        outcome,
      ).toBe(result.current[outcome]);
    }
  });

  it('finds a word that only a summary, or only a transcript, holds', async () => {
    const summary = await allRows(owner.client, args(FROM, TO, { q: 'zebra' }));
    expect(summary.rows.map((row) => row.id)).toEqual(['00000000-0000-4000-8000-00000000000a']);
    const transcript = await allRows(owner.client, args(FROM, TO, { q: 'giraffes' }));
    expect(transcript.rows.map((row) => row.id)).toEqual(['00000000-0000-4000-8000-00000000000b']);
    const none = await kpis(owner.client, args(FROM, TO, { q: 'zebra giraffe' }));
    expect(none.current.calls).toBe(0);
  });

  it('compares with the period of the same length just before', async () => {
    // February 2030 (28 days) against the 28 days before it.
    const february = await kpis(owner.client, args('2030-02-01T00:00:00Z', TO));
    const january = await directKpi(
      owner.workspaceId,
      '2030-01-04T00:00:00Z',
      '2030-02-01T00:00:00Z',
      'true',
    );
    const { ids, ...januaryCounts } = january;
    expect(ids.length).toBeGreaterThan(0);
    expectSameKpi(february.previous, januaryCounts);

    // Nothing before the first call: zeros, and no rates rather than 0 %.
    const first = await kpis(owner.client, args('2029-11-03T00:00:00Z', '2029-11-10T00:00:00Z'));
    expect(first.current.calls).toBeGreaterThan(0);
    expect(first.previous).toEqual({
      calls: 0,
      answered: 0,
      resolved: 0,
      escalated: 0,
      voicemail: 0,
      missed: 0,
      resolution_rate: null,
      avg_handle_seconds: null,
      handled_seconds: 0,
    });
  });

  it('counts the same for every member of the workspace', async () => {
    const filters = { outcome: ['resolved', 'voicemail'] };
    expect(await kpis(member.client, args(FROM, TO, filters))).toEqual(
      await kpis(owner.client, args(FROM, TO, filters)),
    );
  });
});

describe('trends', () => {
  // Europe/Paris, 28 March to 3 April 2030 (summer time from 31 March).
  const PARIS_FROM = '2030-03-27T23:00:00Z';
  const PARIS_TO = '2030-04-03T22:00:00Z';
  const zero = { resolved: 0, escalated: 0, voicemail: 0, missed: 0 };

  it('has one row per local day, days without calls included', async () => {
    const days = await trends(owner.client, {
      ...args(PARIS_FROM, PARIS_TO),
      p_time_zone: 'Europe/Paris',
    });
    expect(days).toEqual([
      { day: '2030-03-28', ...zero },
      { day: '2030-03-29', ...zero, resolved: 1 },
      { day: '2030-03-30', ...zero, missed: 1 },
      { day: '2030-03-31', ...zero },
      { day: '2030-04-01', ...zero, escalated: 1 },
      { day: '2030-04-02', ...zero, voicemail: 1 },
      { day: '2030-04-03', ...zero },
    ]);
  });

  it('puts a call on the day it was in the time zone asked for', async () => {
    const utc = await trends(owner.client, args(PARIS_FROM, PARIS_TO));
    expect(utc).toEqual([
      { day: '2030-03-27', ...zero },
      { day: '2030-03-28', ...zero },
      { day: '2030-03-29', ...zero, resolved: 1, missed: 1 },
      { day: '2030-03-30', ...zero },
      { day: '2030-03-31', ...zero, escalated: 1 },
      { day: '2030-04-01', ...zero },
      { day: '2030-04-02', ...zero, voicemail: 1 },
      { day: '2030-04-03', ...zero },
    ]);
    // Los Angeles: 2 April 06:30 UTC is still 1 April there.
    const losAngeles = await trends(owner.client, {
      ...args('2030-03-29T07:00:00Z', '2030-04-03T07:00:00Z'),
      p_time_zone: 'America/Los_Angeles',
    });
    expect(losAngeles).toEqual([
      { day: '2030-03-29', ...zero, resolved: 1, missed: 1 },
      { day: '2030-03-30', ...zero },
      { day: '2030-03-31', ...zero, escalated: 1 },
      { day: '2030-04-01', ...zero, voicemail: 1 },
      { day: '2030-04-02', ...zero },
    ]);
  });

  it('refuses a time zone it does not know', async () => {
    for (const zone of ['Mars/Olympus_Mons', "Europe/Paris'; select 1", '']) {
      const { error, status } = await owner.client.rpc('call_trends', {
        ...args(PARIS_FROM, PARIS_TO),
        p_time_zone: zone,
      });
      expect({ status, code: error?.code, details: error?.details }, zone).toEqual({
        status: 400,
        code: '22023',
        details: 'p_time_zone',
      });
      expect(error!.message).toMatch(/^Unknown time zone/);
    }
  });
});

describe('who counts what', () => {
  it('gives a member of another workspace zeros and no rows', async () => {
    const result = await kpis(outsider.client, args(FROM, TO));
    expect(result.current.calls).toBe(0);
    expect(result.previous.calls).toBe(0);
    const { rows } = await allRows(outsider.client, args(FROM, TO));
    expect(rows).toEqual([]);
    const days = await trends(outsider.client, args(FROM, TO));
    expect(days).toHaveLength(59);
    expect(days.every((day) => OUTCOMES.every((outcome) => day[outcome] === 0))).toBe(true);
    const csv = await outsider.client.rpc('filtered_calls', args(FROM, TO)).select('id').csv();
    expect(csv.error).toBeNull();
    expect((csv.data as string).trim()).toBe('');
  });

  it("counts a workspace's own calls only", async () => {
    const own = await kpis(outsider.client, args(FROM, TO, {}, outsider.workspaceId));
    const { ids, ...direct } = await directKpi(outsider.workspaceId, FROM, TO, 'true');
    expect(ids.length).toBeGreaterThan(0);
    expectSameKpi(own.current, direct);
  });

  it('refuses anonymous callers', async () => {
    for (const name of ['filtered_calls', 'call_kpis', 'call_trends', 'call_filters']) {
      const { status, error } = await anon.rpc(
        name,
        name === 'call_filters' ? { ...args(FROM, TO, {}), p_max_days: 1 } : args(FROM, TO),
      );
      expect({ name, status, code: error?.code }).toEqual({ name, status: 401, code: '42501' });
    }
  });
});

describe('invalid filters', () => {
  const cases: { filters: unknown; details: string }[] = [
    { filters: { outcome: ['won'] }, details: 'outcome' },
    { filters: { outcome: 'resolved' }, details: 'outcome' },
    { filters: { outcome: [null] }, details: 'outcome' },
    { filters: { sentiment: [1] }, details: 'sentiment' },
    { filters: { sentiment: { positive: true } }, details: 'sentiment' },
    { filters: { direction: 'sideways' }, details: 'direction' },
    { filters: { direction: ['inbound'] }, details: 'direction' },
    { filters: { number: 'call me' }, details: 'number' },
    { filters: { number: '+0123' }, details: 'number' },
    { filters: { number: 4155550101 }, details: 'number' },
    { filters: { q: 42 }, details: 'q' },
    { filters: { q: 'x'.repeat(201) }, details: 'q' },
    { filters: { colour: 'blue' }, details: 'colour' },
    { filters: ['outcome'], details: 'p_filters' },
    { filters: 'outcome', details: 'p_filters' },
  ];

  it.each(cases)('refuses $filters naming $details', async ({ filters, details }) => {
    for (const name of ['filtered_calls', 'call_kpis', 'call_trends']) {
      const { status, error, data } = await owner.client.rpc(
        name,
        args(FROM, TO, filters as Filters),
      );
      expect({ name, status, code: error?.code, details: error?.details, data }).toEqual({
        name,
        status: 400,
        code: '22023',
        details,
        data: null,
      });
      expect(error!.message).toContain(details === 'p_filters' ? 'p_filters' : `"${details}"`);
      expect(error!.message).toMatch(/^[A-Z][^\n]{10,}\.$/);
    }
  });

  it('refuses a period that ends before it starts, or is too long', async () => {
    const refusal = async (name: string, from: string, to: string) => {
      const { status, error } = await owner.client.rpc(name, args(from, to));
      return { status, code: error?.code, details: error?.details };
    };
    const period = { status: 400, code: '22023', details: 'period' };
    for (const name of ['filtered_calls', 'call_kpis', 'call_trends']) {
      expect(await refusal(name, TO, FROM)).toEqual(period);
      expect(await refusal(name, FROM, FROM)).toEqual(period);
      expect(await refusal(name, '-infinity', TO)).toEqual(period);
    }
    // A year (and a leap day) at most for the KPIs and trends, and an hour for summer time...
    const year = ['2030-01-01T00:00:00Z', '2031-01-02T01:00:00Z'] as const;
    const longer = ['2030-01-01T00:00:00Z', '2031-01-02T01:00:01Z'] as const;
    expect((await owner.client.rpc('call_kpis', args(...year))).status).toBe(200);
    expect((await owner.client.rpc('call_trends', args(...year))).data).toHaveLength(367);
    expect(await refusal('call_kpis', ...longer)).toEqual(period);
    expect(await refusal('call_trends', ...longer)).toEqual(period);
    // ...and twice that for the table (the KPIs read a period and the one before it).
    expect((await owner.client.rpc('filtered_calls', args(...longer)).select('id')).status).toBe(
      200,
    );
    expect(
      (
        await owner.client
          .rpc('filtered_calls', args('2029-01-01T00:00:00Z', '2031-01-04T01:00:00Z'))
          .select('id')
      ).status,
    ).toBe(200);
    expect(await refusal('filtered_calls', '2029-01-01T00:00:00Z', '2031-01-04T01:00:01Z')).toEqual(
      period,
    );
  });
});

describe('the calls page through filtered_calls', () => {
  it('pages with keysets: every row once, newest first, ties by id', async () => {
    for (const filters of [{}, { outcome: ['resolved'] }]) {
      const { rows, pages } = await allRows(owner.client, args(FROM, TO, filters));
      const direct = await directKpi(
        owner.workspaceId,
        FROM,
        TO,
        'outcome' in filters ? `outcome = 'resolved'` : 'true',
      );
      expect(pages).toBeGreaterThanOrEqual(2);
      expect(rows.map((row) => row.id)).toEqual(direct.ids);
      expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    }
    // Pages of 4 through the six calls at one instant.
    const ties = await allRows(
      owner.client,
      args('2030-02-10T12:00:00Z', '2030-02-10T12:00:01Z'),
      4,
    );
    expect(ties.pages).toBe(2);
    expect(ties.rows.map((row) => row.id)).toEqual(
      ['6', '5', '4', '3', '2', '1'].map((digit) => `00000000-0000-4000-8000-00000000010${digit}`),
    );
  });

  it('exports exactly the filtered rows as CSV', async () => {
    const filters = { q: 'refund or password or parcel', direction: 'inbound' };
    const { data, error } = await owner.client
      .rpc('filtered_calls', args(FROM, TO, filters))
      .select('id,started_at,outcome,duration_seconds')
      .order('started_at', { ascending: false })
      .order('id', { ascending: false })
      .csv();
    expect(error).toBeNull();
    const lines = (data as string).split('\n');
    expect(lines[0]).toBe('id,started_at,outcome,duration_seconds');
    const direct = await directKpi(
      owner.workspaceId,
      FROM,
      TO,
      `(summary ilike '%refund%' or transcript::text ilike '%refund%'
        or summary ilike '%password%' or transcript::text ilike '%password%'
        or summary ilike '%parcel%' or transcript::text ilike '%parcel%') and direction = 'inbound'`,
    );
    expect(direct.ids.length).toBeGreaterThan(PAGE);
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(direct.ids);
    const result = await kpis(owner.client, args(FROM, TO, filters));
    expect(result.current.calls).toBe(lines.length - 1);
  });
});

describe('with 10,000 calls in one workspace', () => {
  let big: User;
  const BIG_FROM = '2030-01-01T00:00:00.000Z';
  const BIG_TO = '2030-04-01T00:00:00.000Z';
  const LAST_30_FROM = '2030-03-02T00:00:00.000Z';

  beforeAll(async () => {
    big = await signUp('Bianca Busy');
    await insertCalls(
      service,
      makeCalls({
        workspaceId: big.workspaceId,
        count: 10_000,
        from: new Date(BIG_FROM),
        to: new Date(BIG_TO),
        seed: 3,
      }),
    );
  }, 180_000);

  /** The statement the data API ran for the last call of a function. */
  function lastStatementOf(name: string): RecordedStatement {
    const statement = [...recorded].reverse().find((candidate) => candidate.sql.includes(name));
    if (!statement) throw new Error(`no statement calling ${name}`);
    return statement;
  }

  function firstPage(from: string, filters: Filters = {}) {
    return big.client
      .rpc('filtered_calls', args(from, BIG_TO, filters, big.workspaceId))
      .select(
        'id,started_at,direction,from_number,to_number,duration_seconds,outcome,sentiment,summary',
      )
      .order('started_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(PAGE);
  }

  function expectInlinedOnTheIndex(plan: PlanNode): void {
    const nodes = planNodes(plan);
    const text = planText(plan);
    expect(
      nodes.filter((node) => node['Function Name'] === 'filtered_calls'),
      text,
    ).toHaveLength(0);
    expect(
      nodes.some((node) => node['Index Name'] === 'calls_workspace_started_idx'),
      text,
    ).toBe(true);
    expect(
      nodes.filter((node) => node['Relation Name'] === 'calls' && node['Node Type'] === 'Seq Scan'),
      text,
    ).toHaveLength(0);
    // The filters are checked and parsed once, not once per call.
    const checks = nodes.filter((node) => node['Function Name'] === 'call_filters');
    expect(
      checks.map((node) => node['Actual Loops']),
      text,
    ).toEqual([1]);
  }

  it('inlines filtered_calls and reads the calls index under row-level security', async () => {
    for (const filters of [{}, { q: 'refund', outcome: ['resolved'] }]) {
      const page = await firstPage(BIG_FROM, filters);
      expect(page.error).toBeNull();
      expect(page.data).toHaveLength(PAGE);
      const explained = await explainAs(database.db, big.claims, lastStatementOf('filtered_calls'));
      expectInlinedOnTheIndex(explained.plan);
    }
    // What call_kpis and call_trends run inside.
    const inner = await explainAs(database.db, big.claims, {
      sql: `select count(*) from public.filtered_calls($1::uuid, $2::timestamptz, $3::timestamptz, $4::jsonb)`,
      params: [big.workspaceId, BIG_FROM, BIG_TO, '{"sentiment":["negative"]}'],
    });
    expectInlinedOnTheIndex(inner.plan);
  });

  it('measures the dashboard queries (p50/p95, through the API and in the database)', async () => {
    const context = {
      role: 'authenticated' as const,
      claims: big.claims,
      method: 'POST',
      path: '/rest/v1/rpc',
      headers: {},
    };
    const measure = async (
      label: string,
      name: string,
      run: () => PromiseLike<{ error: unknown }>,
    ) => {
      const api: number[] = [];
      for (let index = 0; index < 23; index += 1) {
        const started = performance.now();
        const { error } = await run();
        if (error) throw new Error(`${label}: ${JSON.stringify(error)}`);
        if (index >= 3) api.push(performance.now() - started);
      }
      // The same statement as the API ran it, timed alone in the caller's transaction.
      const statement = lastStatementOf(name);
      const inDatabase: number[] = [];
      for (let index = 0; index < 20; index += 1) {
        inDatabase.push(
          await withRequestContext(database.db, context, async (tx) => {
            const started = performance.now();
            await tx.query(statement.sql, statement.params);
            return performance.now() - started;
          }),
        );
      }
      return {
        label,
        api_p50: Number(percentile(api, 50).toFixed(1)),
        api_p95: Number(percentile(api, 95).toFixed(1)),
        db_p50: Number(percentile(inDatabase, 50).toFixed(1)),
        db_p95: Number(percentile(inDatabase, 95).toFixed(1)),
      };
    };
    const kpi =
      (from: string, filters: Filters = {}) =>
      () =>
        big.client.rpc('call_kpis', args(from, BIG_TO, filters, big.workspaceId));
    const trend = (from: string) => () =>
      big.client.rpc('call_trends', {
        ...args(from, BIG_TO, {}, big.workspaceId),
        p_time_zone: 'Europe/Paris',
      });
    const results = [
      await measure('KPIs, 30 days (and 30 before)', 'call_kpis', kpi(LAST_30_FROM)),
      await measure('KPIs, 90 days (and 90 before)', 'call_kpis', kpi(BIG_FROM)),
      await measure('KPIs, 90 days, search', 'call_kpis', kpi(BIG_FROM, { q: 'refund' })),
      await measure('trends, 30 days', 'call_trends', trend(LAST_30_FROM)),
      await measure('trends, 90 days', 'call_trends', trend(BIG_FROM)),
      await measure('page of 50, 30 days', 'filtered_calls', () => firstPage(LAST_30_FROM)),
      await measure('page of 50, 90 days', 'filtered_calls', () => firstPage(BIG_FROM)),
      await measure('page of 50, 90 days, outcome', 'filtered_calls', () =>
        firstPage(BIG_FROM, { outcome: ['escalated'] }),
      ),
      await measure('page of 50, 90 days, search', 'filtered_calls', () =>
        firstPage(BIG_FROM, { q: 'refund' }),
      ),
    ];
    // For scale: how long this machine takes, now, to count the 10,000 rows in plain SQL.
    const reference: number[] = [];
    for (let index = 0; index < 20; index += 1) {
      const started = performance.now();
      await database.db.query(`select count(*) from public.calls where workspace_id = $1`, [
        big.workspaceId,
      ]);
      reference.push(performance.now() - started);
    }
    results.push({
      label: 'reference: count(*) of the 10,000 rows, plain SQL',
      api_p50: Number.NaN,
      api_p95: Number.NaN,
      db_p50: Number(percentile(reference, 50).toFixed(1)),
      db_p95: Number(percentile(reference, 95).toFixed(1)),
    });
    console.info(`[analytics] ${server.db.kind}, 10,000 calls, milliseconds:`);
    console.table(results);
    expect(results.every((result) => result.db_p50 > 0)).toBe(true);
  }, 180_000);
});
