import { useState } from 'react';
import { QueryError } from '@/components/data/query-error';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { showToast } from '@/components/ui/toaster';
import { useMemberChanges, useTeamMembers } from '../api/team-members';
import { teamErrorMessage } from '../api/team-error';
import {
  assignableRoles,
  canManage,
  formatDay,
  ROLE_LABELS,
  roleSchema,
  roleWithArticle,
  type Role,
  type TeamMember,
} from '../model/team';

/** Everyone in the workspace; owners and admins change roles and remove people. */
export function MembersList({
  workspaceId,
  viewerRole,
}: {
  workspaceId: string;
  viewerRole: Role;
}) {
  const members = useTeamMembers(workspaceId);
  if (members.isPending) {
    return (
      <div className="grid gap-3">
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  }
  if (members.isError) {
    return (
      <QueryError
        what="your team"
        onRetry={() => void members.refetch()}
        isRetrying={members.isFetching}
      />
    );
  }
  const owners = members.data.filter((member) => member.role === 'owner').length;
  return (
    <ul className="grid gap-3" aria-label="Members">
      {members.data.map((member) => (
        <MemberRow
          key={member.user_id}
          member={member}
          workspaceId={workspaceId}
          viewerRole={viewerRole}
          isOnlyOwner={member.role === 'owner' && owners === 1}
        />
      ))}
    </ul>
  );
}

function displayName(member: TeamMember): string {
  return member.full_name ?? member.email ?? 'A teammate';
}

function MemberRow({
  member,
  workspaceId,
  viewerRole,
  isOnlyOwner,
}: {
  member: TeamMember;
  workspaceId: string;
  viewerRole: Role;
  /** A workspace always keeps an owner: the only one's role is not offered for change. */
  isOnlyOwner: boolean;
}) {
  const { changeRole, remove } = useMemberChanges(workspaceId);
  const [error, setError] = useState<string | null>(null);
  const name = displayName(member);
  const mayChange = canManage(viewerRole, member.role) && !isOnlyOwner;
  const roleId = `member-${member.user_id}-role`;
  const errorId = `member-${member.user_id}-error`;

  const handleRoleChange = async (role: Role) => {
    setError(null);
    try {
      await changeRole.mutateAsync({ userId: member.user_id, role });
      void showToast(
        'success',
        `${member.is_me ? 'You are' : `${name} is`} now ${roleWithArticle(role)}.`,
      );
    } catch (caught) {
      setError(teamErrorMessage(caught));
    }
  };
  const handleRemove = async () => {
    setError(null);
    try {
      await remove.mutateAsync(member.user_id);
      void showToast('success', `${name} no longer has access to this workspace.`);
    } catch (caught) {
      setError(teamErrorMessage(caught));
      throw caught;
    }
  };

  return (
    <li
      className="grid gap-3 rounded-xl border border-sand-200 p-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center"
      aria-label={name}
    >
      <div className="min-w-0">
        <p className="font-semibold break-words text-ink-900">
          {name}
          {member.is_me ? (
            <span className="ml-2 text-sm font-medium text-ink-600">(you)</span>
          ) : null}
        </p>
        {member.email && member.full_name ? (
          <p className="text-sm break-words text-ink-700">{member.email}</p>
        ) : null}
        <p className="text-sm text-ink-600">Joined {formatDay(member.joined_at)}</p>
        {isOnlyOwner && canManage(viewerRole, member.role) ? (
          <p className="text-sm text-ink-600">
            The only owner: make someone else an owner before changing this role.
          </p>
        ) : null}
        {error ? (
          <p id={errorId} role="alert" className="mt-2 text-sm font-medium text-danger-700">
            {error}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {mayChange ? (
          <>
            <label htmlFor={roleId} className="sr-only">
              Role of {name}
            </label>
            <Select
              id={roleId}
              className="w-36"
              value={member.role}
              disabled={changeRole.isPending}
              aria-describedby={error ? errorId : undefined}
              onChange={(event) => void handleRoleChange(roleSchema.parse(event.target.value))}
            >
              {assignableRoles(viewerRole).map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </Select>
          </>
        ) : (
          <span className="rounded-full bg-sand-100 px-3 py-1 text-sm font-medium text-ink-800">
            {ROLE_LABELS[member.role]}
          </span>
        )}
        {mayChange && !member.is_me ? (
          <ConfirmDialog
            trigger={<Button variant="secondary">Remove</Button>}
            title={`Remove ${name}?`}
            description={
              <p>
                {name} loses access to this workspace’s calls, recordings and live updates at once.
                You can invite them again later.
              </p>
            }
            confirmLabel="Remove from workspace"
            busyLabel="Removing..."
            onConfirm={handleRemove}
          />
        ) : null}
      </div>
    </li>
  );
}
