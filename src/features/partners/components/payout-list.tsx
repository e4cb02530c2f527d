import { formatMoney, formatUtcDay, payoutStatusLabel, type PayoutRow } from '../model/commissions';

const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const HEADERS = ['Created', 'Status', 'Reference', 'Amount', 'Commissions'] as const;

/** The partner's payouts, newest first: a table from 1024 px, cards below. */
export function PayoutList({ payouts }: { payouts: PayoutRow[] }) {
  if (payouts.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-sand-200 bg-white p-6 text-ink-700">
        No payouts yet. Our team gathers your approved commissions into a payout, one per currency,
        and it shows here with its bank reference once it is paid.
      </p>
    );
  }
  return (
    <div className="overflow-hidden rounded-2xl border border-sand-200 bg-white">
      <table className="hidden w-full text-left text-sm lg:table">
        <caption className="sr-only">Your payouts, newest first</caption>
        <thead className="border-b border-sand-200 bg-sand-50 text-xs font-semibold tracking-wide text-ink-600 uppercase">
          <tr>
            {HEADERS.map((header) => (
              <th
                key={header}
                scope="col"
                className={`px-4 py-3 whitespace-nowrap ${header === 'Amount' || header === 'Commissions' ? 'text-right' : ''}`}
              >
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-sand-200">
          {payouts.map((payout) => (
            <tr key={payout.id}>
              <td className="px-4 py-3 whitespace-nowrap text-ink-800">
                <time dateTime={payout.created_at}>
                  {dayFormat.format(new Date(payout.created_at))}
                </time>
              </td>
              <td className="px-4 py-3 text-ink-900">{payoutStatusLabel(payout)}</td>
              <td className="px-4 py-3 font-mono break-all text-ink-800">
                {payout.reference ?? '—'}
              </td>
              <td className="px-4 py-3 text-right font-semibold whitespace-nowrap text-ink-900 tabular-nums">
                {formatMoney(payout.amount_cents, payout.currency)}
              </td>
              <td className="px-4 py-3 text-right text-ink-800 tabular-nums">
                {payout.commission_count}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul aria-label="Your payouts, newest first" className="divide-y divide-sand-200 lg:hidden">
        {payouts.map((payout) => (
          <li key={payout.id} className="grid gap-1 px-4 py-4 text-sm">
            <div className="flex items-start justify-between gap-3">
              <p className="font-semibold text-ink-900">{payoutStatusLabel(payout)}</p>
              <p className="shrink-0 text-base font-semibold text-ink-900 tabular-nums">
                {formatMoney(payout.amount_cents, payout.currency)}
              </p>
            </div>
            <p className="text-ink-700">
              {payout.commission_count} commission{payout.commission_count === 1 ? '' : 's'} ·
              created <time dateTime={payout.created_at}>{formatUtcDay(payout.created_at)}</time>
            </p>
            {payout.reference ? (
              <p className="break-all text-ink-700">
                Reference <span className="font-mono">{payout.reference}</span>
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
