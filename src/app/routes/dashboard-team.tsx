import { WorkspaceGate } from '@/components/data/workspace-gate';
import { PortalPage } from '@/components/layout/portal-page';
import { JoinInvitations } from '@/features/team/components/join-invitations';
import { TeamSettings } from '@/features/team/components/team-settings';
import { WorkspaceDetails } from '@/features/team/components/workspace-details';
import { useWorkspace } from '@/lib/workspace/workspace';

export default function DashboardTeamPage() {
  const workspace = useWorkspace();
  return (
    <PortalPage
      eyebrow="Workspace"
      title="Team and workspace"
      description={
        <p>Who in your team can see your calls, and your workspace’s name and time zone.</p>
      }
    >
      <JoinInvitations />
      <WorkspaceGate workspace={workspace}>
        {(current) => (
          <div className="grid gap-8">
            <WorkspaceDetails workspace={current} />
            <TeamSettings workspace={current} />
          </div>
        )}
      </WorkspaceGate>
    </PortalPage>
  );
}
