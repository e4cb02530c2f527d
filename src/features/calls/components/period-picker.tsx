import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import {
  MAX_RANGE_DAYS,
  PRESETS,
  isValidRange,
  localDay,
  periodRange,
  type Period,
  type Preset,
} from '../model/filters';

const PRESET_LABELS: Record<Preset, string> = {
  '7d': '7 days',
  '30d': '30 days',
  '90d': '90 days',
};

const segmentStyles = (isActive: boolean) =>
  cn(
    'h-9 rounded-md px-3 text-sm font-semibold whitespace-nowrap transition-colors',
    isActive
      ? 'bg-azure-700 text-white shadow-sm'
      : 'text-ink-700 hover:bg-sand-100 hover:text-ink-900',
  );

/**
 * The period of the numbers and lists: the last 7, 30 or 90 days, or two
 * days of the visitor's choosing (both included).
 */
export function PeriodPicker({
  period,
  onChange,
  hasLabel = false,
}: {
  period: Period;
  onChange: (period: Period) => void;
  /** Shows 'Period' above the choices, as a filter among labelled filters. */
  hasLabel?: boolean;
}) {
  const labelId = useId();
  const [isCustomOpen, setIsCustomOpen] = useState(period.kind === 'range');
  const isCustom = period.kind === 'range' || isCustomOpen;
  return (
    <div className="grid gap-3">
      {hasLabel ? (
        <p id={labelId} className="-mb-1.5 text-sm font-semibold text-ink-900">
          Period
        </p>
      ) : null}
      <div
        role="group"
        aria-label={hasLabel ? undefined : 'Period'}
        aria-labelledby={hasLabel ? labelId : undefined}
        className="inline-flex w-fit flex-wrap gap-1 rounded-lg bg-white p-1 ring-1 ring-sand-200 ring-inset"
      >
        {PRESETS.map((preset) => {
          const isActive = !isCustom && period.kind === 'preset' && period.preset === preset;
          return (
            <button
              key={preset}
              type="button"
              aria-pressed={isActive}
              className={segmentStyles(isActive)}
              onClick={() => {
                setIsCustomOpen(false);
                onChange({ kind: 'preset', preset });
              }}
            >
              <span className="sr-only">Last {PRESET_LABELS[preset]}</span>
              <span aria-hidden="true">{PRESET_LABELS[preset]}</span>
            </button>
          );
        })}
        <button
          type="button"
          aria-pressed={isCustom}
          className={segmentStyles(isCustom)}
          onClick={() => setIsCustomOpen(true)}
        >
          <span className="sr-only">Custom period</span>
          <span aria-hidden="true">Custom</span>
        </button>
      </div>
      {isCustom ? (
        <CustomRange
          // A new period from the URL starts the form afresh.
          key={period.kind === 'range' ? `${period.from}/${period.to}` : 'new'}
          period={period}
          onApply={onChange}
        />
      ) : null}
    </div>
  );
}

function CustomRange({ period, onApply }: { period: Period; onApply: (period: Period) => void }) {
  const id = useId();
  const initial = periodRange(period);
  const [from, setFrom] = useState(initial.fromDay);
  const [to, setTo] = useState(initial.toDay);
  const [error, setError] = useState('');
  const today = localDay(new Date());

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!from || !to) return setError('Choose the first and the last day.');
    if (from > to) return setError('The first day must be on or before the last day.');
    if (!isValidRange(from, to)) return setError(`Choose at most ${MAX_RANGE_DAYS} days.`);
    setError('');
    onApply({ kind: 'range', from, to });
  };

  const errorId = `${id}-error`;
  const describedBy = error ? errorId : undefined;
  return (
    <form
      onSubmit={handleSubmit}
      noValidate
      aria-label="Custom period"
      className="flex flex-wrap items-end gap-3"
    >
      <div className="grid gap-1.5">
        <label htmlFor={`${id}-from`} className="text-sm font-semibold text-ink-900">
          From
        </label>
        <Input
          id={`${id}-from`}
          type="date"
          value={from}
          max={today}
          onChange={(event) => setFrom(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="w-40"
        />
      </div>
      <div className="grid gap-1.5">
        <label htmlFor={`${id}-to`} className="text-sm font-semibold text-ink-900">
          To
        </label>
        <Input
          id={`${id}-to`}
          type="date"
          value={to}
          onChange={(event) => setTo(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="w-40"
        />
      </div>
      <Button type="submit" variant="secondary" className="h-11">
        Show period
      </Button>
      {error ? (
        <p id={errorId} className="w-full text-sm font-medium text-danger-700">
          {error}
        </p>
      ) : null}
    </form>
  );
}
