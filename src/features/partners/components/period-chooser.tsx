import { cn } from '@/lib/cn';
import { PORTAL_PERIODS, portalPeriodLabel, type PortalPeriod } from '../model/period';

/** The last 30 days, 90 days or 12 months, as pressed buttons in one group. */
export function PeriodChooser({
  period,
  onChange,
}: {
  period: PortalPeriod;
  onChange: (period: PortalPeriod) => void;
}) {
  return (
    <div
      role="group"
      aria-label="Period"
      className="inline-flex w-fit gap-1 rounded-lg bg-white p-1 ring-1 ring-sand-200 ring-inset"
    >
      {PORTAL_PERIODS.map((choice) => {
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
            {portalPeriodLabel(choice)}
          </button>
        );
      })}
    </div>
  );
}
