import { Card } from '@/components/ui/card';
import type { Workspace } from '@/lib/workspace/workspace';
import { ConnectedApps } from './connected-apps';
import { InviteForm } from './invite-form';
import { LeaveWorkspace } from './leave-workspace';
import { MembersList } from './members-list';
import { PendingInvitations } from './pending-invitations';

/** The team: invitations for owners and admins, the members for everyone, leaving, and (owners) connected apps. */
export function TeamSettings({ workspace }: { workspace: Workspace }) {
  const canInvite = workspace.role === 'owner' || workspace.role === 'admin';
  return (
    <div className="grid gap-8">
      {canInvite ? (
        <Card
          id="invite"
          title="Invite a teammate"
          description={
            <p>
              They get an email with a link to join {workspace.name}. Invitations are good for 7
              days.
            </p>
          }
        >
          <div className="grid gap-8">
            <InviteForm workspaceId={workspace.id} viewerRole={workspace.role} />
            <section aria-labelledby="pending-heading" className="grid gap-3">
              <h3 id="pending-heading" className="text-base font-semibold text-ink-900">
                Pending invitations
              </h3>
              <PendingInvitations workspaceId={workspace.id} viewerRole={workspace.role} />
            </section>
          </div>
        </Card>
      ) : null}
      <Card
        id="members"
        title="Members"
        description={
          canInvite ? (
            <p>Owners manage everyone; admins manage admins and members.</p>
          ) : (
            <p>Only owners and admins can invite people or change roles.</p>
          )
        }
      >
        <div className="grid gap-6">
          <MembersList workspaceId={workspace.id} viewerRole={workspace.role} />
          <LeaveWorkspace workspace={workspace} />
        </div>
      </Card>
      {workspace.role === 'owner' ? (
        <Card
          id="connected-apps"
          title="Connected apps"
          description={
            <p>
              Apps your teammates allowed to use their accounts. Each reads and changes this
              workspace&rsquo;s data as the person who allowed it, until someone removes it.
            </p>
          }
        >
          <ConnectedApps workspaceId={workspace.id} />
        </Card>
      ) : null}
    </div>
  );
}
