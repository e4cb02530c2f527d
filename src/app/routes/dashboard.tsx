import { PortalPage } from '@/components/layout/portal-page';
import { useCallsLive } from '@/features/calls/api/use-calls-live';
import { useWorkspace } from '@/lib/workspace/workspace';
import { CallsOverview } from '@/features/calls/components/calls-overview';
import { LiveIndicator } from '@/features/calls/components/live-indicator';
import { WorkspaceGate } from '@/components/data/workspace-gate';
import { profileOf } from '@/lib/auth/user-profile';
import { useAuth } from '@/lib/auth/use-auth';
import { SAVINGS_BASIS, estimateCallSavings } from '../estimate-call-savings';

export default function DashboardPage() {
  const { fullName, company } = profileOf(useAuth().user);
  const workspace = useWorkspace();
  const live = useCallsLive(workspace.data?.id);
  return (
    <PortalPage
      eyebrow="Dashboard"
      title="Your phone agent at a glance"
      description={
        <p>
          Welcome{fullName ? `, ${fullName}` : ''}.{' '}
          {company ? (
            <>
              This is the <strong className="font-semibold text-ink-900">{company}</strong>{' '}
              workspace.
            </>
          ) : null}
        </p>
      }
      actions={workspace.data ? <LiveIndicator live={live} /> : null}
    >
      <WorkspaceGate workspace={workspace}>
        {(current) => (
          <CallsOverview
            workspace={current}
            live={live}
            estimate={estimateCallSavings}
            savingsBasis={SAVINGS_BASIS}
          />
        )}
      </WorkspaceGate>
    </PortalPage>
  );
}
