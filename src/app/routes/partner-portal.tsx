import { PortalPage } from '@/components/layout/portal-page';
import { ApplicationStatus } from '@/features/partners/components/application-status';
import { ReferralLink } from '@/features/partners/components/referral-link';
import { roleOf } from '@/lib/auth/roles';
import { profileOf } from '@/lib/auth/user-profile';
import { useAuth } from '@/lib/auth/use-auth';

/** Partners (and admins) get the portal; anyone else signed in learns how to join. */
export default function PartnerPortalPage() {
  const { user } = useAuth();
  const role = roleOf(user);
  if (role !== 'partner' && role !== 'admin') {
    return (
      <PortalPage
        eyebrow="Partner portal"
        title="Join the Cervana partner program"
        description={
          <p>
            The portal is for approved partners. Refer customer success teams to Cervana and earn a
            commission on every customer you bring.
          </p>
        }
      >
        <ApplicationStatus />
      </PortalPage>
    );
  }
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
