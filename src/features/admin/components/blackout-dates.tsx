import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryError } from '@/components/data/query-error';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field, fieldProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { showToast } from '@/components/ui/toaster';
import { isRpcError, rpcErrorMessage } from '@/lib/forms/rpc-error';
import {
  addBlackoutDate,
  availabilityKeys,
  removeBlackoutDate,
  useBlackoutDates,
} from '../api/availability';
import { formatCalendarDay, todayIn } from '../model/availability';

/** Whole days without demos (in the scheduler's time zone): add with a reason, remove. */
export function BlackoutDates({ timeZone }: { timeZone: string }) {
  const today = todayIn(timeZone);
  const queryClient = useQueryClient();
  const blackouts = useBlackoutDates(today);
  const [day, setDay] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ day?: string; reason?: string; form?: string }>({});
  const [isAdding, setIsAdding] = useState(false);

  const handleAdd = async () => {
    setErrors({});
    if (!day) {
      setErrors({ day: 'Please choose a day.' });
      return;
    }
    setIsAdding(true);
    try {
      const { bookingsThatDay } = await addBlackoutDate(day, reason);
      await queryClient.invalidateQueries({ queryKey: availabilityKeys.blackouts });
      void showToast(
        bookingsThatDay > 0 ? 'warning' : 'success',
        bookingsThatDay > 0
          ? `${formatCalendarDay(day)} has no more free times. ${bookingsThatDay} demo${bookingsThatDay === 1 ? ' is' : 's are'} already booked that day and keep${bookingsThatDay === 1 ? 's' : ''} its time: move or cancel ${bookingsThatDay === 1 ? 'it' : 'them'} in Bookings.`
          : `${formatCalendarDay(day)} has no more free times on /demo.`,
      );
      setDay('');
      setReason('');
    } catch (error) {
      const message = rpcErrorMessage(error);
      const details = isRpcError(error) ? error.details : null;
      setErrors(
        details === 'p_day'
          ? { day: message }
          : details === 'p_reason'
            ? { reason: message }
            : { form: message },
      );
    } finally {
      setIsAdding(false);
    }
  };

  return (
    <section
      aria-labelledby="blackout-heading"
      className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <div>
        <h2 id="blackout-heading" className="text-lg font-semibold text-ink-900">
          Days without demos
        </h2>
        <p className="mt-1 text-sm text-ink-600">
          Holidays and off-sites. Demos already booked on a day you add keep their time.
        </p>
      </div>
      <form
        aria-label="Add a day without demos"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void handleAdd();
        }}
        className="grid gap-4 sm:grid-cols-2 sm:items-start"
      >
        <Field id="blackout-day" label="Day" error={errors.day}>
          <Input
            {...fieldProps('blackout-day', { error: errors.day })}
            type="date"
            min={today}
            value={day}
            onChange={(event) => setDay(event.target.value)}
          />
        </Field>
        <Field id="blackout-reason" label="Reason (optional)" error={errors.reason}>
          <Input
            {...fieldProps('blackout-reason', { error: errors.reason })}
            value={reason}
            maxLength={200}
            onChange={(event) => setReason(event.target.value)}
            placeholder="Team off-site"
          />
        </Field>
        <Button
          type="submit"
          className="w-fit"
          disabled={isAdding}
          aria-busy={isAdding || undefined}
        >
          {isAdding ? 'Adding…' : 'Add day'}
        </Button>
      </form>
      {errors.form ? <Alert tone="error">{errors.form}</Alert> : null}
      {blackouts.isError ? (
        <QueryError
          what="the days without demos"
          onRetry={() => void blackouts.refetch()}
          isRetrying={blackouts.isFetching}
        />
      ) : !blackouts.data ? (
        <div role="status" className="grid gap-2">
          <span className="sr-only">Loading days without demos…</span>
          <Skeleton className="h-10 w-full" />
        </div>
      ) : blackouts.data.length === 0 ? (
        <p className="text-sm text-ink-600">No days off coming up.</p>
      ) : (
        <ul aria-label="Days without demos" className="divide-y divide-sand-200">
          {blackouts.data.map((blackout) => (
            <li
              key={blackout.day}
              className="flex flex-wrap items-center justify-between gap-3 py-2"
            >
              <div>
                <p className="text-sm font-semibold text-ink-900">
                  <time dateTime={blackout.day}>{formatCalendarDay(blackout.day)}</time>
                </p>
                <p className="text-sm text-ink-600">{blackout.reason ?? 'No reason given'}</p>
              </div>
              <ConfirmDialog
                trigger={
                  <Button
                    variant="secondary"
                    aria-label={`Remove ${formatCalendarDay(blackout.day)}`}
                  >
                    Remove
                  </Button>
                }
                title="Open this day for demos again?"
                description={
                  <p>
                    Visitors will be able to book demos on {formatCalendarDay(blackout.day)} within
                    the weekly hours.
                  </p>
                }
                confirmLabel="Yes, remove the day"
                busyLabel="Removing…"
                onConfirm={async () => {
                  try {
                    await removeBlackoutDate(blackout.day);
                    void showToast(
                      'success',
                      `${formatCalendarDay(blackout.day)} is open for demos again.`,
                    );
                  } catch (error) {
                    void showToast('error', rpcErrorMessage(error));
                  }
                  await queryClient.invalidateQueries({ queryKey: availabilityKeys.blackouts });
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
