import { cn } from '@/lib/cn';
import { REFERRAL_KIND_FILTER_LABELS, REFERRAL_KINDS, type ReferralKind } from '../model/referrals';

/** All referrals, leads only or demo bookings only, as pressed buttons in one group. */
export function ReferralKindFilter({
  kind,
  onChange,
}: {
  kind: ReferralKind;
  onChange: (kind: ReferralKind) => void;
}) {
  return (
    <div
      role="group"
      aria-label="Show"
      className="inline-flex w-fit gap-1 rounded-lg bg-white p-1 ring-1 ring-sand-200 ring-inset"
    >
      {REFERRAL_KINDS.map((choice) => {
        const isActive = choice === kind;
        return (
          <button
            key={choice}
            type="button"
            aria-pressed={isActive}
            onClick={() => onChange(choice)}
            className={cn(
              'h-9 rounded-md px-3 text-sm font-semibold whitespace-nowrap transition-colors',
              isActive
                ? 'bg-azure-700 text-white shadow-sm'
                : 'text-ink-700 hover:bg-sand-100 hover:text-ink-900',
            )}
          >
            {REFERRAL_KIND_FILTER_LABELS[choice]}
          </button>
        );
      })}
    </div>
  );
}
