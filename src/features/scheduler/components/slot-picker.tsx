import { useMemo, useState } from 'react';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { cn } from '@/lib/cn';
import { useHydrated } from '@/lib/use-hydrated';
import { groupByDay, timeZones, type Slot } from '../model/slots';

export interface SlotPickerProps {
  slots: Slot[] | undefined;
  isLoading: boolean;
  loadError?: string;
  timeZone: string;
  onTimeZoneChange: (timeZone: string) => void;
  selected: string | undefined;
  onSelect: (slot: Slot) => void;
  /** Keeps ids unique when two pickers could be on one page. */
  idPrefix?: string;
}

/** A time-zone choice, the days with free slots, and the slots of the chosen day. */
export function SlotPicker({
  slots,
  isLoading,
  loadError,
  timeZone,
  onTimeZoneChange,
  selected,
  onSelect,
  idPrefix = 'slots',
}: SlotPickerProps) {
  // Before the code runs the zone is a placeholder: a choice then would be lost.
  const isHydrated = useHydrated();
  const days = useMemo(() => groupByDay(slots ?? [], timeZone), [slots, timeZone]);
  const zones = useMemo(() => timeZones(timeZone), [timeZone]);
  const [dayKey, setDayKey] = useState<string>();
  const selectedDay =
    days.find((day) => day.key === dayKey) ??
    days.find((day) => day.slots.some((slot) => slot.startsAt === selected)) ??
    days[0];

  return (
    <div className="grid gap-5">
      <Field
        id={`${idPrefix}-time-zone`}
        label="Your time zone"
        hint="Times below are shown in this zone."
      >
        <Select
          id={`${idPrefix}-time-zone`}
          aria-describedby={`${idPrefix}-time-zone-hint`}
          value={timeZone}
          disabled={!isHydrated}
          onChange={(event) => onTimeZoneChange(event.target.value)}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </option>
          ))}
        </Select>
      </Field>
      {isLoading ? (
        <div role="status" className="grid gap-3">
          <span className="sr-only">Loading free times</span>
          <div className="h-16 animate-pulse rounded-lg bg-sand-200/70 motion-reduce:animate-none" />
          <div className="h-32 animate-pulse rounded-lg bg-sand-200/70 motion-reduce:animate-none" />
        </div>
      ) : loadError ? (
        <p role="alert" className="text-danger-700">
          {loadError}
        </p>
      ) : days.length === 0 ? (
        <p className="text-ink-700">
          Every slot in the coming weeks is taken. Please write to us and we will find a time.
        </p>
      ) : (
        <>
          <div
            role="group"
            aria-label="Days with free times"
            className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-2"
          >
            {days.map((day) => (
              <button
                key={day.key}
                type="button"
                aria-pressed={day.key === selectedDay?.key}
                onClick={() => setDayKey(day.key)}
                className={cn(
                  'flex min-w-20 shrink-0 flex-col items-center rounded-lg px-3 py-2 text-sm ring-1 ring-inset',
                  day.key === selectedDay?.key
                    ? 'bg-ink-900 text-white ring-ink-900'
                    : 'bg-white text-ink-800 ring-sand-200 hover:bg-sand-100',
                )}
              >
                <span className="font-semibold">{day.label.split(' ')[0]}</span>
                <span>{day.label.split(' ').slice(1).join(' ')}</span>
              </button>
            ))}
          </div>
          {selectedDay ? (
            <fieldset className="grid gap-3">
              <legend className="mb-3 font-semibold text-ink-900">{selectedDay.longLabel}</legend>
              <div className="grid grid-cols-3 gap-2 sm:grid-cols-4">
                {selectedDay.slots.map((slot) => (
                  <button
                    key={slot.startsAt}
                    type="button"
                    aria-pressed={slot.startsAt === selected}
                    aria-label={`${slot.label} on ${selectedDay.longLabel}`}
                    onClick={() => onSelect(slot)}
                    className={cn(
                      'h-11 rounded-lg text-sm font-semibold ring-1 ring-inset tabular-nums',
                      slot.startsAt === selected
                        ? 'bg-azure-700 text-white ring-azure-700'
                        : 'bg-white text-azure-800 ring-azure-100 hover:bg-azure-50',
                    )}
                  >
                    {slot.label}
                  </button>
                ))}
              </div>
            </fieldset>
          ) : null}
        </>
      )}
    </div>
  );
}
