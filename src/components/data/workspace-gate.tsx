import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import type { Workspace } from '@/lib/workspace/workspace';
import { QueryError } from '@/components/data/query-error';

/**
 * Shows the calls pages once the signed-in user's workspace is known: a
 * placeholder meanwhile, a retry on failure, and a sentence for an account
 * without a workspace (the Cervana team and partners have none).
 */
export function WorkspaceGate({
  workspace,
  children,
}: {
  workspace: UseQueryResult<Workspace | null>;
  children: (workspace: Workspace) => ReactNode;
}) {
  if (workspace.isPending) {
    return (
      <div role="status" className="grid gap-4">
        <span className="sr-only">Loading your workspace…</span>
        <Skeleton className="h-12 w-72" />
        <Skeleton className="h-36 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  if (workspace.isError) {
    return (
      <QueryError
        what="your workspace"
        onRetry={() => void workspace.refetch()}
        isRetrying={workspace.isFetching}
      />
    );
  }
  if (workspace.data === null) {
    return (
      <section className="rounded-2xl border border-sand-200 bg-white p-6">
        <h2 className="text-lg font-semibold text-ink-900">No workspace on this account</h2>
        <p className="mt-2 text-ink-600">
          Calls belong to a company workspace, and this account is not a member of one. Ask your
          workspace owner to invite you, or sign up with your work email to start your own.
        </p>
      </section>
    );
  }
  return children(workspace.data);
}
