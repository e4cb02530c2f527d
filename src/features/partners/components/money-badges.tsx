import { cn } from '@/lib/cn';
import { COMMISSION_STATE_LABELS, type CommissionState } from '../model/commissions';
import { REGISTRATION_STATUS_LABELS, type RegistrationStatus } from '../model/registration';

const pill =
  'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset';

const COMMISSION_TONES: Record<CommissionState, string> = {
  pending: 'bg-sand-100 text-ink-800 ring-sand-200',
  approved: 'bg-azure-50 text-azure-800 ring-azure-100',
  paid: 'bg-mint-50 text-mint-800 ring-mint-200',
  declined: 'bg-danger-50 text-danger-800 ring-danger-200',
};

/** A commission's state as a word in a coloured pill (the word carries the meaning). */
export function CommissionStateBadge({ state }: { state: CommissionState }) {
  return (
    <span className={cn(pill, COMMISSION_TONES[state])}>{COMMISSION_STATE_LABELS[state]}</span>
  );
}

const REGISTRATION_TONES: Record<RegistrationStatus, string> = {
  pending: 'bg-sand-100 text-ink-800 ring-sand-200',
  accepted: 'bg-mint-50 text-mint-800 ring-mint-200',
  rejected: 'bg-danger-50 text-danger-800 ring-danger-200',
};

export function RegistrationStatusBadge({ status }: { status: RegistrationStatus }) {
  return (
    <span className={cn(pill, REGISTRATION_TONES[status])}>
      {REGISTRATION_STATUS_LABELS[status]}
    </span>
  );
}
