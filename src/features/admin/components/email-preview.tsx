import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { PortalPage } from '@/components/layout/portal-page';
import { Alert } from '@/components/ui/alert';
import { buttonStyles } from '@/components/ui/button-styles';
import { Skeleton } from '@/components/ui/skeleton';
import { emailPreviewQuery } from '../api/email-log';
import { formatEmailTime } from '../model/email-log';
import { EmailContent } from './email-content';
import { EmailDelivery } from './email-delivery';
import { EmailStateBadge } from './email-state-badge';

const EYEBROW = 'Admin · Email log';

/** One message: who it went to, its content as the recipient sees it, and its delivery. */
export function EmailPreviewPage({ messageId, backTo }: { messageId: string; backTo: string }) {
  const email = useQuery(emailPreviewQuery(messageId));
  const back = (
    <Link to={backTo} className={buttonStyles({ variant: 'secondary' })}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to the email log
    </Link>
  );

  if (email.isError) {
    return (
      <PortalPage eyebrow={EYEBROW} title="Message" actions={back}>
        <QueryError
          what="this message"
          onRetry={() => void email.refetch()}
          isRetrying={email.isFetching}
        />
      </PortalPage>
    );
  }
  if (email.data === undefined) {
    return (
      <PortalPage eyebrow={EYEBROW} title="Message" actions={back}>
        <div role="status" className="grid gap-4">
          <span className="sr-only">Loading the message…</span>
          <Skeleton className="h-40 w-full rounded-2xl" />
          <Skeleton className="h-96 w-full rounded-2xl" />
        </div>
      </PortalPage>
    );
  }
  if (email.data === null) {
    return (
      <PortalPage eyebrow={EYEBROW} title="Message not found" actions={back}>
        <p className="text-ink-700">There is no message at this address.</p>
      </PortalPage>
    );
  }

  const message = email.data;
  return (
    <PortalPage
      eyebrow={EYEBROW}
      title={
        <span className="break-words">
          {message.subject ?? (message.channel === 'sms' ? 'Text message' : '(no subject)')}
        </span>
      }
      description={
        <p className="flex flex-wrap items-center gap-2">
          <EmailStateBadge state={message.status} />
          <span>
            Queued <time dateTime={message.created_at}>{formatEmailTime(message.created_at)}</time>
          </span>
        </p>
      }
      actions={back}
    >
      <div className="grid gap-6">
        {message.is_secret ? (
          <Alert tone="info" title="Links and codes hidden">
            <p>
              This message signs someone in or confirms their account, so its link and code are
              shown as [hidden]: nobody reads them here, admins included. It cannot be resent; the
              person can ask for a new one.
            </p>
          </Alert>
        ) : null}
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
          <EmailContent message={message} />
          <EmailDelivery message={message} />
        </div>
      </div>
    </PortalPage>
  );
}
