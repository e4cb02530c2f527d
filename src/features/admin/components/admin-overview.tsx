import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { useAdminOverview } from '../api/admin-overview';
import { buildOverviewCards } from '../model/overview';
import {
  adminPeriodRange,
  describeAdminPeriod,
  describePreviousAdminPeriod,
  parseAdminPeriod,
  withAdminPeriod,
} from '../model/period';
import { FailedEmailsNotice } from './failed-emails-notice';
import { PendingCommissionsNotice } from './pending-commissions-notice';
import { OverviewCards, OverviewCardsSkeleton } from './overview-cards';
import { PeriodPicker } from './period-picker';

/**
 * New leads, bookings, partner applications and sign-ups over the period in
 * the URL, each against the period before it.
 */
export function AdminOverview() {
  const [params, setParams] = useSearchParams();
  const period = parseAdminPeriod(params);
  // The range is fixed per period while the page is open, so its query key is.
  const args = useMemo(() => {
    const range = adminPeriodRange(period);
    return { p_from: range.from.toISOString(), p_to: range.to.toISOString() };
  }, [period]);
  const overview = useAdminOverview(args);
  const against = describePreviousAdminPeriod(period);

  return (
    <section aria-labelledby="admin-overview-heading" className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="admin-overview-heading" className="text-lg font-semibold text-ink-900">
            Overview
          </h2>
          <p className="text-sm text-ink-600">
            What came in over {describeAdminPeriod(period)}, against {against}.
          </p>
        </div>
        <PeriodPicker
          period={period}
          onChange={(next) => setParams(withAdminPeriod(params, next), { replace: true })}
        />
      </div>
      {overview.isError ? (
        <QueryError
          what="the overview"
          onRetry={() => void overview.refetch()}
          isRetrying={overview.isFetching}
        />
      ) : null}
      {overview.data ? (
        <OverviewCards
          cards={buildOverviewCards(overview.data, against)}
          against={against}
          isUpdating={overview.isPlaceholderData}
        />
      ) : overview.isError ? null : (
        <OverviewCardsSkeleton />
      )}
      <FailedEmailsNotice />
      <PendingCommissionsNotice />
    </section>
  );
}
