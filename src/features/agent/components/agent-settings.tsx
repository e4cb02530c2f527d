import { useQuery } from '@tanstack/react-query';
import { QueryError } from '@/components/data/query-error';
import { Skeleton } from '@/components/ui/skeleton';
import type { Workspace } from '@/lib/workspace/workspace';
import { agentQuery } from '../api/agent';
import { AgentForm } from './agent-form';
import { AgentHistory } from './agent-history';
import { OpeningStatus } from './opening-status';

/** The agent page: its status, its settings and their history. */
export function AgentSettings({ workspace }: { workspace: Workspace }) {
  const agent = useQuery(agentQuery(workspace.id));
  const canEdit = workspace.role === 'owner' || workspace.role === 'admin';

  if (agent.isPending) {
    return (
      <div role="status" className="grid gap-4">
        <span className="sr-only">Loading the agent’s settings…</span>
        <Skeleton className="h-10 w-64" />
        <Skeleton className="h-96 w-full" />
      </div>
    );
  }
  if (agent.isError) {
    return (
      <QueryError
        what="the agent’s settings"
        onRetry={() => void agent.refetch()}
        isRetrying={agent.isFetching}
      />
    );
  }
  if (agent.data === null) {
    return <p className="text-ink-700">This workspace has no agent yet. Please contact support.</p>;
  }
  return (
    <div className="grid gap-8">
      <OpeningStatus hours={agent.data.settings.business_hours} timeZone={workspace.timeZone} />
      <AgentForm
        key={agent.data.version}
        workspaceId={workspace.id}
        timeZone={workspace.timeZone}
        agent={agent.data}
        canEdit={canEdit}
        onReload={() => agent.refetch()}
      />
      <AgentHistory workspaceId={workspace.id} agent={agent.data} canEdit={canEdit} />
    </div>
  );
}
