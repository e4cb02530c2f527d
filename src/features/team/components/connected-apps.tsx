import { AppWindow } from 'lucide-react';
import { useState } from 'react';
import { QueryError } from '@/components/data/query-error';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { showToast } from '@/components/ui/toaster';
import { useRevokeWorkspaceApp, useWorkspaceApps, type ConnectedApp } from '../api/connected-apps';
import { teamErrorMessage } from '../api/team-error';
import { formatDay } from '../model/team';
import { scopeSummary } from '@/lib/auth/oauth-scopes';

/** Apps that members allowed to act for them, and so in this workspace; an owner removes any. */
export function ConnectedApps({ workspaceId }: { workspaceId: string }) {
  const apps = useWorkspaceApps(workspaceId);
  if (apps.isPending) return <Skeleton className="h-16 w-full" />;
  if (apps.isError) {
    return (
      <QueryError
        what="the connected apps"
        onRetry={() => void apps.refetch()}
        isRetrying={apps.isFetching}
      />
    );
  }
  if (apps.data.length === 0) {
    return <p className="text-sm text-ink-600">No member has connected an app.</p>;
  }
  return (
    <ul className="grid gap-3" aria-label="Apps with access to this workspace">
      {apps.data.map((app) => (
        <AppRow key={`${app.client_id}:${app.user_id}`} app={app} workspaceId={workspaceId} />
      ))}
    </ul>
  );
}

function AppRow({ app, workspaceId }: { app: ConnectedApp; workspaceId: string }) {
  const revoke = useRevokeWorkspaceApp(workspaceId);
  const [error, setError] = useState<string | null>(null);
  const appName = app.client_name || 'An unnamed app';
  const person = app.is_me ? 'you' : app.full_name || app.email || 'a former teammate';
  const errorId = `app-${app.client_id}-${app.user_id}-error`;

  const handleRevoke = async () => {
    setError(null);
    try {
      await revoke.mutateAsync(app);
      void showToast(
        'success',
        `${appName} no longer has ${app.is_me ? 'your' : `${person}’s`} access.`,
      );
    } catch (caught) {
      setError(teamErrorMessage(caught));
      throw caught;
    }
  };

  return (
    <li
      className="grid gap-3 rounded-xl border border-sand-200 p-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center"
      aria-label={`${appName}, allowed by ${person}`}
    >
      <div className="flex min-w-0 items-start gap-3">
        <AppWindow aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-azure-600" />
        <div className="min-w-0">
          <p className="font-semibold break-words text-ink-900">{appName}</p>
          <p className="text-sm text-ink-600">
            Allowed by {person} on {formatDay(app.granted_at)}
            {app.scopes.length > 0 ? ` · sees ${scopeSummary(app.scopes)}` : ''}
          </p>
          {app.email && !app.is_me && app.full_name ? (
            <p className="text-sm break-all text-ink-600">{app.email}</p>
          ) : null}
          {error ? (
            <p id={errorId} role="alert" className="mt-2 text-sm font-medium text-danger-700">
              {error}
            </p>
          ) : null}
        </div>
      </div>
      <ConfirmDialog
        trigger={
          <Button variant="secondary" aria-describedby={error ? errorId : undefined}>
            Remove access
          </Button>
        }
        title={`Remove ${appName}’s access?`}
        description={
          <p>
            It acts as {person} and stops working at once, in this workspace and any other{' '}
            {app.is_me ? 'you belong' : 'they belong'} to. They can allow it again later.
          </p>
        }
        confirmLabel="Remove access"
        busyLabel="Removing..."
        onConfirm={handleRevoke}
      />
    </li>
  );
}
