import { WorkspaceGate } from '@/components/data/workspace-gate';
import { PortalPage } from '@/components/layout/portal-page';
import { AgentSettings } from '@/features/agent/components/agent-settings';
import { useWorkspace } from '@/lib/workspace/workspace';

export default function DashboardAgentPage() {
  const workspace = useWorkspace();
  return (
    <PortalPage
      eyebrow="Workspace"
      title="Agent settings"
      description={
        <p>
          How your phone agent answers: its greeting, voice, languages, hours and when it hands a
          call to your team.
        </p>
      }
    >
      <WorkspaceGate workspace={workspace}>
        {(current) => <AgentSettings workspace={current} />}
      </WorkspaceGate>
    </PortalPage>
  );
}
