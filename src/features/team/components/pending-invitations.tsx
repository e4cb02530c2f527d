import { useState } from 'react';
import { QueryError } from '@/components/data/query-error';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { showToast } from '@/components/ui/toaster';
import { useInvitationChanges, usePendingInvitations } from '../api/invitations';
import { teamErrorMessage } from '../api/team-error';
import {
  canManage,
  formatDay,
  isExpired,
  ROLE_LABELS,
  type PendingInvitation,
  type Role,
} from '../model/team';

/** Invitations nobody has answered yet, with resend and revoke. */
export function PendingInvitations({
  workspaceId,
  viewerRole,
}: {
  workspaceId: string;
  viewerRole: Role;
}) {
  const invitations = usePendingInvitations(workspaceId, true);
  if (invitations.isPending) return <Skeleton className="h-16 w-full" />;
  if (invitations.isError) {
    return (
      <QueryError
        what="the pending invitations"
        onRetry={() => void invitations.refetch()}
        isRetrying={invitations.isFetching}
      />
    );
  }
  if (invitations.data.length === 0) {
    return <p className="text-sm text-ink-600">No pending invitations.</p>;
  }
  return (
    <ul className="grid gap-3" aria-label="Pending invitations">
      {invitations.data.map((invitation) => (
        <InvitationRow
          key={invitation.id}
          invitation={invitation}
          workspaceId={workspaceId}
          canChange={canManage(viewerRole, invitation.role)}
        />
      ))}
    </ul>
  );
}

function InvitationRow({
  invitation,
  workspaceId,
  canChange,
}: {
  invitation: PendingInvitation;
  workspaceId: string;
  canChange: boolean;
}) {
  const { resend, revoke } = useInvitationChanges(workspaceId);
  const [error, setError] = useState<string | null>(null);
  const expired = isExpired(invitation.expires_at);
  const errorId = `invitation-${invitation.id}-error`;

  const handleResend = async () => {
    setError(null);
    try {
      await resend.mutateAsync(invitation.id);
      void showToast('success', `Invitation sent again to ${invitation.email}.`);
    } catch (caught) {
      setError(teamErrorMessage(caught));
    }
  };
  const handleRevoke = async () => {
    setError(null);
    try {
      await revoke.mutateAsync(invitation.id);
      void showToast('success', `The invitation to ${invitation.email} is withdrawn.`);
    } catch (caught) {
      setError(teamErrorMessage(caught));
      throw caught;
    }
  };

  return (
    <li
      className="grid gap-3 rounded-xl border border-sand-200 p-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center"
      aria-label={`Invitation to ${invitation.email}`}
    >
      <div className="min-w-0">
        <p className="font-semibold break-words text-ink-900">{invitation.email}</p>
        <p className="text-sm text-ink-600">
          {ROLE_LABELS[invitation.role]} · invited
          {invitation.inviter?.full_name ? ` by ${invitation.inviter.full_name}` : ''} on{' '}
          {formatDay(invitation.created_at)} ·{' '}
          {expired ? (
            <span className="font-medium text-danger-700">expired</span>
          ) : (
            `expires ${formatDay(invitation.expires_at)}`
          )}
        </p>
        {error ? (
          <p id={errorId} role="alert" className="mt-2 text-sm font-medium text-danger-700">
            {error}
          </p>
        ) : null}
      </div>
      {canChange ? (
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"

            onClick={() => void handleResend()}
            disabled={resend.isPending}
            aria-busy={resend.isPending || undefined}
            aria-describedby={error ? errorId : undefined}
          >
            {resend.isPending ? 'Sending...' : 'Resend'}
          </Button>
          <ConfirmDialog
            trigger={<Button variant="secondary">Revoke</Button>}
            title="Withdraw this invitation?"
            description={
              <p>
                The link sent to {invitation.email} will stop working. You can invite them again
                later.
              </p>
            }
            confirmLabel="Withdraw invitation"
            busyLabel="Withdrawing..."
            onConfirm={handleRevoke}
          />
        </div>
      ) : null}
    </li>
  );
}
