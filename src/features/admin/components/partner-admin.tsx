import { useSearchParams } from 'react-router';
import { parseRegistrationFilter, type RegistrationFilter } from '../model/deal-registrations';
import {
  parseApplicationFilter,
  parsePartnerFilters,
  parsePartnersTab,
  type ApplicationFilter,
  type PartnerFilters,
  type PartnersTab,
} from '../model/partners';
import { ApplicationList } from './application-list';
import { PartnerAssets } from './partner-assets';
import { PartnerList } from './partner-list';
import { RegistrationList } from './registration-list';
import { UrlTabs } from './url-tabs';

const TABS: { id: PartnersTab; label: string }[] = [
  { id: 'applications', label: 'Applications' },
  { id: 'partners', label: 'Partners' },
  { id: 'registrations', label: 'Deal registrations' },
  { id: 'assets', label: 'Assets' },
];

/**
 * /admin/partners: applications to review, the partners, the deals they
 * register and the assets they download, as tabs kept in the URL.
 */
export function PartnerAdmin() {
  const [params, setParams] = useSearchParams();
  const tab = parsePartnersTab(params);

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
  const setRegistrationFilter = (filter: RegistrationFilter) =>
    update((next) => {
      if (filter === 'pending') next.delete('registration_status');
      else next.set('registration_status', filter);
    });

  return (
    <UrlTabs
      label="Partner views"
      idPrefix="partners"
      tabs={TABS}
      selected={tab}
      onSelect={selectTab}
    >
      {tab === 'applications' ? (
        <ApplicationList filter={parseApplicationFilter(params)} onFilter={setApplicationFilter} />
      ) : tab === 'partners' ? (
        <PartnerList filters={parsePartnerFilters(params)} onFilters={setPartnerFilters} />
      ) : tab === 'registrations' ? (
        <RegistrationList
          filter={parseRegistrationFilter(params)}
          onFilter={setRegistrationFilter}
        />
      ) : (
        <PartnerAssets />
      )}
    </UrlTabs>
  );
}
