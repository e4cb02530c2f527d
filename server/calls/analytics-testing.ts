import type { SupabaseClient } from '@supabase/supabase-js';
import type {
  Database,
  PipelinedStatement,
  QueryResult,
  Queryable,
  Transaction,
} from '../db/database';
import { withRequestContext } from '../db/request-context';

/**
 * Shared by the dashboard analytics' integration tests (analytics.int.test.ts):
 * realistic calls made from a seed, inserted with the service role, and a
 * database that remembers the data API's statements so that a test can
 * EXPLAIN ANALYZE exactly what the API ran, as the caller's role.
 */

export const OUTCOMES = ['resolved', 'escalated', 'voicemail', 'missed'] as const;
export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;

export interface CallRow {
  id: string;
  workspace_id: string;
  provider_call_id: string;
  direction: 'inbound' | 'outbound';
  from_number: string;
  to_number: string;
  started_at: string;
  duration_seconds: number;
  outcome: (typeof OUTCOMES)[number];
  sentiment: (typeof SENTIMENTS)[number] | null;
  summary: string | null;
  transcript: { speaker: 'agent' | 'caller'; start_ms: number; end_ms: number; text: string }[];
  extracted: Record<string, unknown>;
  is_sample: boolean;
}

/** A small deterministic PRNG (mulberry32): the same seed, the same calls. */
export function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What callers call about: the summary names the topic, the transcript uses its words. */
export const TOPICS = [
  {
    summary: 'Caller asked for a refund of a duplicate invoice charge.',
    caller: 'I was charged twice on my last invoice and I would like a refund.',
    agent: 'I can see the duplicate charge; the refund will reach your card in five days.',
  },
  {
    summary: 'Password reset for the admin account.',
    caller: 'I am locked out and need to reset my password.',
    agent: 'I have sent a reset link to the email address on file.',
  },
  {
    summary: 'Shipment delayed at the warehouse; customer wants a delivery date.',
    caller: 'My parcel has not arrived and the tracking page has not moved for a week.',
    agent: 'The warehouse confirms it ships tomorrow with express delivery.',
  },
  {
    summary: 'Customer wants to cancel the subscription before renewal.',
    caller: 'Please cancel my subscription before it renews next month.',
    agent: 'A customer success manager will call you back about the cancellation.',
  },
  {
    summary: 'Upgrade to the enterprise plan with single sign-on.',
    caller: 'We want to upgrade our plan and add single sign-on for forty seats.',
    agent: 'I have noted forty seats; sales will send the enterprise quote today.',
  },
  {
    summary: null,
    caller: 'Hello? Is anybody there? I will try again later.',
    agent: 'Sorry, nobody can take your call right now. Please leave a message.',
  },
] as const;

export interface MakeCallsOptions {
  workspaceId: string;
  count: number;
  /** Calls start in [from, to). */
  from: Date;
  to: Date;
  seed: number;
  /** A few numbers calls come from, so that the number filter finds several. */
  numbers?: string[];
  /** Prefix of provider_call_id (unique per workspace). */
  prefix?: string;
}

