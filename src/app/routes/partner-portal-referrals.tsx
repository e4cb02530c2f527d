import { PortalPage } from '@/components/layout/portal-page';
import { PartnerOnly } from '@/features/partners/components/partner-only';

/** The partner portal's referrals page. */
export default function PartnerReferralsPage() {
  return (
    <PartnerOnly>
      <PortalPage
        eyebrow="Partner portal"
        title="Referrals"
        description={<p>The leads and demo bookings you referred.</p>}
      />
    </PartnerOnly>
  );
}
