import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { PortalPage } from '@/components/layout/portal-page';
import { buttonStyles } from '@/components/ui/button-styles';
import { describeDuration } from '@/lib/format-duration';
import { callDetailQuery, type CallDetail as Call } from '../api/call-detail';
import { OutcomeBadge } from './call-badges';
import { SampleCallBadge } from './call-detail-badges';
import { CallDetailExtracted } from './call-detail-extracted';
import { CallDetailFacts, formatCallStart } from './call-detail-facts';
import { CallDetailMedia } from './call-detail-media';
import { CallDetailSkeleton } from './call-detail-skeleton';
import { QueryError } from '@/components/data/query-error';
import { formatPhoneNumber } from '@/lib/phone-number';

function BackToCalls({ to }: { to: string }) {
  return (
    <Link to={to} className={buttonStyles({ variant: 'secondary' })}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to calls
    </Link>
  );
}

/** 'Call from +1 (312) 555-0121', the number kept on one line on a phone. */
const titleOf = (call: Call) => (
  <>
    {call.direction === 'inbound' ? 'Call from ' : 'Call to '}
    <span className="whitespace-nowrap">
      {formatPhoneNumber(call.direction === 'inbound' ? call.from_number : call.to_number)}
    </span>
  </>
);

function CallHeading({ call }: { call: Call }) {
  return (
    <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-2">
      <OutcomeBadge outcome={call.outcome} />
      {call.is_sample ? <SampleCallBadge /> : null}
      <span className="text-sm text-ink-600">
        <time dateTime={call.started_at}>{formatCallStart(call.started_at)}</time>
        <span aria-hidden="true"> · </span>
        <span className="whitespace-nowrap">
          <span className="sr-only">, </span>
          {describeDuration(call.duration_seconds)}
        </span>
      </span>
    </div>
  );
}

function Summary({ summary }: { summary: string | null }) {
  return (
    <section
      aria-labelledby="summary-heading"
      className="rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <h2 id="summary-heading" className="text-lg font-semibold text-ink-900">
        Summary
      </h2>
      <p className="mt-3 whitespace-pre-line text-ink-800">
        {summary ?? <span className="text-ink-600">No summary for this call.</span>}
      </p>
    </section>
  );
}

/**
 * One call: its recording and timed transcript, summary, outcome and the
 * fields taken down. `backTo` is the calls list as the visitor left it.
 */
export function CallDetail({ callId, backTo }: { callId: string; backTo: string }) {
  const query = useQuery(callDetailQuery(callId));
  const back = <BackToCalls to={backTo} />;

  if (query.data === undefined)
    return (
      <PortalPage
        eyebrow="Call"
        title={query.isError ? 'This call could not be loaded' : 'Loading the call...'}
        actions={back}
      >
        {query.isError ? (
          <QueryError
            what="this call"
            onRetry={() => void query.refetch()}
            isRetrying={query.isFetching}
          />
        ) : (
          <CallDetailSkeleton />
        )}
      </PortalPage>
    );

  const call = query.data;
  if (!call)
    return (
      <PortalPage
        eyebrow="Call"
        title="Call not found"
        description={<p>This call does not exist or is not in your workspace.</p>}
        actions={back}
      />
    );

  return (
    <PortalPage
      eyebrow={call.direction === 'inbound' ? 'Inbound call' : 'Outbound call'}
      title={titleOf(call)}
      description={<CallHeading call={call} />}
      actions={back}
    >
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,23rem)] lg:grid-rows-[auto_1fr]">
        <div className="lg:col-start-2 lg:row-start-1">
          <Summary summary={call.summary} />
        </div>
        {/* On wide screens the recording and transcript stay in view beside the rest. */}
        <div className="grid content-start gap-6 lg:sticky lg:top-32 lg:col-start-1 lg:row-span-2 lg:row-start-1 lg:self-start">
          <CallDetailMedia call={call} />
        </div>
        <div className="grid content-start gap-6 lg:col-start-2 lg:row-start-2">
          <CallDetailFacts call={call} />
          <CallDetailExtracted extracted={call.extracted} />
        </div>
      </div>
    </PortalPage>
  );
}
