import { cn } from '@/lib/cn';
import { LEAD_STATUSES, LEAD_STATUS_LABELS, type LeadStatus } from '../model/leads';

/**
 * How many leads each status holds under the other filters; choosing one
 * shows that status only.
 */
export function LeadCountStrip({
  counts,
  selected,
  onSelect,
}: {
  /** In LEAD_STATUSES order; undefined while loading. */
  counts: (number | undefined)[];
  selected: LeadStatus[];
  onSelect: (status: LeadStatus) => void;
}) {
  return (
    <ul aria-label="Leads by status" className="grid grid-cols-2 gap-2 sm:grid-cols-5">
      {LEAD_STATUSES.map((status, index) => {
        const count = counts[index];
        const isSelected = selected.length === 1 && selected[0] === status;
        return (
          <li key={status}>
            <button
              type="button"
              aria-pressed={isSelected}
              onClick={() => onSelect(status)}
              className={cn(
                'grid w-full gap-0.5 rounded-xl border px-3 py-2 text-left',
                isSelected
                  ? 'border-azure-700 bg-azure-50'
                  : 'border-sand-200 bg-white hover:bg-sand-50',
              )}
            >
              <span className="text-xs font-semibold tracking-wide text-ink-600 uppercase">
                {LEAD_STATUS_LABELS[status]}
              </span>
              <span className="text-xl font-bold text-ink-900 tabular-nums">
                {count === undefined ? '…' : count.toLocaleString('en-US')}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
