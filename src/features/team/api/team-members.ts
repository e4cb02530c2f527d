import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useAuth } from '@/lib/auth/use-auth';
import { workspaceQuery } from '@/lib/workspace/workspace';
import { getSupabase } from '@/lib/supabase';
import { teamMemberSchema, type Role, type TeamMember } from '../model/team';
import { teamKeys } from './query-keys';
import { TeamError, throwTeamError } from './team-error';

/** The workspace's members with names, emails, roles and since when (members only). */
export async function listTeamMembers(workspaceId: string): Promise<TeamMember[]> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('workspace_team', { p_workspace_id: workspaceId });
  if (error) throw error;
  return z.array(teamMemberSchema).parse(data);
}

export const teamMembersQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: teamKeys.members(workspaceId),
    queryFn: () => listTeamMembers(workspaceId),
  });

export function useTeamMembers(workspaceId: string) {
  return useQuery(teamMembersQuery(workspaceId));
}

/**
 * Row-level security answers a change it does not allow with no rows (or 42501
 * when the new role itself is not allowed); the last-owner trigger with its
 * own sentence. Each becomes a sentence here.
 */
function refusedChange(error: { code?: string; message: string } | null, fallback: string): never {
  if (error?.code === '42501')
    throw new TeamError('Only an owner can make someone an owner.', '42501');
  if (error) throwTeamError(error);
  throw new TeamError(fallback, '42501');
}

export async function changeMemberRole(
  workspaceId: string,
  userId: string,
  role: Role,
): Promise<void> {
  const supabase = await getSupabase();
  const { data, error } = await supabase
    .from('workspace_members')
    .update({ role })
    .eq('workspace_id', workspaceId)
    .eq('user_id', userId)
    .select('role');
  if (error || !data?.length) {
    refusedChange(error, 'You cannot change this person’s role: only owners change owners.');
  }
}

export async function removeMember(workspaceId: string, userId: string): Promise<void> {
  const supabase = await getSupabase();
  const { data, error } = await supabase
    .from('workspace_members')
    .delete()
    .eq('workspace_id', workspaceId)
    .eq('user_id', userId)
    .select('user_id');
  if (error || !data?.length) {
    refusedChange(error, 'You cannot remove this person: only owners remove owners.');
  }
}

/** Role changes and removals: the team reloads either way (someone else may have changed it). */
export function useMemberChanges(workspaceId: string) {
  const queryClient = useQueryClient();
  const userId = useAuth().user?.id ?? '';
  const settle = async (affectsMe: boolean) => {
    await queryClient.invalidateQueries({ queryKey: teamKeys.workspace(workspaceId) });
    // My own role or membership changed: every page's idea of my workspace too.
    if (affectsMe)
      await queryClient.invalidateQueries({ queryKey: workspaceQuery(userId).queryKey });
  };
  const changeRole = useMutation({
    mutationFn: (change: { userId: string; role: Role }) =>
      changeMemberRole(workspaceId, change.userId, change.role),
    onSettled: (_data, _error, change) => settle(change.userId === userId),
  });
  const remove = useMutation({
    mutationFn: (memberId: string) => removeMember(workspaceId, memberId),
    onSettled: (_data, _error, memberId) => settle(memberId === userId),
  });
  return { changeRole, remove };
}
