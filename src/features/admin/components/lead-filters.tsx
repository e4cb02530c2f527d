import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { CheckboxChips } from '@/components/ui/checkbox-chips';
import { Field, fieldProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import {
  LEAD_STATUSES,
  LEAD_STATUS_LABELS,
  OWNER_FILTERS,
  OWNER_FILTER_LABELS,
  emptyLeadFilters,
  hasLeadFilters,
  type LeadFilters,
  type OwnerFilter,
} from '../model/leads';

const SEARCH_PAUSE_MS = 300;

/** The leads filters; every change goes to the URL (the search after a pause). */
export function LeadFiltersPanel({
  filters,
  onChange,
}: {
  filters: LeadFilters;
  onChange: (filters: LeadFilters) => void;
}) {
  const [typed, setTyped] = useState(filters.search);
  const [shownSearch, setShownSearch] = useState(filters.search);
  // The URL changed under the box (back, clear): show what it holds.
  if (filters.search !== shownSearch) {
    setShownSearch(filters.search);
    setTyped(filters.search);
  }

  useEffect(() => {
    if (typed === filters.search) return;
    const timer = setTimeout(() => onChange({ ...filters, search: typed }), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed, filters, onChange]);

  return (
    <form
      role="search"
      aria-label="Filter leads"
      onSubmit={(event) => {
        event.preventDefault();
        onChange({ ...filters, search: typed });
      }}
      className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-4 sm:p-5 lg:grid-cols-[1fr_auto] lg:items-end"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="lead-search" label="Search">
          <Input
            {...fieldProps('lead-search')}
            type="search"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            placeholder="Company, name or email"
            maxLength={120}
            autoComplete="off"
          />
        </Field>
        <Field id="lead-owner" label="Owner">
          <Select
            id="lead-owner"
            value={filters.owner}
            onChange={(event) => onChange({ ...filters, owner: event.target.value as OwnerFilter })}
          >
            {OWNER_FILTERS.map((owner) => (
              <option key={owner} value={owner}>
                {OWNER_FILTER_LABELS[owner]}
              </option>
            ))}
          </Select>
        </Field>
        <div className="sm:col-span-2">
          <CheckboxChips
            legend="Status"
            values={LEAD_STATUSES}
            labels={LEAD_STATUS_LABELS}
            selected={filters.statuses}
            onToggle={(status) =>
              onChange({
                ...filters,
                statuses: filters.statuses.includes(status)
                  ? filters.statuses.filter((known) => known !== status)
                  : [...filters.statuses, status],
              })
            }
          />
        </div>
        <label className="flex items-center gap-2 text-sm font-medium text-ink-900 sm:col-span-2">
          <input
            type="checkbox"
            checked={filters.isPartnerOnly}
            onChange={(event) => onChange({ ...filters, isPartnerOnly: event.target.checked })}
            className="size-4 accent-azure-700"
          />
          Referred by a partner only
        </label>
      </div>
      {hasLeadFilters(filters) ? (
        <Button variant="secondary" onClick={() => onChange(emptyLeadFilters)}>
          Clear filters
        </Button>
      ) : null}
    </form>
  );
}
