import { useInfiniteQuery } from '@tanstack/react-query';
import { QueryError } from '@/components/data/query-error';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { commissionsQuery } from '../api/commissions';
import {
  COMMISSION_STATE_LABELS,
  formatCommissionRate,
  formatMoney,
  formatMonth,
  formatUtcDay,
  type CommissionRow,
  type CommissionState,
} from '../model/commissions';
import { CommissionStateBadge } from './money-badges';

const HEADERS = ['Company', 'Won', 'Deal value', 'Rate', 'Commission', 'State', 'Payout'] as const;

/** The commissions of one state (or all), newest deal first: a table from 1024 px, cards below. */
export function CommissionLedger({
  partnerId,
  state,
  onShowAll,
}: {
  partnerId: string;
  state: CommissionState | null;
  onShowAll: () => void;
}) {
  const list = useInfiniteQuery(commissionsQuery(partnerId, state));
  const rows = list.data?.pages.flatMap((page) => page.rows) ?? [];
  const what = state
    ? `${COMMISSION_STATE_LABELS[state].toLowerCase()} commissions`
    : 'commissions';

  if (list.isPending) {
    return (
      <div role="status">
        <span className="sr-only">Loading your commissions…</span>
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (list.isError) {
    return (
      <QueryError
        what={`your ${what}`}
        onRetry={() => void list.refetch()}
        isRetrying={list.isFetching}
      />
    );
  }
  if (rows.length === 0) {
    return state ? (
      <div className="grid justify-items-start gap-3 rounded-2xl border border-dashed border-sand-200 bg-white p-6 text-ink-700">
        <p>You have no {what}.</p>
        <Button variant="secondary" onClick={onShowAll}>
          Show every commission
        </Button>
      </div>
    ) : (
      <HowCommissionsArise />
    );
  }
  return (
    <div className="overflow-hidden rounded-2xl border border-sand-200 bg-white">
      <table className="hidden w-full text-left text-sm lg:table">
        <caption className="sr-only">Your {what}, newest deal first</caption>
        <thead className="border-b border-sand-200 bg-sand-50 text-xs font-semibold tracking-wide text-ink-600 uppercase">
          <tr>
            {HEADERS.map((header) => (
              <th
                key={header}
                scope="col"
                className={`px-4 py-3 whitespace-nowrap ${['Deal value', 'Rate', 'Commission'].includes(header) ? 'text-right' : ''}`}
              >
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-sand-200">
          {rows.map((row) => (
            <tr key={row.id} className="align-top">
              <td className="max-w-56 min-w-40 px-4 py-3 font-semibold break-words text-ink-900">
                {row.company}
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-ink-800">
                <time dateTime={row.won_at}>{formatUtcDay(row.won_at)}</time>
                <span className="block text-ink-600">{formatMonth(row.period)}</span>
              </td>
              <td className="px-4 py-3 text-right whitespace-nowrap text-ink-800 tabular-nums">
                {formatMoney(row.deal_value_cents, row.currency)}
              </td>
              <td className="px-4 py-3 text-right text-ink-800 tabular-nums">
                {formatCommissionRate(row.rate)}
              </td>
              <td className="px-4 py-3 text-right font-semibold whitespace-nowrap text-ink-900 tabular-nums">
                {formatMoney(row.amount_cents, row.currency)}
              </td>
              <td className="max-w-72 px-4 py-3">
                <State commission={row} />
              </td>
              <td className="min-w-44 px-4 py-3 text-ink-800">
                <PayoutCell commission={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul
        aria-label={`Your ${what}, newest deal first`}
        className="divide-y divide-sand-200 lg:hidden"
      >
        {rows.map((row) => (
          <li key={row.id} className="grid gap-2 px-4 py-4 text-sm">
            <div className="flex items-start justify-between gap-3">
              <p className="min-w-0 text-base font-semibold break-words text-ink-900">
                {row.company}
              </p>
              <p className="shrink-0 text-base font-semibold text-ink-900 tabular-nums">
                {formatMoney(row.amount_cents, row.currency)}
              </p>
            </div>
            <p className="text-ink-700">
              Won <time dateTime={row.won_at}>{formatUtcDay(row.won_at)}</time> ·{' '}
              {formatCommissionRate(row.rate)} of {formatMoney(row.deal_value_cents, row.currency)}
            </p>
            <State commission={row} />
            {row.payout ? (
              <div className="text-ink-700">
                <span className="text-ink-600">Payout</span> <PayoutCell commission={row} />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-sand-200 px-4 py-3">
        <p className="text-sm text-ink-600">
          {rows.length} commission{rows.length === 1 ? '' : 's'} shown
        </p>
        {list.hasNextPage ? (
          <Button
            variant="secondary"
            onClick={() => void list.fetchNextPage()}
            disabled={list.isFetchingNextPage}
            aria-busy={list.isFetchingNextPage || undefined}
          >
            {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

function State({ commission }: { commission: CommissionRow }) {
  return (
    <div className="grid justify-items-start gap-1">
      <CommissionStateBadge state={commission.status} />
      {commission.status === 'declined' && commission.decline_reason ? (
        <p className="text-sm break-words text-ink-700">Reason: {commission.decline_reason}</p>
      ) : null}
    </div>
  );
}

/** The payout a commission went into: its reference and payment date on lines of their own. */
function PayoutCell({ commission }: { commission: CommissionRow }) {
  const payout = commission.payout;
  if (!payout) return <span className="text-ink-600">—</span>;
  if (payout.status !== 'paid' || !payout.paid_on) return <>In a payout being prepared</>;
  return (
    <>
      <span className="block font-mono break-words">{payout.reference}</span>
      <span className="block text-ink-600">
        Paid <time dateTime={payout.paid_on}>{formatUtcDay(payout.paid_on)}</time>
      </span>
    </>
  );
}

/** The empty ledger says how a commission comes to be. */
export function HowCommissionsArise() {
  return (
    <div className="rounded-2xl border border-dashed border-sand-200 bg-white p-6 text-ink-700">
      <p className="font-semibold text-ink-900">No commissions yet</p>
      <ol className="mt-3 grid list-decimal gap-1.5 pl-5">
        <li>A team you referred (through your link or a deal registration) becomes a customer.</li>
        <li>Your commission is created, pending, at your tier’s rate of their deal value.</li>
        <li>Our team reviews it and approves it (or declines it, telling you why).</li>
        <li>Approved commissions are paid to you in the next payout, listed below.</li>
      </ol>
    </div>
  );
}
