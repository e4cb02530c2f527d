import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { pendingInvitationSchema, type InviteValues, type PendingInvitation } from '../model/team';
import { teamKeys } from './query-keys';
import { TeamError, throwTeamError } from './team-error';

/** The workspace's open invitations, expired ones included (owners and admins see them). */
export async function listPendingInvitations(workspaceId: string): Promise<PendingInvitation[]> {
  const supabase = await getSupabase();
  const { data, error } = await supabase
    .from('workspace_invitations')
    .select('id, email, role, created_at, expires_at, last_sent_at, inviter:profiles(full_name)')
    .eq('workspace_id', workspaceId)
    .is('accepted_at', null)
    .is('declined_at', null)
    .is('revoked_at', null)
    .order('created_at', { ascending: false });
  if (error) throw error;
  return z.array(pendingInvitationSchema).parse(data);
}

export const pendingInvitationsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: teamKeys.invitations(workspaceId),
    queryFn: () => listPendingInvitations(workspaceId),
  });

export function usePendingInvitations(workspaceId: string, isEnabled: boolean) {
  return useQuery({ ...pendingInvitationsQuery(workspaceId), enabled: isEnabled });
}

const functionAnswerSchema = z.object({
  error: z.string().optional(),
  field: z.string().optional(),
  message: z.string().optional(),
});

/**
 * Calls the team-invite edge function (it checks the caller's role in SQL and
 * sends the email). Its refusals carry a sentence and, for one field, its name.
 */
async function callTeamInvite(body: Record<string, string>): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.functions.invoke('team-invite', { body });
  if (!error) return;
  const context = (error as { context?: unknown }).context;
  if (context instanceof Response) {
    const answer = functionAnswerSchema.safeParse(await context.json().catch(() => null));
    if (answer.success && answer.data.message) {
      throw new TeamError(
        answer.data.message,
        answer.data.error === 'invalid_field' ? '22023' : `PT${context.status}`,
        answer.data.field ?? null,
      );
    }
  }
  throw error;
}

export function inviteTeammate(workspaceId: string, values: InviteValues): Promise<void> {
  return callTeamInvite({ workspace_id: workspaceId, email: values.email, role: values.role });
}

export function resendInvitation(invitationId: string): Promise<void> {
  return callTeamInvite({ action: 'resend', invitation_id: invitationId });
}

export async function revokeInvitation(invitationId: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('revoke_workspace_invitation', {
    p_invitation_id: invitationId,
  });
  if (error) throwTeamError(error);
}

export function useInvitationChanges(workspaceId: string) {
  const queryClient = useQueryClient();
  const onSettled = () =>
    queryClient.invalidateQueries({ queryKey: teamKeys.invitations(workspaceId) });
  return {
    invite: useMutation({
      mutationFn: (values: InviteValues) => inviteTeammate(workspaceId, values),
      onSettled,
    }),
    resend: useMutation({ mutationFn: resendInvitation, onSettled }),
    revoke: useMutation({ mutationFn: revokeInvitation, onSettled }),
  };
}
