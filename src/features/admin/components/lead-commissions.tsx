import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { Skeleton } from '@/components/ui/skeleton';
import { tierById } from '@/config/partner-program';
import { leadCommissionsQuery } from '../api/commissions';
import { formatMoney, formatRatePrecise } from '../model/commissions';
import { formatDay } from '../model/partners';
import { CommissionStatusBadge } from './commission-badges';

/** A partner's lead: its commission (and declined ones before it), decided on /admin/commissions. */
export function LeadCommissions({ leadId }: { leadId: string }) {
  const commissions = useQuery(leadCommissionsQuery(leadId));
  return (
    <section
      aria-labelledby="lead-commissions-heading"
      className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="lead-commissions-heading" className="text-lg font-semibold text-ink-900">
          Partner commission
        </h2>
        <Link
          to="/admin/commissions"
          className="text-sm font-semibold text-azure-700 hover:underline"
        >
          All commissions
        </Link>
      </div>
      {commissions.isPending ? (
        <div role="status">
          <span className="sr-only">Loading the commission…</span>
          <Skeleton className="h-16 w-full" />
        </div>
      ) : commissions.isError ? (
        <QueryError
          what="this lead’s commission"
          onRetry={() => void commissions.refetch()}
          isRetrying={commissions.isFetching}
        />
      ) : commissions.data.length === 0 ? (
        <p className="text-sm text-ink-700">
          None yet: marking this lead won with its deal value creates one for its partner.
        </p>
      ) : (
        <ul className="grid gap-3">
          {commissions.data.map((commission) => (
            <li key={commission.id} className="grid gap-1 rounded-lg bg-sand-50 p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="text-base font-semibold text-ink-900 tabular-nums">
                  {formatMoney(commission.amount_cents, commission.currency)}
                </span>
                <CommissionStatusBadge status={commission.status} />
              </div>
              <p className="text-ink-700">
                {tierById(commission.tier).name} · {formatRatePrecise(commission.rate)} of the deal
                value · since{' '}
                <time dateTime={commission.created_at}>{formatDay(commission.created_at)}</time>
              </p>
              {commission.status === 'declined' && commission.decline_reason ? (
                <p className="break-words text-ink-800">
                  <span className="font-semibold">Declined: </span>
                  {commission.decline_reason}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
