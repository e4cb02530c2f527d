import { cn } from '@/lib/cn';
import { LEAD_STATUS_LABELS, type LeadStatus } from '../model/leads';

const TONES: Record<LeadStatus, string> = {
  new: 'bg-azure-50 text-azure-800 ring-azure-100',
  contacted: 'bg-sand-100 text-ink-800 ring-sand-200',
  qualified: 'bg-ink-100 text-ink-900 ring-ink-300',
  won: 'bg-mint-50 text-mint-800 ring-mint-200',
  lost: 'bg-danger-50 text-danger-800 ring-danger-200',
};

/** A lead's stage as a word in a coloured pill (the word carries it; the colour helps). */
export function LeadStatusBadge({ status }: { status: LeadStatus }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset',
        TONES[status],
      )}
    >
      {LEAD_STATUS_LABELS[status]}
    </span>
  );
}
