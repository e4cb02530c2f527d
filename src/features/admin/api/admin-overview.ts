import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { adminOverviewSchema, type AdminOverview } from '../model/overview';

export interface AdminOverviewArgs {
  p_from: string;
  p_to: string;
}

/** The counts of the period and of the period of the same length before it. */
export async function getAdminOverview(args: AdminOverviewArgs): Promise<AdminOverview> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('admin_overview', args);
  if (error) throw error;
  return adminOverviewSchema.parse(data);
}

export const adminKeys = {
  overview: (args: AdminOverviewArgs) => ['admin', 'overview', args] as const,
};

/** While another period loads, the last figures stay (dimmed by the caller). */
export function useAdminOverview(args: AdminOverviewArgs) {
  return useQuery({
    queryKey: adminKeys.overview(args),
    queryFn: () => getAdminOverview(args),
    placeholderData: keepPreviousData,
  });
}
