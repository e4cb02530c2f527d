import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { showToast } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth/use-auth';
import type { Workspace } from '@/lib/workspace/workspace';
import { useMemberChanges, useTeamMembers } from '../api/team-members';
import { teamErrorMessage } from '../api/team-error';

/** Anyone may leave; the last owner is told to make someone else an owner first. */
export function LeaveWorkspace({ workspace }: { workspace: Workspace }) {
  const userId = useAuth().user?.id ?? '';
  const { remove } = useMemberChanges(workspace.id);
  const members = useTeamMembers(workspace.id);
  const isOnlyOwner =
    workspace.role === 'owner' &&
    (members.data ?? []).filter((member) => member.role === 'owner').length === 1;
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);

  const handleLeave = async () => {
    setError(null);
    try {
      await remove.mutateAsync(userId);
      void showToast('success', `You left ${workspace.name}.`);
      void navigate(paths.dashboard);
    } catch (caught) {
      setError(teamErrorMessage(caught));
      throw caught;
    }
  };

  if (isOnlyOwner) {
    return (
      <p className="text-sm text-ink-600">
        You are the only owner of {workspace.name}. To leave it, make someone else an owner first.
      </p>
    );
  }

  return (
    <div className="grid gap-2">
      <div>
        <ConfirmDialog
          trigger={<Button variant="secondary">Leave workspace</Button>}
          title={`Leave ${workspace.name}?`}
          description={
            <p>
              You will no longer see its calls and recordings. To come back, someone on the team has
              to invite you again.
            </p>
          }
          confirmLabel="Leave workspace"
          busyLabel="Leaving..."
          onConfirm={handleLeave}
        />
      </div>
      {error ? (
        <p role="alert" className="text-sm font-medium text-danger-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
