import { SlidersHorizontal, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/select';
import { cn } from '@/lib/cn';
import { SORT_LABELS } from '../model/call-list';
import { DIRECTION_LABELS, OUTCOME_LABELS, SENTIMENT_LABELS } from '../model/call-labels';
import {
  DIRECTIONS,
  OUTCOMES,
  SENTIMENTS,
  SORTS,
  clearedFilters,
  hasNarrowingFilters,
  type CallFilters,
} from '../model/filters';
import { CheckboxChips } from '@/components/ui/checkbox-chips';
import { NumberFilter, SearchBox } from './filter-inputs';
import { PeriodPicker } from './period-picker';

/** `values` with `value` added (in their order) or taken out. */
function toggled<T extends string>(values: readonly T[], selected: T[], value: T): T[] {
  return selected.includes(value)
    ? selected.filter((item) => item !== value)
    : values.filter((item) => item === value || selected.includes(item));
}

export function CallFiltersPanel({
  filters,
  onUpdate,
}: {
  filters: CallFilters;
  /** Changes the filters from their latest value (two quick clicks both count). */
  onUpdate: (update: (current: CallFilters) => CallFilters) => void;
}) {
  const set = <K extends keyof CallFilters>(key: K, value: CallFilters[K]) =>
    onUpdate((current) => ({ ...current, [key]: value }));
  const id = useId();
  const [isOpen, setIsOpen] = useState(false);
  const narrowing =
    filters.outcome.length +
    filters.sentiment.length +
    (filters.direction ? 1 : 0) +
    (filters.number ? 1 : 0);
  const panelId = `${id}-panel`;
  return (
    <section
      aria-label="Filters"
      className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-end gap-3">
        <SearchBox
          value={filters.q}
          onChange={(q) => set('q', q)}
          className="min-w-0 flex-[1_1_16rem]"
        />
        <div className="grid min-w-0 flex-[1_1_9rem] gap-1.5 md:flex-[0_1_12rem]">
          <label htmlFor={`${id}-sort`} className="text-sm font-semibold text-ink-900">
            Sort
          </label>
          <Select
            id={`${id}-sort`}
            value={filters.sort}
            onChange={(event) => {
              const sort = SORTS.find((value) => value === event.target.value);
              if (sort) set('sort', sort);
            }}
          >
            {SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {SORT_LABELS[sort]}
              </option>
            ))}
          </Select>
        </div>
        <Button
          variant="secondary"
          className="h-11 md:hidden"
          aria-expanded={isOpen}
          aria-controls={panelId}
          onClick={() => setIsOpen(!isOpen)}
        >
          <SlidersHorizontal aria-hidden="true" className="size-4" />
          {isOpen ? 'Hide filters' : 'Filters'}
          {narrowing > 0 ? <span className="sr-only">, {narrowing} set</span> : null}
          {narrowing > 0 ? (
            <span
              aria-hidden="true"
              className="rounded-full bg-azure-700 px-1.5 text-xs font-bold text-white"
            >
              {narrowing}
            </span>
          ) : null}
        </Button>
      </div>
      <div id={panelId} className={cn('gap-5', isOpen ? 'grid' : 'hidden md:grid')}>
        <div className="flex flex-wrap items-start gap-x-6 gap-y-4">
          <PeriodPicker
            period={filters.period}
            onChange={(period) => set('period', period)}
            hasLabel
          />
          <div className="grid w-full gap-1.5 sm:w-44">
            <label htmlFor={`${id}-direction`} className="text-sm font-semibold text-ink-900">
              Direction
            </label>
            <Select
              id={`${id}-direction`}
              value={filters.direction ?? ''}
              onChange={(event) =>
                set('direction', DIRECTIONS.find((value) => value === event.target.value) ?? null)
              }
            >
              <option value="">All directions</option>
              {DIRECTIONS.map((direction) => (
                <option key={direction} value={direction}>
                  {DIRECTION_LABELS[direction]}
                </option>
              ))}
            </Select>
          </div>
          <NumberFilter
            value={filters.number}
            onChange={(number) => set('number', number)}
            className="w-full sm:w-60"
          />
        </div>
        <div className="flex flex-wrap gap-x-8 gap-y-4">
          <CheckboxChips
            legend="Outcome"
            values={OUTCOMES}
            labels={OUTCOME_LABELS}
            selected={filters.outcome}
            onToggle={(outcome) =>
              onUpdate((current) => ({
                ...current,
                outcome: toggled(OUTCOMES, current.outcome, outcome),
              }))
            }
          />
          <CheckboxChips
            legend="Sentiment"
            values={SENTIMENTS}
            labels={SENTIMENT_LABELS}
            selected={filters.sentiment}
            onToggle={(sentiment) =>
              onUpdate((current) => ({
                ...current,
                sentiment: toggled(SENTIMENTS, current.sentiment, sentiment),
              }))
            }
          />
        </div>
      </div>
      {hasNarrowingFilters(filters) ? (
        <div>
          <Button variant="ghost" onClick={() => onUpdate(clearedFilters)}>
            <X aria-hidden="true" className="size-4" />
            Clear filters
          </Button>
        </div>
      ) : null}
    </section>
  );
}
