import { PortalPage } from '@/components/layout/portal-page';
import { useCallsLive } from '@/features/calls/api/use-calls-live';
import { useWorkspace } from '@/lib/workspace/workspace';
import { CallsBrowser } from '@/features/calls/components/calls-browser';
import { LiveIndicator } from '@/features/calls/components/live-indicator';
import { WorkspaceGate } from '@/components/data/workspace-gate';
import { estimateCallSavings } from '../estimate-call-savings';

export default function DashboardCallsPage() {
  const workspace = useWorkspace();
  const live = useCallsLive(workspace.data?.id);
  return (
    <PortalPage
      eyebrow="Dashboard"
      title="Calls"
      description={<p>Every call your phone agent took: search, filter, open or export.</p>}
      actions={workspace.data ? <LiveIndicator live={live} /> : null}
    >
      <WorkspaceGate workspace={workspace}>
        {(current) => (
          <CallsBrowser workspace={current} live={live} estimate={estimateCallSavings} />
        )}
      </WorkspaceGate>
    </PortalPage>
  );
}
