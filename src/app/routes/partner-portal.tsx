import { PortalPage } from '@/components/layout/portal-page';
import { PartnerOnly } from '@/features/partners/components/partner-only';
import { ReferralLink } from '@/features/partners/components/referral-link';
import { profileOf } from '@/lib/auth/user-profile';
import { useAuth } from '@/lib/auth/use-auth';

/** Partners (and admins) get the portal; anyone else signed in learns how to join. */
export default function PartnerPortalPage() {
  return (
    <PartnerOnly>
      <PartnerPortalHome />
    </PartnerOnly>
  );
}

function PartnerPortalHome() {
  const { user } = useAuth();
  const { company } = profileOf(user);
  return (
    <PortalPage
      eyebrow="Partner portal"
      title="Your referrals, commissions and assets"
      description={<p>{company ? `${company}, welcome back.` : 'Welcome back.'}</p>}
    >
      <section
        aria-labelledby="referrals-heading"
        className="rounded-2xl border border-sand-200 bg-white p-6"
      >
        <h2 id="referrals-heading" className="text-lg font-semibold text-ink-900">
          Referrals
        </h2>
        <div className="mt-4">
          <ReferralLink userId={user!.id} />
        </div>
      </section>
    </PortalPage>
  );
}
