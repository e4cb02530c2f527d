import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryError } from '@/components/data/query-error';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { showToast } from '@/components/ui/toaster';
import { rpcErrorMessage } from '@/lib/forms/rpc-error';
import {
  cancelPayout,
  commissionsKeys,
  createPayout,
  markPayoutPaid,
  payableBalancesQuery,
  payoutsQuery,
} from '../api/commissions';
import {
  formatDate,
  formatMoney,
  type MarkPaidValues,
  type PayableBalance,
  type PayoutRow,
} from '../model/commissions';
import { formatDay } from '../model/partners';
import { MarkPaidDialog } from './mark-paid-dialog';

const section = 'grid gap-4';
const sectionTitle = 'text-lg font-semibold text-ink-900';
const empty = 'rounded-2xl border border-dashed border-sand-200 bg-white p-6 text-ink-700';

/**
 * Paying partners, in the order it happens: what each is owed (approved
 * commissions) → a payout gathering them → marked paid with the bank's
 * reference → the history.
 */
export function PayoutBoard() {
  return (
    <div className="grid gap-10">
      <OwedSection />
      <PendingPayoutsSection />
      <PaidPayoutsSection />
    </div>
  );
}

function OwedSection() {
  const balances = useQuery(payableBalancesQuery());
  return (
    <section aria-labelledby="owed-title" className={section}>
      <div>
        <h2 id="owed-title" className={sectionTitle}>
          Owed to partners
        </h2>
        <p className="text-sm text-ink-600">
          Approved commissions not yet in a payout, per partner and currency, oldest first.
        </p>
      </div>
      {balances.isPending ? (
        <div role="status">
          <span className="sr-only">Loading what partners are owed…</span>
          <Skeleton className="h-24 w-full" />
        </div>
      ) : balances.isError ? (
        <QueryError
          what="what partners are owed"
          onRetry={() => void balances.refetch()}
          isRetrying={balances.isFetching}
        />
      ) : balances.data.length === 0 ? (
        <p className={empty}>Nothing is owed: approve commissions and they gather here.</p>
      ) : (
        <ul aria-label="Owed to partners" className="grid gap-3">
          {balances.data.map((balance) => (
            <BalanceCard key={`${balance.partner_id}-${balance.currency}`} balance={balance} />
          ))}
        </ul>
      )}
    </section>
  );
}

function BalanceCard({ balance }: { balance: PayableBalance }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const amount = formatMoney(balance.amount_cents, balance.currency);
  const count = `${balance.commission_count} approved commission${balance.commission_count === 1 ? '' : 's'}`;

  const create = async () => {
    setError(null);
    try {
      await createPayout(balance.partner_id, balance.currency);
      void showToast(
        'success',
        `A payout of ${amount} to ${balance.company} is ready to pay (below, under “Payouts being prepared”).`,
      );
    } catch (caught) {
      setError(rpcErrorMessage(caught));
    }
    await queryClient.invalidateQueries({ queryKey: commissionsKeys.all });
  };

  return (
    <li className="grid gap-3 rounded-2xl border border-sand-200 bg-white p-4 sm:flex sm:flex-wrap sm:items-center sm:justify-between sm:p-5">
      <div className="min-w-0">
        <p className="font-semibold break-words text-ink-900">{balance.company}</p>
        <p className="text-sm break-all text-ink-700">
          {balance.email ?? 'No account'} · code {balance.referral_code}
        </p>
        <p className="text-sm text-ink-600">
          {count} · oldest approved{' '}
          <time dateTime={balance.oldest_approved_at}>{formatDay(balance.oldest_approved_at)}</time>
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <p className="text-lg font-semibold text-ink-900 tabular-nums">{amount}</p>
        <ConfirmDialog
          trigger={
            <Button aria-label={`Create payout for ${balance.company}, ${amount}…`}>
              Create payout…
            </Button>
          }
          title={`Create a payout of ${amount} to ${balance.company}?`}
          description={
            <p>
              The {count} in {balance.currency} are gathered into one payout. Send the money, then
              mark the payout paid with the bank’s reference. Until then you can cancel it.
            </p>
          }
          confirmLabel="Create payout"
          busyLabel="Creating…"
          onConfirm={create}
        />
      </div>
      {error ? (
        <Alert tone="error" className="sm:basis-full">
          {error}
        </Alert>
      ) : null}
    </li>
  );
}

function PendingPayoutsSection() {
  const list = useInfiniteQuery(payoutsQuery('pending'));
  const rows = list.data?.pages.flatMap((page) => page.rows) ?? [];
  return (
    <section aria-labelledby="pending-payouts-title" className={section}>
      <div>
        <h2 id="pending-payouts-title" className={sectionTitle}>
          Payouts being prepared
        </h2>
        <p className="text-sm text-ink-600">
          Send the money, then mark the payout paid. Its commissions become paid and the partner is
          emailed.
        </p>
      </div>
      {list.isPending ? (
        <div role="status">
          <span className="sr-only">Loading payouts…</span>
          <Skeleton className="h-24 w-full" />
        </div>
      ) : list.isError ? (
        <QueryError
          what="the payouts"
          onRetry={() => void list.refetch()}
          isRetrying={list.isFetching}
        />
      ) : rows.length === 0 ? (
        <p className={empty}>No payout is waiting to be paid.</p>
      ) : (
        <>
          <ul aria-label="Payouts being prepared" className="grid gap-3">
            {rows.map((payout) => (
              <PendingPayoutCard key={payout.id} payout={payout} />
            ))}
          </ul>
          <MoreButton list={list} />
        </>
      )}
    </section>
  );
}

