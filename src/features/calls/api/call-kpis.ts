import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import type { CallsQueryArgs } from '../model/filters';
import { callKpisSchema, type CallKpis } from '../model/kpis';
import { callsKeys } from './query-keys';

/** The KPIs of the period and filters, and of the period of the same length before. */
export async function getCallKpis(args: CallsQueryArgs): Promise<CallKpis> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('call_kpis', args);
  if (error) throw error;
  return callKpisSchema.parse(data);
}

export const callKpisQuery = (args: CallsQueryArgs) =>
  queryOptions({ queryKey: callsKeys.kpis(args), queryFn: () => getCallKpis(args) });

/** While new filters load, the figures of the last ones stay (dimmed by the caller). */
export function useCallKpis(args: CallsQueryArgs | null) {
  return useQuery({
    ...callKpisQuery(args ?? EMPTY_ARGS),
    enabled: args !== null,
    placeholderData: keepPreviousData,
  });
}

const EMPTY_ARGS: CallsQueryArgs = { p_workspace_id: '', p_from: '', p_to: '', p_filters: {} };
