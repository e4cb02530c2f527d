import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { adminEmailPath } from '@/config/paths';
import { rpcErrorMessage } from '@/lib/forms/rpc-error';
import { emailLogKeys, resendEmail, retryEmail } from '../api/email-log';
import {
  EMAIL_STATE_HINTS,
  EMAIL_STATES,
  formatEmailTime,
  type EmailPreview,
} from '../model/email-log';

type Outcome = { tone: 'success' | 'error'; text: string; copyId?: string } | null;

/** How delivery went, the copies resent from it, and the two actions: resend a copy, retry now. */
export function EmailDelivery({ message }: { message: EmailPreview }) {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [isRetrying, setIsRetrying] = useState(false);
  const resentFrom =
    typeof message.metadata.resent_from === 'string' ? message.metadata.resent_from : null;
  const canRetry = message.status === 'pending' || message.status === 'failed';
  const canResend = !message.is_secret && message.template !== 'team.invitation';

  const refresh = () => queryClient.invalidateQueries({ queryKey: emailLogKeys.all });

  const handleResend = async () => {
    setOutcome(null);
    try {
      const copyId = await resendEmail(message.id);
      setOutcome({ tone: 'success', text: 'A copy is queued to the same recipient.', copyId });
      await refresh();
    } catch (error) {
      // The dialog closes; the sentence shows under the buttons.
      setOutcome({ tone: 'error', text: rpcErrorMessage(error) });
    }
  };
  const handleRetry = async () => {
    setOutcome(null);
    setIsRetrying(true);
    try {
      await retryEmail(message.id);
      setOutcome({ tone: 'success', text: 'The server will try to deliver it now.' });
      await refresh();
    } catch (error) {
      setOutcome({ tone: 'error', text: rpcErrorMessage(error) });
    } finally {
      setIsRetrying(false);
    }
  };

  return (
    <section
      aria-labelledby="email-delivery-heading"
      className="order-first grid gap-4 rounded-2xl border border-sand-200 bg-white p-5 sm:p-6 lg:order-none"
    >
      <h2 id="email-delivery-heading" className="text-lg font-semibold text-ink-900">
        Delivery
      </h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="font-semibold text-ink-600">State</dt>
        <dd className="text-ink-900">
          {EMAIL_STATES[message.status]}
          <span className="block text-ink-600">{EMAIL_STATE_HINTS[message.status]}</span>
        </dd>
        <dt className="font-semibold text-ink-600">Attempts</dt>
        <dd className="text-ink-900 tabular-nums">{message.attempts}</dd>
        {message.status === 'pending' ? (
          <>
            <dt className="font-semibold text-ink-600">Next attempt</dt>
            <dd className="text-ink-900">{formatEmailTime(message.next_attempt_at)}</dd>
          </>
        ) : null}
        <dt className="font-semibold text-ink-600">Sent</dt>
        <dd className="text-ink-900">{message.sent_at ? formatEmailTime(message.sent_at) : '—'}</dd>
        <dt className="font-semibold text-ink-600">Last error</dt>
        <dd className="break-words text-ink-900">{message.last_error ?? '—'}</dd>
      </dl>

      {resentFrom ? (
        <p className="text-sm text-ink-700">
          A copy of{' '}
          <Link to={adminEmailPath(resentFrom)} className="text-azure-700 underline">
            an earlier message
          </Link>
          {typeof message.metadata.resent_by_email === 'string'
            ? `, resent by ${message.metadata.resent_by_email}`
            : ''}
          .
        </p>
      ) : null}

      {message.resends.length > 0 ? (
        <div>
          <h3 className="text-sm font-semibold text-ink-600">Resent copies</h3>
          <ul className="mt-1 grid gap-1 text-sm">
            {message.resends.map((copy) => (
              <li key={copy.id}>
                <Link to={adminEmailPath(copy.id)} className="text-azure-700 underline">
                  {formatEmailTime(copy.created_at)}
                </Link>{' '}
                · {EMAIL_STATES[copy.status].toLowerCase()}
                {copy.resent_by_email ? ` · by ${copy.resent_by_email}` : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <div className="flex flex-wrap gap-3">
        {canResend ? (
          <ConfirmDialog
            trigger={<Button>Resend</Button>}
            title="Resend this message?"
            description={
              <p>
                A new copy goes to <span className="break-all">{message.recipient}</span>. The
                original stays as it is, and the resend is written to the audit log.
              </p>
            }
            confirmLabel="Resend"
            busyLabel="Resending..."
            onConfirm={handleResend}
          />
        ) : null}
        {canRetry ? (
          <Button
            variant="secondary"
            onClick={() => void handleRetry()}
            disabled={isRetrying}
            aria-busy={isRetrying || undefined}
          >
            {isRetrying ? 'Retrying...' : 'Retry now'}
          </Button>
        ) : null}
      </div>
      {!canResend ? (
        <p className="text-sm text-ink-600">
          {message.is_secret
            ? 'Messages with sign-in links or codes cannot be resent: the person asks for a new one.'
            : 'Team invitations are resent by the workspace’s owners from their team page.'}
        </p>
      ) : null}
      {outcome ? (
        <Alert tone={outcome.tone}>
          <p>
            {outcome.text}{' '}
            {outcome.copyId ? (
              <Link to={adminEmailPath(outcome.copyId)} className="font-semibold underline">
                Open the copy
              </Link>
            ) : null}
          </p>
        </Alert>
      ) : null}
    </section>
  );
}