function PendingPayoutCard({ payout }: { payout: PayoutRow }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const amount = formatMoney(payout.amount_cents, payout.currency);
  const refresh = () => queryClient.invalidateQueries({ queryKey: commissionsKeys.all });

  const markPaid = async (values: MarkPaidValues) => {
    setError(null);
    await markPayoutPaid(payout.id, values.reference, values.paidOn, payout.version);
    void showToast('success', `${amount} to ${payout.partner_company} is marked paid.`);
    await refresh();
  };
  const cancel = async () => {
    setError(null);
    try {
      await cancelPayout(payout.id, payout.version);
      void showToast(
        'success',
        `The payout is cancelled; its commissions are owed to ${payout.partner_company} again.`,
      );
    } catch (caught) {
      setError(rpcErrorMessage(caught));
    }
    await refresh();
  };

  return (
    <li className="grid gap-3 rounded-2xl border border-sand-200 bg-white p-4 sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold break-words text-ink-900">{payout.partner_company}</p>
          <p className="text-sm break-all text-ink-700">
            {payout.email ?? 'No account'} · code {payout.referral_code}
          </p>
          <p className="text-sm text-ink-600">
            {payout.commission_count} commission{payout.commission_count === 1 ? '' : 's'} · created{' '}
            <time dateTime={payout.created_at}>{formatDay(payout.created_at)}</time>
          </p>
        </div>
        <p className="text-lg font-semibold text-ink-900 tabular-nums">{amount}</p>
      </div>
      {error ? (
        <Alert tone="error">
          <p>{error}</p>
          <Button variant="secondary" className="mt-2" onClick={() => void refresh()}>
            Reload payouts
          </Button>
        </Alert>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <MarkPaidDialog payout={payout} onMarkPaid={markPaid} />
        <ConfirmDialog
          trigger={
            <Button
              variant="secondary"
              aria-label={`Cancel payout of ${amount} to ${payout.partner_company}…`}
            >
              Cancel payout…
            </Button>
          }
          title={`Cancel the payout of ${amount}?`}
          description={
            <p>
              Only if no money was sent. Its commissions stay approved and are owed to{' '}
              {payout.partner_company} again, ready for another payout.
            </p>
          }
          confirmLabel="Cancel payout"
          busyLabel="Cancelling…"
          onConfirm={cancel}
        />
      </div>
    </li>
  );
}

function PaidPayoutsSection() {
  const list = useInfiniteQuery(payoutsQuery('paid'));
  const rows = list.data?.pages.flatMap((page) => page.rows) ?? [];
  return (
    <section aria-labelledby="paid-payouts-title" className={section}>
      <h2 id="paid-payouts-title" className={sectionTitle}>
        Paid payouts
      </h2>
      {list.isPending ? (
        <div role="status">
          <span className="sr-only">Loading paid payouts…</span>
          <Skeleton className="h-24 w-full" />
        </div>
      ) : list.isError ? (
        <QueryError
          what="the paid payouts"
          onRetry={() => void list.refetch()}
          isRetrying={list.isFetching}
        />
      ) : rows.length === 0 ? (
        <p className={empty}>No payout has been paid yet.</p>
      ) : (
        <>
          {/* A phone gets each payout as a card: five columns would hide the amount. */}
          <ul aria-label="Paid payouts, newest first" className="grid gap-3 sm:hidden">
            {rows.map((payout) => (
              <li
                key={payout.id}
                className="grid gap-1 rounded-2xl border border-sand-200 bg-white p-4 text-sm"
              >
                <div className="flex items-baseline justify-between gap-3">
                  <p className="font-semibold break-words text-ink-900">{payout.partner_company}</p>
                  <p className="font-semibold whitespace-nowrap text-ink-900 tabular-nums">
                    {formatMoney(payout.amount_cents, payout.currency)}
                  </p>
                </div>
                <p className="text-ink-700">
                  Paid {payout.paid_on ? formatDate(payout.paid_on) : ''} ·{' '}
                  {payout.commission_count} commission{payout.commission_count === 1 ? '' : 's'}
                </p>
                <p className="break-words text-ink-700">Reference {payout.reference}</p>
              </li>
            ))}
          </ul>
          <div className="hidden overflow-x-auto rounded-2xl border border-sand-200 bg-white sm:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Paid payouts, newest first</caption>
              <thead className="bg-sand-50 text-ink-700">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Paid on
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Partner
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Reference
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    Commissions
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-sand-200">
                {rows.map((payout) => (
                  <tr key={payout.id}>
                    <td className="px-4 py-3 whitespace-nowrap text-ink-900">
                      {payout.paid_on ? formatDate(payout.paid_on) : '—'}
                    </td>
                    <td className="px-4 py-3 break-words text-ink-900">{payout.partner_company}</td>
                    <td className="px-4 py-3 break-all text-ink-900">{payout.reference}</td>
                    <td className="px-4 py-3 text-right text-ink-900 tabular-nums">
                      {payout.commission_count}
                    </td>
                    <td className="px-4 py-3 text-right font-semibold whitespace-nowrap text-ink-900 tabular-nums">
                      {formatMoney(payout.amount_cents, payout.currency)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <MoreButton list={list} />
        </>
      )}
    </section>
  );
}

function MoreButton({
  list,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
}) {
  if (!list.hasNextPage) return null;
  return (
    <div>
      <Button
        variant="secondary"
        onClick={() => void list.fetchNextPage()}
        disabled={list.isFetchingNextPage}
        aria-busy={list.isFetchingNextPage || undefined}
      >
        {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
      </Button>
    </div>
  );
}
