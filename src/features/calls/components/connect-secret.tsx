import { useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, TriangleAlert } from 'lucide-react';
import { useRef, useState, type RefObject } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ingestionStatusQuery, rotateIngestionSecret } from '../api/ingestion';
import type { Workspace } from '@/lib/workspace/workspace';
import { ConnectCopyField } from './connect-copy-field';
import { QueryError } from '@/components/data/query-error';

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});
const formatDateTime = (iso: string) => dateTimeFormat.format(new Date(iso));

function describeRotateError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === '42501') return 'Only the workspace’s owners and admins can change its secret.';
  const isNetwork =
    error instanceof TypeError || (typeof message === 'string' && /fetch|network/i.test(message));
  return isNetwork
    ? 'The secret was not changed: we could not reach the server. Check your connection and try again.'
    : 'The secret was not changed: something went wrong on our side. Please try again in a moment.';
}

/** The new secret, this once, with what to do with it. */
function RevealedSecret({
  secret,
  onDismiss,
  boxRef,
}: {
  secret: string;
  onDismiss: () => void;
  boxRef: RefObject<HTMLDivElement | null>;
}) {
  return (
    <div ref={boxRef} className="mt-5 rounded-xl border border-azure-500 bg-azure-50 p-4 sm:p-5">
      <ConnectCopyField label="Your new signing secret" value={secret} copyLabel="signing secret" />
      <p className="mt-3 flex gap-2 text-sm font-medium text-ink-900">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-azure-700" />
        Copy it now and store it in your phone system’s settings: it will not be shown again.
      </p>
      <Button variant="secondary" className="mt-4" onClick={onDismiss}>
        I have stored it
      </Button>
    </div>
  );
}

/**
 * The workspace's signing secret: whether there is one and since when, and
 * (for owners and admins) creating or rotating it. The new secret is shown
 * once; the one it replaces keeps working for 24 hours.
 */
export function ConnectSecret({
  workspace,
  revealedSecret,
  onReveal,
  onDismiss,
}: {
  workspace: Workspace;
  revealedSecret: string | null;
  onReveal: (secret: string) => void;
  onDismiss: () => void;
}) {
  const queryClient = useQueryClient();
  const status = useQuery(ingestionStatusQuery(workspace.id));
  const [problem, setProblem] = useState<string | null>(null);
  const [isCreating, setIsCreating] = useState(false);
  const secretBox = useRef<HTMLDivElement>(null);
  const canChange = workspace.role === 'owner' || workspace.role === 'admin';

  const rotate = async () => {
    setProblem(null);
    try {
      onReveal(await rotateIngestionSecret(workspace.id));
    } catch (error) {
      setProblem(describeRotateError(error));
    } finally {
      await queryClient.invalidateQueries({
        queryKey: ingestionStatusQuery(workspace.id).queryKey,
      });
    }
  };

  const handleCreate = async () => {
    setIsCreating(true);
    await rotate();
    setIsCreating(false);
    // The button pressed is gone: go on to what comes next, copying the secret.
    requestAnimationFrame(() => secretBox.current?.querySelector('button')?.focus());
  };

  let body;
  if (!status.data) {
    body = status.isError ? (
      <QueryError
        what="the secret's status"
        onRetry={() => void status.refetch()}
        isRetrying={status.isFetching}
      />
    ) : (
      <p role="status" className="text-ink-600">
        Checking for a secret...
      </p>
    );
  } else {
    const { has_secret: hasSecret, rotated_at: rotatedAt } = status.data;
    const previousUntil = status.data.previous_valid_until;
    body = (
      <>
        <div className="flex items-start gap-3">
          <KeyRound aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-azure-700" />
          <div className="grid gap-1 text-ink-800">
            {hasSecret ? (
              <p>
                <span className="font-semibold text-ink-900">A secret is set</span>
                {rotatedAt ? <>, since {formatDateTime(rotatedAt)}</> : null}.
              </p>
            ) : (
              <p>
                <span className="font-semibold text-ink-900">No secret yet.</span> Calls cannot be
                sent until there is one.
              </p>
            )}
            {previousUntil ? (
              <p>The previous secret keeps working until {formatDateTime(previousUntil)}.</p>
            ) : null}
          </div>
        </div>
        {canChange ? (
          <div className="mt-5">
            {hasSecret ? (
              <ConfirmDialog
                trigger={<Button variant="secondary">Rotate secret</Button>}
                title="Rotate the signing secret?"
                description={
                  <>
                    <p>
                      A new secret is made and shown once. The current one keeps working for 24
                      hours, time to put the new one in your phone system.
                    </p>
                    {previousUntil ? (
                      <p className="mt-2">
                        The secret before it, still accepted until {formatDateTime(previousUntil)},
                        stops working now.
                      </p>
                    ) : null}
                  </>
                }
                confirmLabel="Rotate secret"
                busyLabel="Rotating..."
                onConfirm={rotate}
              />
            ) : (
              <Button
                onClick={() => void handleCreate()}
                disabled={isCreating}
                aria-busy={isCreating || undefined}
              >
                {isCreating ? 'Creating...' : 'Create secret'}
              </Button>
            )}
          </div>
        ) : (
          <p className="mt-5 rounded-lg bg-sand-100 px-4 py-3 text-sm text-ink-700">
            Only the workspace’s owners and admins can {hasSecret ? 'rotate' : 'create'} the secret;
            you are a member of {workspace.name}. Ask an owner or admin.
          </p>
        )}
      </>
    );
  }

  return (
    <section
      aria-labelledby="secret-heading"
      className="rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <h2 id="secret-heading" className="text-lg font-semibold text-ink-900">
        Signing secret
      </h2>
      <p className="mt-1 text-sm text-ink-600">
        Your phone system signs every request with it, so Cervana knows the calls are yours.
      </p>
      <div className="mt-5">{body}</div>
      {/* Present from the start, so what happens is announced when it appears. */}
      <div aria-live="polite">
        {problem ? (
          <Alert tone="error" className="mt-5">
            {problem}
          </Alert>
        ) : null}
        {revealedSecret ? (
          <p className="sr-only">A new secret was made. It is shown below this once.</p>
        ) : null}
      </div>
      {revealedSecret ? (
        <RevealedSecret secret={revealedSecret} onDismiss={onDismiss} boxRef={secretBox} />
      ) : null}
    </section>
  );
}
