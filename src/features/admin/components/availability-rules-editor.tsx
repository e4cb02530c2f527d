import { useQueryClient } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { showToast } from '@/components/ui/toaster';
import { isRpcError, rpcErrorMessage } from '@/lib/forms/rpc-error';
import { availabilityKeys, saveAvailability } from '../api/availability';
import {
  WEEK,
  WEEKDAY_NAMES,
  rangeErrorTarget,
  type AvailabilityRange,
} from '../model/availability';

interface RangeError {
  key: string;
  field: 'weekday' | 'start_time' | 'end_time';
  message: string;
}

/**
 * The weekly hours, per weekday, in the scheduler's time zone, saved whole.
 * SQL refuses overlaps and an end before the start, naming the range.
 */
export function AvailabilityRulesEditor({
  initial,
  timeZone,
}: {
  initial: AvailabilityRange[];
  timeZone: string;
}) {
  const queryClient = useQueryClient();
  const [ranges, setRanges] = useState(initial);
  const [rangeError, setRangeError] = useState<RangeError | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  const update = (key: string, changes: Partial<AvailabilityRange>) => {
    setRanges((current) =>
      current.map((range) => (range.key === key ? { ...range, ...changes } : range)),
    );
  };

  const handleSave = async () => {
    setRangeError(null);
    setFormError(null);
    setIsSaving(true);
    try {
      await saveAvailability(ranges);
      await queryClient.invalidateQueries({ queryKey: availabilityKeys.rules });
      void showToast('success', 'Weekly hours saved. /demo shows them now.');
    } catch (error) {
      const target =
        isRpcError(error) && error.code === '22023' ? rangeErrorTarget(error.details) : null;
      const range = target ? ranges[target.index] : undefined;
      if (target && range) {
        setRangeError({ key: range.key, field: target.field, message: rpcErrorMessage(error) });
      } else {
        setFormError(rpcErrorMessage(error));
      }
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <section
      aria-labelledby="weekly-hours-heading"
      className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <div>
        <h2 id="weekly-hours-heading" className="text-lg font-semibold text-ink-900">
          Weekly hours
        </h2>
        <p className="mt-1 text-sm text-ink-600">
          When demos can start, in the scheduler’s time zone ({timeZone}). A day without hours has
          no demos.
        </p>
      </div>
      <ul className="grid gap-3">
        {WEEK.map((weekday) => {
          const dayRanges = ranges.filter((range) => range.weekday === weekday);
          const dayName = WEEKDAY_NAMES[weekday]!;
          return (
            <li
              key={weekday}
              className="grid gap-2 border-t border-sand-200 pt-3 first:border-t-0 first:pt-0 sm:grid-cols-[8rem_1fr]"
            >
              <h3 className="pt-2 text-sm font-semibold text-ink-900">{dayName}</h3>
              <div className="grid gap-2">
                {dayRanges.length === 0 ? (
                  <p className="pt-2 text-sm text-ink-600">No demos</p>
                ) : null}
                {dayRanges.map((range, index) => {
                  const error = rangeError?.key === range.key ? rangeError : null;
                  const errorId = `range-${range.key}-error`;
                  const label = `${dayName} hours ${index + 1}`;
                  return (
                    <div key={range.key} role="group" aria-label={label} className="grid gap-1">
                      <div className="grid max-w-md grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] items-end gap-2">
                        {(
                          [
                            ['start_time', 'From', range.startTime, 'startTime'],
                            ['end_time', 'Until', range.endTime, 'endTime'],
                          ] as const
                        ).map(([field, word, value, property]) => {
                          const id = `range-${range.key}-${field}`;
                          return (
                            <div key={field} className="grid gap-1">
                              <label htmlFor={id} className="text-xs font-semibold text-ink-600">
                                {word}
                                <span className="sr-only"> ({label})</span>
                              </label>
                              <Input
                                id={id}
                                type="time"
                                step={60}
                                value={value}
                                aria-invalid={error?.field === field || undefined}
                                aria-describedby={error ? errorId : undefined}
                                onChange={(event) =>
                                  update(range.key, { [property]: event.target.value })
                                }
                              />
                            </div>
                          );
                        })}
                        <Button
                          variant="ghost"
                          aria-label={`Remove ${label}`}
                          onClick={() =>
                            setRanges((current) => current.filter((item) => item.key !== range.key))
                          }
                        >
                          <Trash2 aria-hidden="true" className="size-4" />
                        </Button>
                      </div>
                      {error ? (
                        <p id={errorId} className="text-sm font-medium text-danger-700">
                          {error.message}
                        </p>
                      ) : null}
                    </div>
                  );
                })}
                <div>
                  <Button
                    variant="ghost"
                    onClick={() =>
                      setRanges((current) => [
                        ...current,
                        {
                          key: crypto.randomUUID(),
                          weekday,
                          startTime: '09:00',
                          endTime: '17:00',
                        },
                      ])
                    }
                  >
                    <Plus aria-hidden="true" className="size-4" />
                    Add hours on {dayName}
                  </Button>
                </div>
              </div>
            </li>
          );
        })}
      </ul>
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      <div>
        <Button
          onClick={() => void handleSave()}
          disabled={isSaving}
          aria-busy={isSaving || undefined}
        >
          {isSaving ? 'Saving…' : 'Save weekly hours'}
        </Button>
      </div>
    </section>
  );
}
