import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PortalPage } from '@/components/layout/portal-page';
import { ingestionEndpointQuery } from '../api/ingestion';
import { useWorkspace, type Workspace } from '@/lib/workspace/workspace';
import { ConnectCopyField } from './connect-copy-field';
import { ConnectCurlExample } from './connect-curl-example';
import { ConnectSecret } from './connect-secret';
import { ConnectSignature } from './connect-signature';
import { QueryError } from '@/components/data/query-error';
import { WorkspaceGate } from '@/components/data/workspace-gate';

function Endpoint({ workspace, endpoint }: { workspace: Workspace; endpoint: string }) {
  return (
    <section
      aria-labelledby="endpoint-heading"
      className="rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <h2 id="endpoint-heading" className="text-lg font-semibold text-ink-900">
        Where to send calls
      </h2>
      <p className="mt-1 text-sm text-ink-600">
        Give these to your phone system or telephony provider, with the secret.
      </p>
      <div className="mt-5 grid gap-5">
        <ConnectCopyField label="Endpoint URL" value={endpoint} copyLabel="endpoint URL" />
        <ConnectCopyField label="Workspace id" value={workspace.id} copyLabel="workspace id" />
      </div>
    </section>
  );
}

function Panel({ workspace }: { workspace: Workspace }) {
  const endpoint = useQuery(ingestionEndpointQuery());
  // The secret just made, this once; gone when the page is left.
  const [revealedSecret, setRevealedSecret] = useState<string | null>(null);

  if (endpoint.data === undefined)
    return endpoint.isError ? (
      <QueryError
        what="this server's address"
        onRetry={() => void endpoint.refetch()}
        isRetrying={endpoint.isFetching}
      />
    ) : (
      <p role="status" className="text-ink-600">
        Loading...
      </p>
    );

  return (
    // minmax(0, …): the curl example scrolls inside its box instead of widening the page.
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <Endpoint workspace={workspace} endpoint={endpoint.data.url} />
        <ConnectSecret
          workspace={workspace}
          revealedSecret={revealedSecret}
          onReveal={setRevealedSecret}
          onDismiss={() => setRevealedSecret(null)}
        />
      </div>
      <ConnectCurlExample
        apiUrl={endpoint.data.apiUrl}
        workspaceId={workspace.id}
        secret={revealedSecret}
      />
      <ConnectSignature />
    </div>
  );
}

/** The panel that connects a telephony provider: endpoint, workspace id, secret, a test call. */
export function ConnectPhoneSystem() {
  const workspace = useWorkspace();
  return (
    <PortalPage
      eyebrow="Dashboard"
      title="Connect your phone system"
      description={
        <p className="max-w-3xl">
          Your phone system posts each finished call to Cervana, signed with your workspace’s
          secret. Calls show up on your dashboard within seconds.
        </p>
      }
    >
      <WorkspaceGate workspace={workspace}>
        {(current) => <Panel workspace={current} />}
      </WorkspaceGate>
    </PortalPage>
  );
}
