import { cn } from '@/lib/cn';
import { EMAIL_STATES, type EmailState } from '../model/email-log';

const TONES: Record<EmailState, string> = {
  pending: 'bg-azure-50 text-azure-800 ring-azure-100',
  sent: 'bg-mint-50 text-mint-800 ring-mint-200',
  logged: 'bg-sand-100 text-ink-800 ring-sand-200',
  failed: 'bg-danger-50 text-danger-800 ring-danger-200',
};

/** A message's delivery state as a word in a coloured pill (the word carries it). */
export function EmailStateBadge({ state }: { state: EmailState }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset',
        TONES[state],
      )}
    >
      {EMAIL_STATES[state]}
    </span>
  );
}
