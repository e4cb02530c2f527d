import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useAuth } from '@/lib/auth/use-auth';
import { workspaceQuery } from '@/lib/workspace/workspace';
import { getSupabase } from '@/lib/supabase';
import { myInvitationSchema, type MyInvitation } from '../model/team';
import { teamKeys } from './query-keys';
import { throwTeamError } from './team-error';

/** Open invitations to the signed-in user's verified address, to workspaces they are not in. */
export async function listMyInvitations(): Promise<MyInvitation[]> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('my_workspace_invitations');
  if (error) throw error;
  return z.array(myInvitationSchema).parse(data);
}

export const myInvitationsQuery = (userId: string) =>
  queryOptions({ queryKey: teamKeys.mine(userId), queryFn: listMyInvitations });

export function useMyInvitations() {
  const userId = useAuth().user?.id ?? '';
  return useQuery({ ...myInvitationsQuery(userId), enabled: userId !== '' });
}

export async function acceptInvitation(invitationId: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('accept_workspace_invitation', {
    p_invitation_id: invitationId,
  });
  if (error) throwTeamError(error);
}

export async function declineInvitation(invitationId: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('decline_workspace_invitation', {
    p_invitation_id: invitationId,
  });
  if (error) throwTeamError(error);
}

/** Accepting changes which workspace the dashboard shows: the workspace query reloads. */
export function useAnswerInvitation() {
  const queryClient = useQueryClient();
  const userId = useAuth().user?.id ?? '';
  const onSettled = async () => {
    await queryClient.invalidateQueries({ queryKey: teamKeys.mine(userId) });
    await queryClient.invalidateQueries({ queryKey: workspaceQuery(userId).queryKey });
  };
  return {
    accept: useMutation({ mutationFn: acceptInvitation, onSettled }),
    decline: useMutation({ mutationFn: declineInvitation, onSettled }),
  };
}
