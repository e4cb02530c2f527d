import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { callsKeys } from './query-keys';

/** Deletes the workspace's sample calls (owners only); how many went. */
export async function clearSampleCalls(workspaceId: string): Promise<number> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('clear_sample_calls', { p_workspace_id: workspaceId });
  if (error) throw error;
  return typeof data === 'number' ? data : 0;
}

export function useClearSampleCalls(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => clearSampleCalls(workspaceId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: callsKeys.workspace(workspaceId) }),
  });
}
