import { useWatch, type FieldErrors, type UseFormReturn } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { WEEKDAYS, WEEKDAY_NAMES, type AgentFormValues } from '../model/agent-settings';

/** Narrower than a text field, so both times fit on a phone's row. */
const TIME_INPUT =
  'h-11 w-[7.5rem] rounded-lg border border-sand-200 bg-white px-2 text-sm text-ink-900 shadow-xs hover:border-ink-300 aria-invalid:border-danger-700 disabled:bg-sand-100 disabled:text-sand-700 sm:w-36 sm:text-base';

/**
 * One row per weekday: open or closed, and from when to when, in the
 * workspace's time zone. Monday's hours can be copied to the other weekdays.
 */
export function BusinessHoursEditor({
  form,
  timeZone,
  isDisabled,
  error,
}: {
  form: UseFormReturn<AgentFormValues>;
  timeZone: string;
  isDisabled: boolean;
  /** A refusal of the whole schedule (from the database). */
  error?: string;
}) {
  const hours = useWatch({ control: form.control, name: 'businessHours' });
  const dayErrors = form.formState.errors.businessHours as
    FieldErrors<AgentFormValues['businessHours']> | undefined;

  const copyMonday = () => {
    for (const day of ['tue', 'wed', 'thu', 'fri'] as const) {
      form.setValue(`businessHours.${day}`, { ...hours.mon }, { shouldDirty: true });
    }
  };

  return (
    <fieldset aria-describedby="business-hours-hint">
      <legend className="text-sm font-semibold text-ink-900">Business hours</legend>
      <p id="business-hours-hint" className="mt-1 text-sm text-ink-600">
        In your workspace’s time zone, <strong className="font-semibold">{timeZone}</strong>. A
        closing time of midnight (00:00, or 12:00 AM) keeps it open to the end of the day.
      </p>
      <div className="mt-3 grid gap-2">
        {WEEKDAYS.map((day) => {
          const isOpen = hours[day].isOpen;
          const openError = dayErrors?.[day]?.open?.message;
          const closeError = dayErrors?.[day]?.close?.message;
          const name = WEEKDAY_NAMES[day];
          return (
            <div
              key={day}
              role="group"
              aria-label={name}
              className="grid gap-x-3 gap-y-2 rounded-lg border border-sand-200 bg-white px-3 py-2 sm:grid-cols-[9rem_1fr] sm:items-center"
            >
              <label className="flex items-center gap-2 text-sm font-medium text-ink-900">
                <input
                  type="checkbox"
                  disabled={isDisabled}
                  {...form.register(`businessHours.${day}.isOpen`)}
                  className="size-4 accent-azure-700"
                />
                {name}
              </label>
              {isOpen ? (
                <div className="flex flex-wrap items-center gap-2">
                  <input
                    type="time"
                    className={TIME_INPUT}
                    aria-label={`${name} opens at`}
                    aria-invalid={openError ? true : undefined}
                    disabled={isDisabled}
                    {...form.register(`businessHours.${day}.open`)}
                  />
                  <span aria-hidden="true" className="text-ink-600">
                    to
                  </span>
                  <input
                    type="time"
                    className={TIME_INPUT}
                    aria-label={`${name} closes at`}
                    aria-invalid={closeError ? true : undefined}
                    disabled={isDisabled}
                    {...form.register(`businessHours.${day}.close`)}
                  />
                </div>
              ) : (
                <p className="text-sm text-ink-600">Closed</p>
              )}
              {openError || closeError ? (
                <p className="text-sm font-medium text-danger-700 sm:col-span-2">
                  {name}: {openError ?? closeError}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
      {error ? (
        <p role="alert" className="mt-2 text-sm font-medium text-danger-700">
          {error}
        </p>
      ) : null}
      {!isDisabled ? (
        <Button variant="ghost" className="mt-2" onClick={copyMonday}>
          Copy Monday’s hours to Tuesday–Friday
        </Button>
      ) : null}
    </fieldset>
  );
}
