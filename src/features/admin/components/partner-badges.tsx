import { cn } from '@/lib/cn';
import {
  APPLICATION_STATUS_LABELS,
  PARTNER_STATUS_LABELS,
  type ApplicationStatus,
  type PartnerStatus,
} from '../model/partners';

const pill =
  'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset';

const APPLICATION_TONES: Record<ApplicationStatus, string> = {
  pending: 'bg-azure-50 text-azure-800 ring-azure-100',
  unconfirmed: 'bg-sand-100 text-ink-800 ring-sand-200',
  approved: 'bg-mint-50 text-mint-800 ring-mint-200',
  rejected: 'bg-danger-50 text-danger-800 ring-danger-200',
};

/** An application's status as a word in a coloured pill. */
export function ApplicationStatusBadge({ status }: { status: ApplicationStatus }) {
  return (
    <span className={cn(pill, APPLICATION_TONES[status])}>{APPLICATION_STATUS_LABELS[status]}</span>
  );
}

/** A partner's status as a word in a coloured pill. */
export function PartnerStatusBadge({ status }: { status: PartnerStatus }) {
  return (
    <span
      className={cn(
        pill,
        status === 'active'
          ? 'bg-mint-50 text-mint-800 ring-mint-200'
          : 'bg-danger-50 text-danger-800 ring-danger-200',
      )}
    >
      {PARTNER_STATUS_LABELS[status]}
    </span>
  );
}
