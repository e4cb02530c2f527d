import { PortalPage } from '@/components/layout/portal-page';
import { PartnerOnly } from '@/features/partners/components/partner-only';

/** The partner portal's commissions and payouts page. */
export default function PartnerCommissionsPage() {
  return (
    <PartnerOnly>
      <PortalPage
        eyebrow="Partner portal"
        title="Commissions and payouts"
        description={<p>Every commission you earned and every payout.</p>}
      />
    </PartnerOnly>
  );
}
