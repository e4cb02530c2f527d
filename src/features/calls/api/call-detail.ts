import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { DIRECTIONS, OUTCOMES, SENTIMENTS } from '../model/filters';

export const transcriptSegmentSchema = z.object({
  speaker: z.enum(['agent', 'caller']),
  start_ms: z.number().int().nonnegative(),
  end_ms: z.number().int().nonnegative(),
  text: z.string(),
});

export type TranscriptSegment = z.infer<typeof transcriptSegmentSchema>;

/**
 * The segments in the order they were spoken. The database checks what it
 * ingests; a segment that still does not fit is left out rather than failing
 * the whole page.
 */
const transcriptSchema = z.array(z.unknown()).transform((items) =>
  items
    .flatMap((item) => {
      const segment = transcriptSegmentSchema.safeParse(item);
      return segment.success ? [segment.data] : [];
    })
    .sort((a, b) => a.start_ms - b.start_ms),
);

export const callDetailSchema = z.object({
  id: z.string(),
  workspace_id: z.string(),
  provider_call_id: z.string(),
  direction: z.enum(DIRECTIONS),
  from_number: z.string(),
  to_number: z.string(),
  started_at: z.string(),
  duration_seconds: z.number(),
  outcome: z.enum(OUTCOMES),
  sentiment: z.enum(SENTIMENTS).nullable(),
  summary: z.string().nullable(),
  extracted: z.record(z.string(), z.unknown()),
  transcript: transcriptSchema,
  recording_path: z.string().nullable(),
  is_sample: z.boolean(),
  agent: z.object({ name: z.string() }).nullable(),
});

export type CallDetail = z.infer<typeof callDetailSchema>;

const COLUMNS =
  'id, workspace_id, provider_call_id, direction, from_number, to_number, started_at, ' +
  'duration_seconds, outcome, sentiment, summary, extracted, transcript, recording_path, ' +
  'is_sample, agent:agents(name)';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One call, or null when it does not exist or belongs to another workspace
 * (row-level security shows members their own workspace's calls only, so the
 * two look alike, as they should).
 */
export async function findCall(callId: string): Promise<CallDetail | null> {
  if (!UUID.test(callId)) return null;
  const supabase = await getSupabase();
  const { data, error } = await supabase
    .from('calls')
    .select(COLUMNS)
    .eq('id', callId)
    .maybeSingle();
  if (error) throw error;
  return data === null ? null : callDetailSchema.parse(data);
}

export const callDetailQuery = (callId: string) =>
  queryOptions({
    queryKey: ['call-detail', callId],
    queryFn: () => findCall(callId),
  });
