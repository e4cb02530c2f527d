import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { Alert } from '@/components/ui/alert';
import { isNotAPartner, usePartnerSummary } from '../api/partner-summary';
import {
  describePortalPeriod,
  parsePortalPeriod,
  portalPeriodRange,
  withPortalPeriod,
} from '../model/period';
import { ActivityFigures } from './activity-figures';
import { CommissionTotals } from './commission-totals';
import { NoPartnerRecord } from './no-partner-record';
import { PartnerLinks } from './partner-links';
import { PeriodChooser } from './period-chooser';
import { TierStanding } from './tier-standing';

/**
 * The portal's home: the links to share, what they brought over the period in
 * the URL, the commissions earned and the way to the next tier.
 */
export function PortalHome() {
  const [params, setParams] = useSearchParams();
  const period = parsePortalPeriod(params);
  // The range is fixed per period while the page is open, so its query key is.
  const args = useMemo(() => {
    const range = portalPeriodRange(period);
    return { p_from: range.from.toISOString(), p_to: range.to.toISOString() };
  }, [period]);
  const summary = usePartnerSummary(args);

  if (summary.isPending) {
    return (
      <p role="status" className="text-ink-600">
        Loading...
      </p>
    );
  }
  if (summary.isError) {
    if (isNotAPartner(summary.error)) return <NoPartnerRecord />;
    return (
      <QueryError
        what="your partner figures"
        onRetry={() => void summary.refetch()}
        isRetrying={summary.isFetching}
      />
    );
  }
  const data = summary.data;
  return (
    <div className="grid gap-8">
      {data.partner.status !== 'active' ? (
        <Alert tone="error" title="Your partner account is suspended">
          Your links credit nothing while it is, and new referrals do not earn commissions. Your
          history and earned commissions stay here. Please contact your partner manager.
        </Alert>
      ) : null}

      <section
        aria-labelledby="links-heading"
        className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
      >
        <h2 id="links-heading" className="text-lg font-semibold text-ink-900">
          Share your links
        </h2>
        <PartnerLinks code={data.partner.referral_code} />
      </section>

      <section aria-labelledby="activity-heading" className="grid gap-4">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h2 id="activity-heading" className="text-lg font-semibold text-ink-900">
              Your referrals
            </h2>
            <p className="text-sm text-ink-600">
              What your links brought over {describePortalPeriod(period)}.
            </p>
          </div>
          <PeriodChooser
            period={period}
            onChange={(next) => setParams(withPortalPeriod(params, next), { replace: true })}
          />
        </div>
        <ActivityFigures summary={data} isUpdating={summary.isPlaceholderData} />
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <CommissionTotals commissions={data.commissions} />
        <TierStanding summary={data} />
      </div>
    </div>
  );
}
