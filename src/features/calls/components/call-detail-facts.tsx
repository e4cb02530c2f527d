import type { ReactNode } from 'react';
import { describeDuration } from '@/lib/format-duration';
import type { CallDetail } from '../api/call-detail';
import { DirectionLabel, OutcomeBadge, SentimentLabel } from './call-badges';
import { formatPhoneNumber } from '@/lib/phone-number';

const startFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** When the call started, in the browser's time zone. */
export function formatCallStart(startedAt: string): string {
  const date = new Date(startedAt);
  return Number.isNaN(date.getTime()) ? startedAt : startFormat.format(date);
}

function Fact({
  label,
  isWide = false,
  children,
}: {
  label: string;
  isWide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={isWide ? 'col-span-2 grid gap-0.5' : 'grid gap-0.5'}>
      <dt className="text-sm text-ink-600">{label}</dt>
      <dd className="font-medium break-words text-ink-900">{children}</dd>
    </div>
  );
}

/** The call's facts: outcome, mood, who called whom, when, how long, and the provider's id. */
export function CallDetailFacts({ call }: { call: CallDetail }) {
  return (
    <section
      aria-labelledby="facts-heading"
      className="rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <h2 id="facts-heading" className="text-lg font-semibold text-ink-900">
        Details
      </h2>
      <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-4">
        <Fact label="Outcome">
          <OutcomeBadge outcome={call.outcome} />
        </Fact>
        <Fact label="Sentiment">
          <SentimentLabel sentiment={call.sentiment} />
        </Fact>
        <Fact label="Direction">
          <DirectionLabel direction={call.direction} />
        </Fact>
        <Fact label="Duration">{describeDuration(call.duration_seconds)}</Fact>
        <Fact label="From">
          <span className="whitespace-nowrap tabular-nums">
            {formatPhoneNumber(call.from_number)}
          </span>
        </Fact>
        <Fact label="To">
          <span className="whitespace-nowrap tabular-nums">
            {formatPhoneNumber(call.to_number)}
          </span>
        </Fact>
        <Fact label="Started" isWide>
          <time dateTime={call.started_at}>{formatCallStart(call.started_at)}</time>
        </Fact>
        {call.agent ? (
          <Fact label="Agent" isWide>
            {call.agent.name}
          </Fact>
        ) : null}
        <Fact label="Provider call id" isWide>
          <span className="font-mono text-sm break-all">{call.provider_call_id}</span>
        </Fact>
      </dl>
    </section>
  );
}
