import { PortalPage } from '@/components/layout/portal-page';
import { PartnerOnly } from '@/features/partners/components/partner-only';
import { PortalHome } from '@/features/partners/components/portal-home';
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
      <PortalHome />
    </PortalPage>
  );
}
