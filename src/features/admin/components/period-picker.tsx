import { cn } from '@/lib/cn';
import { ADMIN_PERIODS, periodDays, type AdminPeriod } from '../model/period';

/** The last 7, 30 or 90 days, as pressed buttons in one group. */
export function PeriodPicker({
  period,
  onChange,
}: {
  period: AdminPeriod;
  onChange: (period: AdminPeriod) => void;
}) {
  return (
    <div
      role="group"
      aria-label="Period"
      className="inline-flex w-fit gap-1 rounded-lg bg-white p-1 ring-1 ring-sand-200 ring-inset"
    >
      {ADMIN_PERIODS.map((choice) => {
        const isActive = choice === period;
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
            <span className="sr-only">Last </span>
            {periodDays(choice)} days
          </button>
        );
      })}
    </div>
  );
}
