import type { CurrencyTotal } from '../model/commissions';
import { formatMoney } from '../model/commissions';

/** Each currency's pending, approved and paid amounts (never added across currencies). */
export function LedgerTotals({ totals }: { totals: CurrencyTotal[] }) {
  return (
    <div className="grid gap-4">
      {totals.map((total) => (
        <section
          key={total.currency}
          aria-label={`Totals in ${total.currency}`}
          className="rounded-2xl border border-sand-200 bg-white p-4 sm:p-5"
        >
          {totals.length > 1 ? (
            <h3 className="mb-3 text-sm font-semibold text-ink-700">In {total.currency}</h3>
          ) : null}
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            <Figure label="Pending review" value={formatMoney(total.pending, total.currency)} />
            <Figure
              label="Approved, to be paid"
              value={formatMoney(total.approved, total.currency)}
            />
            <Figure label="Paid to you" value={formatMoney(total.paid, total.currency)} />
            <Figure
              label="Declined"
              value={`${total.declinedCount} commission${total.declinedCount === 1 ? '' : 's'}`}
            />
          </dl>
        </section>
      ))}
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-ink-600">{label}</dt>
      <dd className="mt-1 text-xl font-bold break-words text-ink-900 tabular-nums">{value}</dd>
    </div>
  );
}
