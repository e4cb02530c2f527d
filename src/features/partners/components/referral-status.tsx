import { cn } from '@/lib/cn';
import {
  commissionLabel,
  formatDateTime,
  referralStatusLabel,
  referralTone,
  type ReferralRow,
} from '../model/referrals';

const TONES = {
  good: 'bg-mint-50 text-mint-800 ring-mint-200',
  bad: 'bg-sand-100 text-ink-700 ring-sand-200',
  neutral: 'bg-azure-50 text-ink-800 ring-azure-100',
} as const;

/** The referral's status in words, as a badge; an upcoming demo says when. */
export function ReferralStatus({
  row,
  layout = 'stack',
}: {
  row: ReferralRow;
  /** A table cell stacks the time under the badge; a phone's card puts it beside. */
  layout?: 'stack' | 'inline';
}) {
  return (
    <span
      className={cn(
        layout === 'stack'
          ? 'grid justify-items-start gap-1'
          : 'flex flex-wrap items-center gap-x-2 gap-y-1',
      )}
    >
      <span
        className={cn(
          'inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset',
          TONES[referralTone(row)],
        )}
      >
        {referralStatusLabel(row)}
      </span>
      {row.kind === 'booking' && row.status === 'upcoming' && row.starts_at ? (
        <time dateTime={row.starts_at} className="text-xs text-ink-700">
          {formatDateTime(row.starts_at)}
        </time>
      ) : null}
    </span>
  );
}

/** 'Commission approved', or a dash for the eye and words for screen readers. */
export function CommissionState({ status }: { status: string | null }) {
  const label = commissionLabel(status);
  if (!label)
    return (
      <span className="text-ink-600">
        <span aria-hidden="true">—</span>
        <span className="sr-only">No commission</span>
      </span>
    );
  return <span className="text-ink-900">{label}</span>;
}
