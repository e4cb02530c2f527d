import { WorkspaceGate } from '@/components/data/workspace-gate';
import { PortalPage } from '@/components/layout/portal-page';
import { PhoneNumbers } from '@/features/phone-numbers/components/phone-numbers';
import { useWorkspace } from '@/lib/workspace/workspace';

export default function DashboardNumbersPage() {
  const workspace = useWorkspace();
  return (
    <PortalPage
      eyebrow="Workspace"
      title="Phone numbers"
      description={
        <p>The numbers your phone agent answers. Calls that arrive on them are linked to them.</p>
      }
    >
      <WorkspaceGate workspace={workspace}>
        {(current) => <PhoneNumbers workspace={current} />}
      </WorkspaceGate>
    </PortalPage>
  );
}
