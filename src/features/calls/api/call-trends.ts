import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import type { CallsQueryArgs } from '../model/filters';
import { trendDaysSchema, type TrendDay } from '../model/trends';
import { callsKeys } from './query-keys';

/** Calls per local day of the period by outcome, days without calls included. */
export async function listCallTrends(args: CallsQueryArgs, timeZone: string): Promise<TrendDay[]> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('call_trends', { ...args, p_time_zone: timeZone });
  if (error) throw error;
  return trendDaysSchema.parse(data);
}

export const callTrendsQuery = (args: CallsQueryArgs, timeZone: string) =>
  queryOptions({
    queryKey: callsKeys.trends(args, timeZone),
    queryFn: () => listCallTrends(args, timeZone),
  });

export function useCallTrends(args: CallsQueryArgs | null, timeZone: string) {
  return useQuery({
    ...callTrendsQuery(
      args ?? { p_workspace_id: '', p_from: '', p_to: '', p_filters: {} },
      timeZone,
    ),
    enabled: args !== null,
    placeholderData: keepPreviousData,
  });
}
