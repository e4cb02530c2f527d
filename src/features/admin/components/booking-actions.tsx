import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field, fieldProps } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { showToast } from '@/components/ui/toaster';
import { cn } from '@/lib/cn';
import { isRpcError, rpcErrorMessage } from '@/lib/forms/rpc-error';
import {
  bookingsKeys,
  cancelBooking,
  rescheduleBooking,
  useBookingSlots,
  type Booking,
} from '../api/bookings';
import { browserTimeZone, formatClock, formatDay, formatSlot, localDay } from '../model/bookings';

type Outcome =
  { kind: 'stale' } | { kind: 'error'; field: 'reason' | 'slot' | null; message: string };

/** How a refusal shows: a stale view offers the latest, a field's sentence goes under it. */
function outcomeOf(error: unknown): Outcome {
  if (isRpcError(error) && error.code === 'PT409' && error.details === 'version') {
    return { kind: 'stale' };
  }
  const details = isRpcError(error) ? error.details : null;
  const field =
    details === 'p_reason'
      ? 'reason'
      : details === 'p_starts_at' || details === 'slot_taken'
        ? 'slot'
        : null;
  return { kind: 'error', field, message: rpcErrorMessage(error) };
}

/**
 * Moving or cancelling a confirmed, upcoming demo for the visitor, from the
 * version this page loaded; the visitor is emailed the updated invite.
 */
export function BookingActions({
  booking,
  onReload,
}: {
  booking: Booking;
  onReload: () => Promise<unknown>;
}) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [isPicking, setIsPicking] = useState(false);
  // When the page opened: a demo that starts later is refused by SQL, with a sentence.
  const [openedAt] = useState(() => Date.now());
  const isChangeable = booking.status === 'confirmed' && Date.parse(booking.starts_at) > openedAt;

  if (!isChangeable) {
    return (
      <section
        aria-labelledby="booking-actions-heading"
        className="rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
      >
        <h2 id="booking-actions-heading" className="text-lg font-semibold text-ink-900">
          Move or cancel
        </h2>
        <p className="mt-2 text-sm text-ink-600">
          {booking.status === 'cancelled'
            ? 'This demo is cancelled, so there is nothing to change.'
            : 'This demo has already started, so it can no longer be moved or cancelled.'}
        </p>
      </section>
    );
  }

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: bookingsKeys.all });
  };

  const reasonError =
    outcome?.kind === 'error' && outcome.field === 'reason' ? outcome.message : undefined;
  return (
    <section
      aria-labelledby="booking-actions-heading"
      className="grid gap-5 rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <div>
        <h2 id="booking-actions-heading" className="text-lg font-semibold text-ink-900">
          Move or cancel
        </h2>
        <p className="mt-1 text-sm text-ink-600">
          The visitor gets an email from the Cervana team with the updated calendar invite.
        </p>
      </div>
      <Field
        id="booking-reason"
        label="Note to the visitor (optional)"
        hint="Included in their email, e.g. why the time changed."
        error={reasonError}
      >
        <Textarea
          {...fieldProps('booking-reason', {
            error: reasonError,
            hint: 'Included in their email, e.g. why the time changed.',
          })}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={500}
          className="min-h-20"
        />
      </Field>
      {outcome?.kind === 'stale' ? (
        <Alert tone="error" title="This booking changed since you opened it.">
          <p>Nothing was changed. Load the latest, then try again.</p>
          <Button
            variant="secondary"
            className="mt-2"
            onClick={() => {
              setOutcome(null);
              void onReload();
            }}
          >
            Load the latest
          </Button>
        </Alert>
      ) : null}
      {outcome?.kind === 'error' && outcome.field === null ? (
        <Alert tone="error">{outcome.message}</Alert>
      ) : null}
      {isPicking ? (
        <SlotPicker
          booking={booking}
          error={
            outcome?.kind === 'error' && outcome.field === 'slot' ? outcome.message : undefined
          }
          onCancel={() => setIsPicking(false)}
          onPick={async (startsAt) => {
            setOutcome(null);
            try {
              await rescheduleBooking(booking, startsAt, reason);
              void showToast('success', 'Demo moved. The visitor has been emailed the new invite.');
              setIsPicking(false);
              await refresh();
            } catch (error) {
              setOutcome(outcomeOf(error));
              if (isRpcError(error) && error.details === 'slot_taken') {
                await queryClient.invalidateQueries({ queryKey: bookingsKeys.slots(booking.id) });
              }
            }
          }}
        />
      ) : (
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" onClick={() => setIsPicking(true)}>
            Move to another time
          </Button>
          <ConfirmDialog
            trigger={<Button variant="outline">Cancel this demo</Button>}
            title="Cancel this demo?"
            description={
              <p>
                {booking.full_name} ({booking.email}) gets an email from the Cervana team that their
                demo on {formatSlot(booking.starts_at, booking.ends_at)} is cancelled
                {reason.trim() ? ', with your note' : ''}, and the invite leaves their calendar.
                This cannot be undone.
              </p>
            }
            confirmLabel="Yes, cancel the demo"
            busyLabel="Cancelling…"
            onConfirm={async () => {
              setOutcome(null);
              try {
                await cancelBooking(booking, reason);
                void showToast('success', 'Demo cancelled. The visitor has been emailed.');
                await refresh();
              } catch (error) {
                setOutcome(outcomeOf(error));
              }
            }}
          />
        </div>
      )}
    </section>
  );
}

