import { Award } from 'lucide-react';
import { formatRate } from '@/config/partner-program';
import { describeStanding, tierProgress, type PartnerSummary } from '../model/summary';

/** The current tier with its rate and benefits, and the way to the next one. */
export function TierStanding({ summary }: { summary: PartnerSummary }) {
  const progress = tierProgress(summary.standing);
  const { tier } = progress;
  return (
    <section
      aria-labelledby="tier-heading"
      className="grid content-start gap-4 rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <h2 id="tier-heading" className="text-lg font-semibold text-ink-900">
        Your tier
      </h2>
      <div className="flex items-start gap-3">
        <Award aria-hidden="true" className="mt-1 size-6 shrink-0 text-azure-700" />
        <div>
          <p className="text-xl font-bold text-ink-900">
            {tier.name}{' '}
            <span className="font-semibold text-ink-700">
              · {formatRate(summary.partner.commission_rate)} commission
            </span>
          </p>
          <p className="mt-1 text-sm text-ink-700">{tier.summary}</p>
        </div>
      </div>
      {progress.kind === 'top' ? (
        <p className="font-semibold text-mint-600">{progress.sentence}</p>
      ) : (
        <div className="grid gap-2">
          <div className="flex flex-wrap justify-between gap-x-4 text-sm">
            <span id="tier-progress-label" className="font-semibold text-ink-900">
              On the way to {progress.next.name} ({formatRate(progress.next.rate)})
            </span>
            <span className="text-ink-600 tabular-nums">
              {progress.value} / {progress.max} won deals
            </span>
          </div>
          <div
            role="progressbar"
            aria-labelledby="tier-progress-label"
            aria-valuemin={0}
            aria-valuemax={progress.max}
            aria-valuenow={progress.value}
            aria-valuetext={describeStanding(progress)}
            className="h-3 overflow-hidden rounded-full bg-sand-100 ring-1 ring-sand-200 ring-inset"
          >
            <div
              className="h-full rounded-full bg-azure-700 transition-[width]"
              style={{ width: `${progress.percent}%` }}
            />
          </div>
          <p className="text-sm text-ink-700">
            {progress.sentence} Won deals count over the last twelve months.
          </p>
        </div>
      )}
    </section>
  );
}
