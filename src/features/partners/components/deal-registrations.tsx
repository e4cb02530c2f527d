import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Lock } from 'lucide-react';
import { Link } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { Alert } from '@/components/ui/alert';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { describeCommission, partnerTiers, tierById } from '@/config/partner-program';
import { useAuth } from '@/lib/auth/use-auth';
import { commissionFactsQuery } from '../api/commissions';
import { partnerAccountQuery } from '../api/partner-account';
import { wonDealsInLastYear } from '../model/commissions';
import { REGISTRATION_TIER } from '../model/registration';
import { DealRegistrationForm } from './deal-registration-form';
import { RegistrationList } from './registration-list';

const rank = (tier: string) => partnerTiers.findIndex((candidate) => candidate.id === tier);

/**
 * The registration form for Silver partners and up (as `register_deal`
 * decides), why it is not there for the others, and the registrations.
 */
export function DealRegistrations() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const account = useQuery(partnerAccountQuery(user!.id));

  let top;
  if (account.isPending) {
    top = (
      <div role="status">
        <span className="sr-only">Loading your partner account…</span>
        <Skeleton className="h-72 w-full" />
      </div>
    );
  } else if (account.isError) {
    top = (
      <QueryError
        what="your partner account"
        onRetry={() => void account.refetch()}
        isRetrying={account.isFetching}
      />
    );
  } else if (!account.data) {
    top = (
      <Alert tone="info" title="Partners register their deals here">
        Your account is not a partner’s, so there is nothing to register. Admins decide on
        registrations in the partners admin.
      </Alert>
    );
  } else if (account.data.status !== 'active') {
    // register_deal refuses a suspended partner, whatever the tier.
    top = (
      <Alert tone="info" title="Your partner account is suspended">
        You cannot register deals while it is. Please contact your partner manager.
      </Alert>
    );
  } else if (rank(account.data.tier) < rank(REGISTRATION_TIER)) {
    top = <RegistrationLocked partnerId={account.data.id} tier={account.data.tier} />;
  } else {
    top = (
      <DealRegistrationForm
        onTierRefused={() => void queryClient.invalidateQueries({ queryKey: ['partner-portal'] })}
      />
    );
  }

  return (
    <div className="grid gap-10">
      <section
        aria-labelledby="register-heading"
        className="rounded-2xl border border-sand-200 bg-white p-4 sm:p-6"
      >
        <h2 id="register-heading" className="text-lg font-semibold text-ink-900">
          Register a deal
        </h2>
        <p className="mt-1 mb-5 text-sm text-ink-600">
          Tell us about a prospect you are working with. Once our sales team accepts the
          registration, the prospect is a lead credited to you, whoever contacts us first.
        </p>
        {top}
      </section>
      {account.data ? (
        <section aria-labelledby="registrations-heading" className="grid gap-4">
          <h2 id="registrations-heading" className="text-lg font-semibold text-ink-900">
            Your registrations
          </h2>
          <RegistrationList partnerId={account.data.id} />
        </section>
      ) : null}
    </div>
  );
}

/** A Registered partner: why there is no form, and how far Silver is. */
function RegistrationLocked({ partnerId, tier }: { partnerId: string; tier: string }) {
  const silver = tierById(REGISTRATION_TIER);
  const facts = useQuery(commissionFactsQuery(partnerId));
  const won = facts.data ? wonDealsInLastYear(facts.data, new Date()) : null;
  const toGo = won === null ? null : Math.max(silver.threshold - won, 0);
  return (
    <div className="flex gap-4 rounded-xl border border-sand-200 bg-sand-50 p-4 sm:p-5">
      <Lock aria-hidden="true" className="mt-1 size-5 shrink-0 text-ink-600" />
      <div className="grid gap-2 text-ink-800">
        <p className="font-semibold text-ink-900">
          Deal registration opens at the {silver.name} tier
        </p>
        <p>
          You are a {tierById(tier).name} partner. {silver.name} partners have won{' '}
          {silver.threshold} deals in the last twelve months, and earn {describeCommission(silver)}.
        </p>
        {toGo === null ? null : (
          <p>
            You have won <strong>{won}</strong> deal{won === 1 ? '' : 's'} in the last twelve
            months:{' '}
            {toGo === 0 ? (
              <>your tier moves up with your next won deal.</>
            ) : (
              <>
                <strong>{toGo} more to go</strong> to reach {silver.name}.
              </>
            )}
          </p>
        )}
        <p>
          Until then, send prospects your{' '}
          <Link to={paths.partnerPortal} className="font-semibold text-azure-700 underline">
            referral link
          </Link>
          : every lead that comes through it is credited to you.
        </p>
      </div>
    </div>
  );
}
