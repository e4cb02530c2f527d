import { WorkspaceGate } from '@/components/data/workspace-gate';
import { PortalPage } from '@/components/layout/portal-page';
import { KnowledgeLibrary } from '@/features/knowledge/components/knowledge-library';
import { useWorkspace } from '@/lib/workspace/workspace';

export default function DashboardKnowledgePage() {
  const workspace = useWorkspace();
  return (
    <PortalPage
      eyebrow="Workspace"
      title="Knowledge"
      description={
        <p>The documents your phone agent answers from: product guides, policies, FAQs.</p>
      }
    >
      <WorkspaceGate workspace={workspace}>
        {(current) => <KnowledgeLibrary workspace={current} />}
      </WorkspaceGate>
    </PortalPage>
  );
}
