import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';

/** The time zones people choose from (Area/City and UTC), as the database knows them. */
export const timeZoneNamesQuery = () =>
  queryOptions({
    queryKey: ['time-zone-names'],
    queryFn: async (): Promise<string[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('time_zone_names');
      if (error) throw error;
      return z.array(z.string()).parse(data);
    },
    staleTime: Infinity,
  });

/** Renames the workspace and sets its time zone (owners and admins; the database checks both). */
export async function updateWorkspace(
  workspaceId: string,
  values: { name: string; timeZone: string },
): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('update_workspace', {
    p_workspace_id: workspaceId,
    p_name: values.name,
    p_time_zone: values.timeZone,
  });
  if (error) throw error;
}
