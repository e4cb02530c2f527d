import { useInfiniteQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { commissionsQuery } from '../api/commissions';
import {
  parseCommissionFilters,
  parseCommissionsTab,
  writeCommissionFilters,
  type CommissionFilters,
  type CommissionsTab,
} from '../model/commissions';
import { CommissionList } from './commission-list';
import { PayoutBoard } from './payout-board';
import { UrlTabs } from './url-tabs';

const PENDING: CommissionFilters = { status: 'pending', partnerId: null };

/** /admin/commissions: commissions to decide and payouts to make, as two tabs kept in the URL. */
export function CommissionAdmin() {
  const [params, setParams] = useSearchParams();
  const tab = parseCommissionsTab(params);
  // The pending count for the tab's label, from the default list (shared with it when shown).
  const pending = useInfiniteQuery({
    ...commissionsQuery(PENDING),
    select: (data) => data.pages[0]?.pending,
  });

  const update = (change: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    change(next);
    setParams(next, { replace: true });
  };

  return (
    <UrlTabs<CommissionsTab>
      label="Commission views"
      idPrefix="commissions"
      tabs={[
        {
          id: 'commissions',
          label: (
            <>
              Commissions
              {pending.data ? (
                <span className="ml-2 rounded-full bg-azure-700 px-2 py-0.5 text-xs text-white tabular-nums">
                  {pending.data}
                  <span className="sr-only"> waiting for approval</span>
                </span>
              ) : null}
            </>
          ),
        },
        { id: 'payouts', label: 'Payouts' },
      ]}
      selected={tab}
      onSelect={(id) =>
        update((next) => {
          if (id === 'commissions') next.delete('tab');
          else next.set('tab', id);
        })
      }
    >
      {tab === 'commissions' ? (
        <CommissionList
          filters={parseCommissionFilters(params)}
          onFilters={(filters) => update((next) => writeCommissionFilters(next, filters))}
        />
      ) : (
        <PayoutBoard />
      )}
    </UrlTabs>
  );
}