/** The real free times (its own counted free), by day in the admin's time zone. */
function SlotPicker({
  booking,
  error,
  onPick,
  onCancel,
}: {
  booking: Booking;
  error?: string;
  onPick: (startsAt: string) => Promise<void>;
  onCancel: () => void;
}) {
  const slots = useBookingSlots(booking.id, true);
  const zone = browserTimeZone();
  const days = useMemo(() => {
    const byDay = new Map<string, { starts_at: string; ends_at: string }[]>();
    for (const slot of slots.data ?? []) {
      if (
        slot.starts_at === booking.starts_at ||
        Date.parse(slot.starts_at) === Date.parse(booking.starts_at)
      )
        continue;
      const day = localDay(slot.starts_at, zone);
      byDay.set(day, [...(byDay.get(day) ?? []), slot]);
    }
    return [...byDay.entries()];
  }, [slots.data, booking.starts_at, zone]);
  const [day, setDay] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const shownDay = day ?? days[0]?.[0] ?? null;
  const times = days.find(([key]) => key === shownDay)?.[1] ?? [];

  if (slots.isError) {
    return <Alert tone="error">We could not load the free times. Please try again.</Alert>;
  }
  if (!slots.data) {
    return (
      <div role="status" className="grid gap-2">
        <span className="sr-only">Loading free times…</span>
        <Skeleton className="h-11 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (days.length === 0) {
    return (
      <div className="grid gap-3">
        <p className="text-sm text-ink-700">
          There are no other free times within the booking horizon.
        </p>
        <Button variant="secondary" onClick={onCancel}>
          Back
        </Button>
      </div>
    );
  }
  return (
    <form
      aria-label="Move the demo"
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (!chosen) return;
        setIsBusy(true);
        void onPick(chosen).finally(() => setIsBusy(false));
      }}
    >
      <Field id="move-day" label={`Day (${zone})`}>
        <Select
          id="move-day"
          value={shownDay ?? ''}
          onChange={(event) => {
            setDay(event.target.value);
            setChosen(null);
          }}
        >
          {days.map(([key, daySlots]) => (
            <option key={key} value={key}>
              {formatDay(daySlots[0]!.starts_at)} — {daySlots.length} free
            </option>
          ))}
        </Select>
      </Field>
      <fieldset>
        <legend className="text-sm font-semibold text-ink-900">Time</legend>
        <div className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-4">
          {times.map((slot) => (
            <button
              key={slot.starts_at}
              type="button"
              aria-pressed={chosen === slot.starts_at}
              aria-label={`${formatClock(slot.starts_at)} on ${formatDay(slot.starts_at)}`}
              onClick={() => setChosen(slot.starts_at)}
              className={cn(
                'rounded-lg border px-2 py-2 text-sm font-semibold tabular-nums',
                chosen === slot.starts_at
                  ? 'border-azure-700 bg-azure-700 text-white'
                  : 'border-sand-200 bg-white text-ink-900 hover:border-azure-700',
              )}
            >
              {formatClock(slot.starts_at)}
            </button>
          ))}
        </div>
        {error ? (
          <p role="alert" className="mt-2 text-sm font-medium text-danger-700">
            {error}
          </p>
        ) : null}
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={!chosen || isBusy} aria-busy={isBusy || undefined}>
          {isBusy
            ? 'Moving…'
            : chosen
              ? `Move to ${formatDay(chosen)}, ${formatClock(chosen)}`
              : 'Pick a time'}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={isBusy}>
          Keep the current time
        </Button>
      </div>
    </form>
  );
}
