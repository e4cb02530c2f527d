import { useQuery, useQueryClient } from '@tanstack/react-query';
import { History } from 'lucide-react';
import { useState } from 'react';
import { QueryError } from '@/components/data/query-error';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { showToast } from '@/components/ui/toaster';
import { isRpcError, rpcErrorMessage } from '@/lib/forms/rpc-error';
import { agentKeys, agentVersionsQuery, restoreAgentVersion, type Agent } from '../api/agent';
import { describeChanges } from '../model/agent-settings';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Every saved version, newest first: who saved it, when, and what it changed.
 * Owners and admins restore an earlier one, which is saved as a new version,
 * so restoring loses nothing either.
 */
export function AgentHistory({
  workspaceId,
  agent,
  canEdit,
}: {
  workspaceId: string;
  agent: Agent;
  canEdit: boolean;
}) {
  const queryClient = useQueryClient();
  const versions = useQuery(agentVersionsQuery(workspaceId, agent.id));
  const [error, setError] = useState<string | null>(null);

  const restore = async (version: number) => {
    setError(null);
    try {
      const saved = await restoreAgentVersion(agent.id, version, agent.version);
      await queryClient.invalidateQueries({ queryKey: agentKeys.all(workspaceId) });
      void showToast('success', `Version ${version} restored as version ${saved.version}.`);
    } catch (cause) {
      setError(
        isRpcError(cause) && cause.code === 'PT409'
          ? 'Someone else changed the agent a moment ago. The history now shows their change; restore again if you still want to.'
          : rpcErrorMessage(cause),
      );
      await queryClient.invalidateQueries({ queryKey: agentKeys.all(workspaceId) });
      throw cause;
    }
  };

  return (
    <Card
      id="agent-history"
      title="Change history"
      description="Every saved version of the agent’s settings, with who saved it."
    >
      {error ? (
        <Alert tone="error" className="mb-4">
          {error}
        </Alert>
      ) : null}
      {versions.isPending ? (
        <div role="status" className="grid gap-3">
          <span className="sr-only">Loading the history…</span>
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      ) : versions.isError ? (
        <QueryError
          what="the history"
          onRetry={() => void versions.refetch()}
          isRetrying={versions.isFetching}
        />
      ) : (
        <ol className="grid gap-2">
          {versions.data.map((entry, index) => {
            const previous = versions.data[index + 1];
            const isCurrent = entry.version === agent.version;
            const who = entry.changed_by
              ? (entry.editor?.full_name ?? 'A former teammate')
              : 'Cervana, when the workspace was created';
            const what = entry.restored_from
              ? `Restored version ${entry.restored_from}`
              : previous
                ? `Changed ${describeChanges(previous.settings, entry.settings)}`
                : 'First settings';
            return (
              <li
                key={entry.version}
                className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-sand-200 bg-white px-4 py-3"
              >
                <div className="min-w-0">
                  <p className="font-semibold text-ink-900">
                    Version {entry.version}
                    {isCurrent ? (
                      <span className="ml-2 rounded-full bg-mint-50 px-2 py-0.5 text-xs font-semibold text-mint-800">
                        Current
                      </span>
                    ) : null}
                  </p>
                  <p className="text-sm text-ink-700">{what}</p>
                  <p className="text-sm text-ink-600">
                    {who} ·{' '}
                    <time dateTime={entry.changed_at}>
                      {dateTime.format(new Date(entry.changed_at))}
                    </time>
                  </p>
                </div>
                {canEdit && !isCurrent ? (
                  <ConfirmDialog
                    trigger={
                      <Button variant="secondary">
                        <History aria-hidden="true" className="size-4" />
                        Restore<span className="sr-only"> version {entry.version}</span>
                      </Button>
                    }
                    title={`Restore version ${entry.version}?`}
                    description={
                      <p>
                        The agent goes back to the settings of version {entry.version}, saved as a
                        new version. Nothing is lost: today’s settings stay in this history. Unsaved
                        changes in the form above are discarded.
                      </p>
                    }
                    confirmLabel="Restore"
                    busyLabel="Restoring..."
                    onConfirm={() => restore(entry.version)}
                  />
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}
