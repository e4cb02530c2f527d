import { cn } from '@/lib/cn';
import { BOOKING_STATUS_LABELS, type BookingStatus } from '../model/bookings';

const TONES: Record<BookingStatus, string> = {
  confirmed: 'bg-mint-50 text-mint-800 ring-mint-200',
  cancelled: 'bg-danger-50 text-danger-800 ring-danger-200',
};

/** A booking's status as a word in a coloured pill (the word carries it; the colour helps). */
export function BookingStatusBadge({ status }: { status: BookingStatus }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset',
        TONES[status],
      )}
    >
      {BOOKING_STATUS_LABELS[status]}
    </span>
  );
}