export function makeCalls(options: MakeCallsOptions): CallRow[] {
  const random = randomFrom(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const numbers = options.numbers ?? ['+14155550101', '+14155550102', '+442071838750'];
  const ours = '+18005550199';
  const span = options.to.getTime() - options.from.getTime();
  const calls: CallRow[] = [];
  for (let index = 0; index < options.count; index += 1) {
    const outcome = pick(OUTCOMES);
    const topic =
      outcome === 'missed' || outcome === 'voicemail' ? TOPICS[5] : pick(TOPICS.slice(0, 5));
    const direction = random() < 0.8 ? 'inbound' : 'outbound';
    const other =
      random() < 0.5 ? pick(numbers) : `+1415555${String(1000 + Math.floor(random() * 8999))}`;
    const duration = outcome === 'missed' ? 0 : 20 + Math.floor(random() * 600);
    // Whole seconds, some calls sharing one instant (keyset ties).
    const started = options.from.getTime() + Math.floor((random() * span) / 1000) * 1000;
    const transcript =
      outcome === 'missed'
        ? []
        : [
            {
              speaker: 'agent' as const,
              start_ms: 0,
              end_ms: 2500,
              text: 'Thanks for calling, how can I help?',
            },
            { speaker: 'caller' as const, start_ms: 2600, end_ms: 9000, text: topic.caller },
            { speaker: 'agent' as const, start_ms: 9100, end_ms: 16000, text: topic.agent },
          ];
    calls.push({
      id: uuidFrom(random),
      workspace_id: options.workspaceId,
      provider_call_id: `${options.prefix ?? 'call'}-${options.seed}-${index}`,
      direction,
      from_number: direction === 'inbound' ? other : ours,
      to_number: direction === 'inbound' ? ours : other,
      started_at: new Date(Math.min(started, options.to.getTime() - 1000)).toISOString(),
      duration_seconds: duration,
      outcome,
      sentiment: outcome === 'missed' ? null : random() < 0.1 ? null : pick(SENTIMENTS),
      summary: outcome === 'missed' ? null : topic.summary,
      transcript,
      extracted: outcome === 'resolved' ? { topic: topic.summary ?? 'none' } : {},
      is_sample: false,
    });
  }
  return calls;
}

function uuidFrom(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[Math.floor(random() * 4)]!;
  const text = hex.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

/** Inserts calls through the data API as the service role, in batches. */
export async function insertCalls(service: SupabaseClient, calls: CallRow[]): Promise<void> {
  for (let start = 0; start < calls.length; start += 1000) {
    const { error } = await service.from('calls').insert(calls.slice(start, start + 1000));
    if (error) throw new Error(`inserting calls: ${error.message}`);
  }
}

export interface RecordedStatement {
  sql: string;
  params: unknown[];
}

/**
 * The test database with a memory of the last statements run in transactions
 * and pipelines (what the data API sends), to replay one under EXPLAIN.
 */
export function recordingDatabase(db: Database): {
  db: Database;
  statements: RecordedStatement[];
} {
  const statements: RecordedStatement[] = [];
  const remember = (statement: RecordedStatement) => {
    statements.push(statement);
    if (statements.length > 200) statements.splice(0, statements.length - 100);
  };
  const recording = (tx: Queryable): Transaction => ({
    query: <Row>(sql: string, params?: unknown[]): Promise<QueryResult<Row>> => {
      remember({ sql, params: params ?? [] });
      return tx.query<Row>(sql, params);
    },
    exec: (sql: string) => tx.exec(sql),
  });
  const wrapped: Database = {
    get kind() {
      return db.kind;
    },
    get statementTimeoutMs() {
      return db.statementTimeoutMs;
    },
    query: (sql, params) => db.query(sql, params),
    exec: (sql) => db.exec(sql),
    transaction: (work) => db.transaction((tx) => work(recording(tx))),
    pipeline: (list: readonly PipelinedStatement[]) => {
      for (const statement of list) remember({ sql: statement.sql, params: [...statement.params] });
      return db.pipeline(list);
    },
    listen: (channel, onNotify, options) => db.listen(channel, onNotify, options),
    close: () => db.close(),
  };
  return { db: wrapped, statements };
}

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Function Name'?: string;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

export interface ExplainedPlan {
  plan: PlanNode;
  executionMs: number;
  planningMs: number;
}

/** EXPLAIN ANALYZE of a statement as an API role with the given claims, in its own transaction. */
export async function explainAs(
  db: Database,
  claims: Record<string, unknown> & { role: 'anon' | 'authenticated' | 'service_role' },
  statement: RecordedStatement,
): Promise<ExplainedPlan> {
  return withRequestContext(
    db,
    {
      role: claims.role,
      claims,
      method: 'POST',
      path: '/rest/v1/rpc',
      headers: {},
      readOnly: true,
    },
    async (tx) => {
      const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(
        `explain (analyze, format json) ${statement.sql}`,
        statement.params,
      );
      const raw = rows[0]!['QUERY PLAN'];
      const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as {
        Plan: PlanNode;
        'Execution Time': number;
        'Planning Time': number;
      }[];
      return {
        plan: parsed[0]!.Plan,
        executionMs: parsed[0]!['Execution Time'],
        planningMs: parsed[0]!['Planning Time'],
      };
    },
  );
}

/** Every node of a plan, depth first. */
export function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

/** A plan as indented text, for a failure message or a report. */
export function planText(node: PlanNode, depth = 0): string {
  const label = [
    node['Node Type'],
    node['Index Name'] ? `using ${node['Index Name']}` : '',
    node['Relation Name'] ? `on ${node['Relation Name']}` : '',
    node['Function Name'] ? `of ${node['Function Name']}` : '',
    `rows=${String(node['Actual Rows'] ?? '?')}`,
    `time=${String(node['Actual Total Time'] ?? '?')}`,
  ]
    .filter(Boolean)
    .join(' ');
  return [
    `${'  '.repeat(depth)}${label}`,
    ...(node.Plans ?? []).map((child) => planText(child, depth + 1)),
  ].join('\n');
}

/** The p-th percentile (0–100) of some durations, nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}
