import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { buttonStyles } from '@/components/ui/button-styles';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { rpcErrorMessage } from '@/lib/forms/rpc-error';
import { useHydrated } from '@/lib/use-hydrated';
import { fetchSlots, type BookingReceipt } from '../api/scheduler';
import type { BookingPrefill, BookingValues } from '../model/booking';
import { describeSlot, detectTimeZone, nextSlots, type Slot } from '../model/slots';
import { BookingForm } from './booking-form';
import { SlotPicker } from './slot-picker';

/** An offered slot: its full date wraps on a phone instead of running off the screen. */
export const OFFERED_SLOT =
  'min-h-10 rounded-lg bg-white px-4 py-2 text-left text-sm font-semibold text-ink-900 ring-1 ring-sand-200 ring-inset hover:bg-sand-100';

export const SLOTS_QUERY_KEY = ['demo-slots'] as const;

export function useSlots() {
  const isHydrated = useHydrated();
  return useQuery({
    queryKey: SLOTS_QUERY_KEY,
    queryFn: fetchSlots,
    enabled: isHydrated,
    staleTime: 30_000,
  });
}

/** The visitor's zone once in the browser (the prerendered page has none yet). */
export function useVisitorTimeZone(initial?: string): [string, (zone: string) => void] {
  const isHydrated = useHydrated();
  const [chosen, setChosen] = useState<string | undefined>(initial);
  return [chosen ?? (isHydrated ? detectTimeZone() : 'UTC'), setChosen];
}

/** Pick a slot, give your details, get the confirmation; a lost race offers the next slots. */
export function DemoScheduler({ prefill }: { prefill?: BookingPrefill }) {
  const queryClient = useQueryClient();
  const slots = useSlots();
  const [timeZone, setTimeZone] = useVisitorTimeZone();
  const [selected, setSelected] = useState<Slot>();
  const [conflict, setConflict] = useState<{ message: string; offered: Slot[] }>();
  const [booked, setBooked] = useState<BookingReceipt>();
  // What the visitor typed before losing a slot to someone else, to start the next form with.
  const [draft, setDraft] = useState<BookingValues>();
  const formHeading = useRef<HTMLHeadingElement>(null);
  const conflictNotice = useRef<HTMLDivElement>(null);
  // On a phone the form was below the slots: bring the news and the next slots into view.
  useEffect(() => {
    if (conflict) conflictNotice.current?.focus();
  }, [conflict]);

  const choose = (slot: Slot) => {
    setSelected(slot);
    setConflict(undefined);
    requestAnimationFrame(() => formHeading.current?.focus({ preventScroll: false }));
  };

  const handleTaken = async (message: string, values: BookingValues) => {
    setDraft(values);
    const taken = selected;
    setSelected(undefined);
    // Fresh from the server: the cached list may hold other slots taken since.
    const fresh = await queryClient
      .fetchQuery({ queryKey: SLOTS_QUERY_KEY, queryFn: fetchSlots, staleTime: 0 })
      .catch(() => queryClient.getQueryData<Slot[]>(SLOTS_QUERY_KEY) ?? []);
    setConflict({ message, offered: taken ? nextSlots(fresh, taken.startsAt) : fresh.slice(0, 3) });
  };

  if (booked) return <BookingConfirmed receipt={booked} timeZone={timeZone} />;

  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <section aria-labelledby="pick-a-time" className="grid content-start gap-4">
        <h2 id="pick-a-time" className="text-xl font-semibold text-ink-900">
          1. Pick a time
        </h2>
        {conflict ? (
          <div ref={conflictNotice} tabIndex={-1} className="scroll-mt-24 outline-none">
            <Alert tone="error" title={conflict.message}>
              {conflict.offered.length > 0 ? (
                <div className="mt-2 grid gap-2">
                  <p>The next free times:</p>
                  <div className="flex flex-wrap gap-2">
                    {conflict.offered.map((slot) => (
                      <button
                        key={slot.startsAt}
                        type="button"
                        onClick={() => choose(slot)}
                        className={OFFERED_SLOT}
                      >
                        {describeSlot(slot, timeZone)}
                      </button>
                    ))}
                  </div>
                </div>
              ) : null}
            </Alert>
          </div>
        ) : null}
        <SlotPicker
          slots={slots.data}
          isLoading={slots.isPending}
          loadError={slots.error ? rpcErrorMessage(slots.error) : undefined}
          timeZone={timeZone}
          onTimeZoneChange={setTimeZone}
          selected={selected?.startsAt}
          onSelect={choose}
        />
      </section>
      <section aria-labelledby="your-details" className="grid content-start gap-4">
        <h2
          id="your-details"
          ref={formHeading}
          tabIndex={-1}
          className="text-xl font-semibold text-ink-900 outline-none"
        >
          2. Your details
        </h2>
        {selected ? (
          <BookingForm
            startsAt={selected.startsAt}
            slotLabel={`${describeSlot(selected, timeZone)} (${timeZone.replaceAll('_', ' ')})`}
            timeZone={timeZone}
            prefill={draft ?? prefill}
            onBooked={(receipt) => {
              setBooked(receipt);
              void queryClient.invalidateQueries({ queryKey: SLOTS_QUERY_KEY });
            }}
            onSlotTaken={(message, values) => void handleTaken(message, values)}
          />
        ) : (
          // Names the step, not a place: the slots are beside this on a laptop, above it on a phone.
          <p className="rounded-lg border border-dashed border-sand-200 px-4 py-6 text-ink-600">
            Once you pick a time in step 1, we ask here for your name, work email and company. It
            takes under a minute.
          </p>
        )}
      </section>
    </div>
  );
}

function BookingConfirmed({ receipt, timeZone }: { receipt: BookingReceipt; timeZone: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const slot = { startsAt: receipt.starts_at, endsAt: receipt.ends_at };
  return (
    <section
      aria-labelledby="booking-confirmed"
      className="mx-auto grid max-w-2xl gap-5 rounded-2xl border border-mint-200 bg-mint-50 p-6 sm:p-8"
    >
      <CalendarCheck aria-hidden="true" className="size-10 text-mint-600" />
      <h2
        id="booking-confirmed"
        ref={heading}
        tabIndex={-1}
        className="text-2xl font-bold text-ink-900 outline-none"
      >
        You are booked
      </h2>
      <p className="text-lg text-ink-800">
        {describeSlot(slot, timeZone)} ({timeZone.replaceAll('_', ' ')})
      </p>
      <p className="text-ink-700">
        We sent a calendar invite to <strong className="wrap-anywhere">{receipt.email}</strong>.
        That email holds your link to reschedule or cancel at any time, without an account.
      </p>
      <p className="text-sm text-ink-600">
        Nothing after a few minutes? Check your spam folder. If the address is wrong, write to{' '}
        <a href={`mailto:${site.salesEmail}`} className="font-semibold text-azure-700 underline">
          {site.salesEmail}
        </a>{' '}
        and we will correct it.
      </p>
      <div className="flex flex-wrap gap-3">
        <Link to={`${paths.home}#audio-demo`} className={buttonStyles({ variant: 'secondary' })}>
          Hear a sample call meanwhile
        </Link>
      </div>
    </section>
  );
}
