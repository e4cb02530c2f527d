import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatMoney } from '../model/money';
import type { PartnerSummary } from '../model/summary';

const STATES = [
  { key: 'pending_cents', label: 'Pending', note: 'Waiting for our review' },
  { key: 'approved_cents', label: 'Approved', note: 'In your next payout' },
  { key: 'paid_cents', label: 'Paid', note: 'Paid out to you' },
] as const;

/** Commissions pending, approved and paid, one row per currency (amounts never add across currencies). */
export function CommissionTotals({ commissions }: { commissions: PartnerSummary['commissions'] }) {
  return (
    <section
      aria-labelledby="commissions-heading"
      className="grid content-start gap-4 rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <h2 id="commissions-heading" className="text-lg font-semibold text-ink-900">
        Commissions
      </h2>
      {commissions.length === 0 ? (
        <p className="text-ink-700">
          No commissions yet. When a company you referred becomes a customer, its commission appears
          here as pending.
        </p>
      ) : (
        commissions.map((row) => (
          <dl
            key={row.currency}
            aria-label={`Commissions in ${row.currency}`}
            className="divide-y divide-sand-200 rounded-xl bg-sand-50 px-4"
          >
            {STATES.map((state) => (
              <div key={state.key} className="flex items-baseline justify-between gap-4 py-3">
                <dt className="min-w-0">
                  <span className="block text-sm font-semibold text-ink-900">
                    {state.label}
                    {commissions.length > 1 ? ` (${row.currency})` : ''}
                  </span>
                  <span className="block text-xs text-ink-600">{state.note}</span>
                </dt>
                <dd className="text-lg font-bold whitespace-nowrap text-ink-900 tabular-nums">
                  {formatMoney(row[state.key], row.currency)}
                </dd>
              </div>
            ))}
          </dl>
        ))
      )}
      <Link
        to={paths.partnerCommissions}
        className="inline-flex w-fit items-center gap-1 text-sm font-semibold text-azure-700 hover:underline"
      >
        Commissions and payouts
        <ArrowRight aria-hidden="true" className="size-4" />
      </Link>
    </section>
  );
}
