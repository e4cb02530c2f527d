import { PortalPage } from '@/components/layout/portal-page';
import { PartnerOnly } from '@/features/partners/components/partner-only';
import { ReferralList } from '@/features/partners/components/referral-list';
import { parseReferralKind, withReferralKind } from '@/features/partners/model/referrals';
import { useSearchParams } from 'react-router';
import { useAuth } from '@/lib/auth/use-auth';

/** The partner portal's referrals page. */
export default function PartnerReferralsPage() {
  return (
    <PartnerOnly>
      <PartnerReferrals />
    </PartnerOnly>
  );
}

function PartnerReferrals() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  return (
    <PortalPage
      eyebrow="Partner portal"
      title="Referrals"
      description={<p>The leads and demo bookings you referred, newest first.</p>}
    >
      <ReferralList
        userId={user!.id}
        kind={parseReferralKind(params)}
        onKind={(kind) => setParams(withReferralKind(params, kind), { replace: true })}
      />
    </PortalPage>
  );
}
