import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { buttonStyles } from '@/components/ui/button-styles';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/textarea';
import { paths } from '@/config/paths';
import { isRpcError, rpcErrorMessage } from '@/lib/forms/rpc-error';
import { cancelBooking, fetchBooking, rescheduleBooking } from '../api/scheduler';
import { describeSlot, nextSlots, type Slot } from '../model/slots';
import { OFFERED_SLOT, SLOTS_QUERY_KEY, useSlots, useVisitorTimeZone } from './demo-scheduler';
import { SlotPicker } from './slot-picker';

type Mode = 'view' | 'reschedule' | 'cancel';

/** What the link in the confirmation email opens: the booking, to move or cancel it. */
export function ManageBooking({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const booking = useQuery({
    queryKey: ['demo-booking', token],
    queryFn: () => fetchBooking(token),
    retry: false,
  });
  const slots = useSlots();
  const [timeZone, setTimeZone] = useVisitorTimeZone();
  const [mode, setMode] = useState<Mode>('view');
  const [selected, setSelected] = useState<Slot>();
  const [reason, setReason] = useState('');
  const [isBusy, setIsBusy] = useState(false);
  const [problem, setProblem] = useState<{ message: string; offered: Slot[] }>();
  const [done, setDone] = useState<string>();

  if (booking.isPending) {
    return (
      <p role="status" className="text-center text-ink-600">
        Loading your booking...
      </p>
    );
  }
  if (booking.error) {
    return (
      <div className="mx-auto grid max-w-xl gap-4">
        <Alert tone="error" title="We could not open this booking">
          {rpcErrorMessage(booking.error)}
        </Alert>
        <Link to={paths.demo} className={buttonStyles()}>
          Book a demo
        </Link>
      </div>
    );
  }
  const current = booking.data;
  const currentSlot = { startsAt: current.starts_at, endsAt: current.ends_at };
  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['demo-booking', token] }),
      queryClient.invalidateQueries({ queryKey: SLOTS_QUERY_KEY }),
    ]);
  };

  const move = async () => {
    if (!selected) return;
    setIsBusy(true);
    setProblem(undefined);
    try {
      await rescheduleBooking(token, selected.startsAt, timeZone);
      setDone(
        `Your demo now takes place on ${describeSlot(selected, timeZone)}. We emailed you an updated invite.`,
      );
      setMode('view');
      setSelected(undefined);
      await refresh();
    } catch (error) {
      const offered =
        isRpcError(error) && error.code === 'PT409'
          ? nextSlots((await slots.refetch()).data ?? [], selected.startsAt)
          : [];
      setProblem({ message: rpcErrorMessage(error), offered });
      setSelected(undefined);
    } finally {
      setIsBusy(false);
    }
  };

  const cancel = async () => {
    setIsBusy(true);
    setProblem(undefined);
    try {
      await cancelBooking(token, reason);
      setDone('Your demo is cancelled. We emailed you a note that removes it from your calendar.');
      setMode('view');
      await refresh();
    } catch (error) {
      setProblem({ message: rpcErrorMessage(error), offered: [] });
    } finally {
      setIsBusy(false);
    }
  };

  const isCancelled = current.status === 'cancelled';
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      {done ? <Alert tone="success">{done}</Alert> : null}
      <section
        aria-labelledby="your-booking"
        className="grid gap-3 rounded-2xl border border-sand-200 bg-white p-6 sm:p-8"
      >
        <h2 id="your-booking" className="text-xl font-semibold text-ink-900">
          {isCancelled ? 'Cancelled demo' : 'Your demo'}
        </h2>
        <p className={isCancelled ? 'text-lg text-ink-600 line-through' : 'text-lg text-ink-900'}>
          {describeSlot(currentSlot, timeZone)} ({timeZone.replaceAll('_', ' ')})
        </p>
        <p className="text-ink-600">
          Booked for {current.full_name} at {current.company} ({current.email}).
        </p>
        {isCancelled ? (
          <Link to={paths.demo} className={buttonStyles({ className: 'justify-self-start' })}>
            Book a new time
          </Link>
        ) : current.is_past ? (
          <p className="text-ink-700">
            This demo has started or taken place, so it can no longer change.
          </p>
        ) : (
          <div className="flex flex-wrap gap-3">
            <Button
              variant={mode === 'reschedule' ? 'primary' : 'secondary'}
              onClick={() => setMode('reschedule')}
            >
              Pick a new time
            </Button>
            <Button
              variant={mode === 'cancel' ? 'primary' : 'secondary'}
              onClick={() => setMode('cancel')}
            >
              Cancel this demo
            </Button>
          </div>
        )}
      </section>
      {problem ? (
        <Alert tone="error" title={problem.message}>
          {problem.offered.length > 0 ? (
            <div className="mt-2 flex flex-wrap gap-2">
              {problem.offered.map((slot) => (
                <button
                  key={slot.startsAt}
                  type="button"
                  onClick={() => setSelected(slot)}
                  className={OFFERED_SLOT}
                >
                  {describeSlot(slot, timeZone)}
                </button>
              ))}
            </div>
          ) : null}
        </Alert>
      ) : null}
      {mode === 'reschedule' && !isCancelled ? (
        <section
          aria-labelledby="new-time"
          className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-6 sm:p-8"
        >
          <h2 id="new-time" className="text-xl font-semibold text-ink-900">
            Choose a new time
          </h2>
          <SlotPicker
            idPrefix="reschedule"
            slots={slots.data}
            isLoading={slots.isPending}
            loadError={slots.error ? rpcErrorMessage(slots.error) : undefined}
            timeZone={timeZone}
            onTimeZoneChange={setTimeZone}
            selected={selected?.startsAt}
            onSelect={setSelected}
          />
          {selected ? (
            <Button
              size="lg"
              onClick={() => void move()}
              disabled={isBusy}
              aria-busy={isBusy || undefined}
            >
              {isBusy
                ? 'Moving your demo...'
                : `Move my demo to ${describeSlot(selected, timeZone)}`}
            </Button>
          ) : null}
        </section>
      ) : null}
      {mode === 'cancel' && !isCancelled ? (
        <section
          aria-labelledby="cancel-demo"
          className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-6 sm:p-8"
        >
          <h2 id="cancel-demo" className="text-xl font-semibold text-ink-900">
            Cancel your demo
          </h2>
          <Field id="cancel-reason" label="Would you tell us why? (optional)">
            <Textarea
              id="cancel-reason"
              value={reason}
              maxLength={500}
              onChange={(event) => setReason(event.target.value)}
              rows={3}
            />
          </Field>
          <Button
            size="lg"
            onClick={() => void cancel()}
            disabled={isBusy}
            aria-busy={isBusy || undefined}
          >
            {isBusy ? 'Cancelling...' : 'Yes, cancel my demo'}
          </Button>
        </section>
      ) : null}
    </div>
  );
}
