import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { teamKeys } from './query-keys';
import { throwTeamError } from './team-error';

/** One member's grant to one app (the OAuth server's), as the workspace's owners see it. */
const connectedAppSchema = z.object({
  client_id: z.string(),
  client_name: z.string().nullable(),
  client_uri: z.string().nullable(),
  user_id: z.string(),
  full_name: z.string().nullable(),
  email: z.string().nullable(),
  scopes: z.array(z.string()),
  granted_at: z.string(),
  is_me: z.boolean(),
});
export type ConnectedApp = z.infer<typeof connectedAppSchema>;

/** Every app a member of the workspace allowed, newest first (owners only). */
export async function listWorkspaceApps(workspaceId: string): Promise<ConnectedApp[]> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('workspace_connected_apps', {
    p_workspace_id: workspaceId,
  });
  if (error) throwTeamError(error);
  return z.array(connectedAppSchema).parse(data);
}

export function useWorkspaceApps(workspaceId: string) {
  return useQuery({
    queryKey: teamKeys.connectedApps(workspaceId),
    queryFn: () => listWorkspaceApps(workspaceId),
    staleTime: 0,
  });
}

/** Ends one member's grant: the app's sessions for them end at once. */
export function useRevokeWorkspaceApp(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (app: Pick<ConnectedApp, 'client_id' | 'user_id'>) => {
      const supabase = await getSupabase();
      const { error } = await supabase.rpc('revoke_workspace_app', {
        p_workspace_id: workspaceId,
        p_client_id: app.client_id,
        p_user_id: app.user_id,
      });
      if (error) throwTeamError(error);
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: teamKeys.connectedApps(workspaceId) }),
  });
}
