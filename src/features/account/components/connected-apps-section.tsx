import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AppWindow } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { showToast } from '@/components/ui/toaster';
import { describeAuthError } from '@/lib/auth/auth-error-message';
import { disconnectApp, listConnectedApps } from '../api/connected-apps';
import { scopeSummary } from '@/lib/auth/oauth-scopes';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const CONNECTED_APPS_KEY = ['auth', 'oauth-grants'] as const;

/** Apps that may use this account (and so the workspace) through the OAuth server, each removable. */
export function ConnectedAppsSection() {
  const queryClient = useQueryClient();
  const appsQuery = useQuery({
    queryKey: CONNECTED_APPS_KEY,
    queryFn: listConnectedApps,
    staleTime: 0,
  });
  const apps = appsQuery.data ?? null;
  const loadProblem = appsQuery.error ? describeAuthError(appsQuery.error).message : null;

  return (
    <Card
      id="connected-apps"
      title="Connected apps"
      description="Apps you allowed to use your account. They read and change your workspace's data as you, until you remove them."
    >
      {loadProblem ? (
        <Alert tone="error" className="mb-5 max-w-xl">
          {loadProblem}
        </Alert>
      ) : null}
      {apps === null ? (
        loadProblem ? null : (
          <p role="status" className="text-ink-600">
            Loading...
          </p>
        )
      ) : apps.length === 0 ? (
        <p className="text-ink-700">No apps are connected to your account.</p>
      ) : (
        <ul className="grid max-w-xl gap-3" aria-label="Apps with access">
          {apps.map((app) => (
            <li
              key={app.client.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-sand-200 p-4"
            >
              <div className="flex items-center gap-3">
                <AppWindow aria-hidden="true" className="size-5 text-azure-600" />
                <div>
                  <p className="font-semibold break-all text-ink-900">
                    {app.client.name || 'An unnamed app'}
                  </p>
                  <p className="text-sm text-ink-600">
                    Allowed {dateFormat.format(new Date(app.granted_at))}
                    {app.scopes.length > 0 ? ` · sees ${scopeSummary(app.scopes)}` : ''}
                  </p>
                </div>
              </div>
              <ConfirmDialog
                trigger={<Button variant="secondary">Remove access</Button>}
                title={`Remove ${app.client.name || 'this unnamed app'}’s access?`}
                description={
                  <p>
                    It stops working with your account at once. To use it again, you will allow it
                    again.
                  </p>
                }
                confirmLabel="Remove access"
                busyLabel="Removing..."
                onConfirm={async () => {
                  await disconnectApp(app.client.id);
                  await queryClient.invalidateQueries({ queryKey: CONNECTED_APPS_KEY });
                  void showToast(
                    'success',
                    `${app.client.name || 'The app'} can no longer use your account.`,
                  );
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
