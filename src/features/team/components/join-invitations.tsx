import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { showToast } from '@/components/ui/toaster';
import { useAuth } from '@/lib/auth/use-auth';
import { useAnswerInvitation, useMyInvitations } from '../api/my-invitations';
import { teamErrorMessage } from '../api/team-error';
import { formatDay, roleWithArticle, type MyInvitation } from '../model/team';

/**
 * Invitations waiting for the signed-in user ("Join Acme as a member"), the
 * one from the email's link (?invitation=) first. Shown above the team page's
 * workspace, so someone without a workspace yet sees it too.
 */
export function JoinInvitations() {
  const [searchParams, setSearchParams] = useSearchParams();
  const linked = searchParams.get('invitation');
  const invitations = useMyInvitations();
  const email = useAuth().user?.email;

  if (!invitations.isSuccess) return null;
  const sorted = [...invitations.data].sort(
    (a, b) => Number(b.id === linked) - Number(a.id === linked),
  );
  const isLinkedMissing = linked !== null && !invitations.data.some(({ id }) => id === linked);
  const forgetLink = () =>
    setSearchParams(
      (params) => {
        params.delete('invitation');
        return params;
      },
      { replace: true },
    );

  if (sorted.length === 0 && !isLinkedMissing) return null;
  return (
    <div className="mb-8 grid gap-4">
      {isLinkedMissing ? (
        <Alert tone="info" title="This invitation is not open for this account">
          It was already accepted, withdrawn or declined, it has expired, or it was sent to another
          address than {email ?? 'the one you signed in with'}. Ask the person who invited you for a
          new one if you still need access.
        </Alert>
      ) : null}
      {sorted.map((invitation) => (
        <InvitationCard key={invitation.id} invitation={invitation} onAnswered={forgetLink} />
      ))}
    </div>
  );
}

function InvitationCard({
  invitation,
  onAnswered,
}: {
  invitation: MyInvitation;
  onAnswered: () => void;
}) {
  const { accept, decline } = useAnswerInvitation();
  const [error, setError] = useState<string | null>(null);
  const headingId = `join-${invitation.id}`;
  const isBusy = accept.isPending || decline.isPending;

  const answer = async (kind: 'accept' | 'decline') => {
    setError(null);
    try {
      if (kind === 'accept') {
        await accept.mutateAsync(invitation.id);
        void showToast('success', `You joined ${invitation.workspace_name}.`);
      } else {
        await decline.mutateAsync(invitation.id);
        void showToast('success', `You declined the invitation to ${invitation.workspace_name}.`);
      }
      onAnswered();
    } catch (caught) {
      setError(teamErrorMessage(caught));
    }
  };

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-azure-100 bg-azure-50 p-6"
    >
      <h2 id={headingId} className="text-lg font-semibold text-ink-900">
        Join {invitation.workspace_name} as {roleWithArticle(invitation.role)}
      </h2>
      <p className="mt-1 text-sm text-ink-700">
        {invitation.invited_by_name ?? 'A teammate'} invited you. As{' '}
        {roleWithArticle(invitation.role)} you will see the workspace’s calls and recordings. The
        invitation is good until {formatDay(invitation.expires_at)}.
      </p>
      {error ? (
        <p role="alert" className="mt-3 text-sm font-medium text-danger-700">
          {error}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-3">
        <Button
          onClick={() => void answer('accept')}
          disabled={isBusy}
          aria-busy={accept.isPending || undefined}
        >
          {accept.isPending ? 'Joining...' : 'Accept invitation'}
        </Button>
        <Button variant="secondary" onClick={() => void answer('decline')} disabled={isBusy}>
          {decline.isPending ? 'Declining...' : 'Decline'}
        </Button>
      </div>
    </section>
  );
}
