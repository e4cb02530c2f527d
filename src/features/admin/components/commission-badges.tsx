import { cn } from '@/lib/cn';
import { COMMISSION_STATUS_LABELS, type CommissionStatus } from '../model/commissions';

const pill =
  'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset';

const TONES: Record<CommissionStatus, string> = {
  pending: 'bg-azure-50 text-azure-800 ring-azure-100',
  approved: 'bg-mint-50 text-mint-800 ring-mint-200',
  paid: 'bg-sand-100 text-ink-800 ring-sand-200',
  declined: 'bg-danger-50 text-danger-800 ring-danger-200',
};

/** A commission's state as a word in a coloured pill. */
export function CommissionStatusBadge({ status }: { status: CommissionStatus }) {
  return <span className={cn(pill, TONES[status])}>{COMMISSION_STATUS_LABELS[status]}</span>;
}
