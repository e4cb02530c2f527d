import { usePrefetchInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/lib/auth/use-auth';
import { commissionFactsQuery, commissionsQuery, payoutsQuery } from '../api/commissions';
import { partnerAccountQuery, type PartnerAccount } from '../api/partner-account';
import {
  COMMISSION_STATES,
  COMMISSION_STATE_HINTS,
  COMMISSION_STATE_LABELS,
  stateFromSearch,
  statementMonths,
  totalsByCurrency,
  type CommissionState,
} from '../model/commissions';
import { CommissionLedger } from './commission-ledger';
import { LedgerTotals } from './ledger-totals';
import { PayoutList } from './payout-list';
import { StatementDownload } from './statement-download';

/** Totals, the ledger (state in the URL), payouts and monthly statements. */
export function CommissionsAndPayouts() {
  const { user } = useAuth();
  const account = useQuery(partnerAccountQuery(user!.id));
  if (account.isPending) return <Loading />;
  if (account.isError) {
    return (
      <QueryError
        what="your partner account"
        onRetry={() => void account.refetch()}
        isRetrying={account.isFetching}
      />
    );
  }
  if (!account.data) {
    return (
      <Alert tone="info" title="Partners see their commissions here">
        Your account is not a partner’s, so it has no commissions. Admins manage every partner’s
        commissions and payouts in the commissions admin.
      </Alert>
    );
  }
  return <PartnerMoney partner={account.data} />;
}

function Loading() {
  return (
    <div role="status" className="grid gap-4">
      <span className="sr-only">Loading your commissions…</span>
      <Skeleton className="h-28 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

function PartnerMoney({ partner }: { partner: PartnerAccount }) {
  const [params, setParams] = useSearchParams();
  const state = stateFromSearch(params);
  const facts = useQuery(commissionFactsQuery(partner.id));
  const payouts = useQuery(payoutsQuery(partner.id));
  // The ledger shows only once the totals are in; its first page is read beside them, not after.
  usePrefetchInfiniteQuery(commissionsQuery(partner.id, state));

  const setState = (next: CommissionState | null) => {
    const search = new URLSearchParams(params);
    if (next) search.set('state', next);
    else search.delete('state');
    setParams(search, { replace: true });
  };

  if (facts.isPending || payouts.isPending) return <Loading />;
  if (facts.isError || payouts.isError) {
    return (
      <QueryError
        what="your commissions"
        onRetry={() => {
          void facts.refetch();
          void payouts.refetch();
        }}
        isRetrying={facts.isFetching || payouts.isFetching}
      />
    );
  }

  const months = statementMonths(
    facts.data.map((fact) => fact.period),
    payouts.data.filter((payout) => payout.status === 'paid').map((payout) => payout.paid_on),
  );
  const totals = totalsByCurrency(facts.data);

  return (
    <div className="grid gap-10">
      {totals.length > 0 ? (
        <section aria-labelledby="totals-heading" className="grid gap-3">
          <h2 id="totals-heading" className="text-lg font-semibold text-ink-900">
            Your totals
          </h2>
          <LedgerTotals totals={totals} />
        </section>
      ) : null}

      <section aria-labelledby="ledger-heading" className="grid gap-4">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <h2 id="ledger-heading" className="text-lg font-semibold text-ink-900">
            Commissions
          </h2>
          {facts.data.length > 0 ? (
            <Field
              id="commission-state"
              label="Show"
              hint={state ? COMMISSION_STATE_HINTS[state] : undefined}
              className="w-full sm:w-72"
            >
              <Select
                id="commission-state"
                aria-describedby={state ? 'commission-state-hint' : undefined}
                value={state ?? ''}
                onChange={(event) =>
                  setState(
                    COMMISSION_STATES.find((option) => option === event.target.value) ?? null,
                  )
                }
              >
                <option value="">Every commission</option>
                {COMMISSION_STATES.map((option) => (
                  <option key={option} value={option}>
                    {COMMISSION_STATE_LABELS[option]}
                  </option>
                ))}
              </Select>
            </Field>
          ) : null}
        </div>
        <CommissionLedger partnerId={partner.id} state={state} onShowAll={() => setState(null)} />
      </section>

      <section aria-labelledby="payouts-heading" className="grid gap-4">
        <h2 id="payouts-heading" className="text-lg font-semibold text-ink-900">
          Payouts
        </h2>
        <PayoutList payouts={payouts.data} />
      </section>

      <section
        aria-labelledby="statements-heading"
        className="grid gap-3 rounded-2xl border border-sand-200 bg-white p-4 sm:p-6"
      >
        <div>
          <h2 id="statements-heading" className="text-lg font-semibold text-ink-900">
            Monthly statements
          </h2>
          <p className="mt-1 text-sm text-ink-600">
            A spreadsheet (CSV) of the commissions on deals won in a month, whatever their state
            now, and the payouts paid in it, with totals per currency.
          </p>
        </div>
        <StatementDownload months={months} partner={partner} />
      </section>
    </div>
  );
}
