import { PortalPage } from '@/components/layout/portal-page';
import { CommissionsAndPayouts } from '@/features/partners/components/commissions-and-payouts';
import { PartnerOnly } from '@/features/partners/components/partner-only';

/** The partner portal's commissions and payouts page. */
export default function PartnerCommissionsPage() {
  return (
    <PartnerOnly>
      <PortalPage
        eyebrow="Partner portal"
        title="Commissions and payouts"
        description={<p>Every commission you earned, every payout, and your monthly statements.</p>}
      >
        <CommissionsAndPayouts />
      </PortalPage>
    </PartnerOnly>
  );
}
