import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { callsKeys } from './query-keys';

export const sampleStateSchema = z.object({
  /** Sample calls the workspace still shows (0 once cleared, or for a real one). */
  sample_calls: z.number().int().nonnegative(),
  cleared_at: z.string().nullable(),
  /** Whether the signed-in user may clear them (owners). */
  can_clear: z.boolean(),
});
export type SampleState = z.infer<typeof sampleStateSchema>;

/** What the sample-data banner needs, in one call. */
export async function getSampleState(workspaceId: string): Promise<SampleState> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('workspace_sample_state', {
    p_workspace_id: workspaceId,
  });
  if (error) throw error;
  return sampleStateSchema.parse(data);
}

export const sampleStateQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: callsKeys.samples(workspaceId),
    queryFn: () => getSampleState(workspaceId),
  });

export function useSampleState(workspaceId: string) {
  return useQuery(sampleStateQuery(workspaceId));
}
