import { useRef, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import { cn } from '@/lib/cn';
import {
  parseApplicationFilter,
  parsePartnerFilters,
  parsePartnersTab,
  type ApplicationFilter,
  type PartnerFilters,
  type PartnersTab,
} from '../model/partners';
import { ApplicationList } from './application-list';
import { PartnerList } from './partner-list';

const TABS: { id: PartnersTab; label: string }[] = [
  { id: 'applications', label: 'Applications' },
  { id: 'partners', label: 'Partners' },
];

/** /admin/partners: applications to review and the partners, as two tabs kept in the URL. */
export function PartnerAdmin() {
  const [params, setParams] = useSearchParams();
  const tab = parsePartnersTab(params);
  const tabRefs = useRef<Record<PartnersTab, HTMLButtonElement | null>>({
    applications: null,
    partners: null,
  });

  const update = (change: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    change(next);
    setParams(next, { replace: true });
  };
  const selectTab = (id: PartnersTab) =>
    update((next) => {
      if (id === 'applications') next.delete('tab');
      else next.set('tab', id);
    });
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const other = tab === 'applications' ? 'partners' : 'applications';
    selectTab(other);
    tabRefs.current[other]?.focus();
  };
  const setApplicationFilter = (filter: ApplicationFilter) =>
    update((next) => {
      if (filter === 'pending') next.delete('status');
      else next.set('status', filter);
    });
  const setPartnerFilters = (filters: PartnerFilters) =>
    update((next) => {
      if (filters.search) next.set('q', filters.search);
      else next.delete('q');
      if (filters.status) next.set('partner_status', filters.status);
      else next.delete('partner_status');
    });

  return (
    <div className="grid gap-6">
      <div
        role="tablist"
        aria-label="Partner views"
        className="inline-flex w-fit gap-1 rounded-lg bg-sand-100 p-1"
        onKeyDown={onKeyDown}
      >
        {TABS.map((option) => (
          <button
            key={option.id}
            ref={(element) => {
              tabRefs.current[option.id] = element;
            }}
            type="button"
            role="tab"
            id={`partners-tab-${option.id}`}
            aria-selected={tab === option.id}
            aria-controls={`partners-panel-${option.id}`}
            tabIndex={tab === option.id ? 0 : -1}
            onClick={() => selectTab(option.id)}
            className={cn(
              'rounded-md px-4 py-2 text-sm font-semibold',
              tab === option.id
                ? 'bg-white text-ink-900 shadow-xs'
                : 'text-ink-600 hover:text-ink-900',
            )}
          >
            {option.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`partners-panel-${tab}`} aria-labelledby={`partners-tab-${tab}`}>
        {tab === 'applications' ? (
          <ApplicationList
            filter={parseApplicationFilter(params)}
            onFilter={setApplicationFilter}
          />
        ) : (
          <PartnerList filters={parsePartnerFilters(params)} onFilters={setPartnerFilters} />
        )}
      </div>
    </div>
  );
}
