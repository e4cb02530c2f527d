import { PortalPage } from '@/components/layout/portal-page';
import { DealRegistrations } from '@/features/partners/components/deal-registrations';
import { PartnerOnly } from '@/features/partners/components/partner-only';

/** The partner portal's deal registration page. */
export default function PartnerRegistrationsPage() {
  return (
    <PartnerOnly>
      <PortalPage
        eyebrow="Partner portal"
        title="Deal registration"
        description={<p>Register the prospects you are working with, and follow each decision.</p>}
      >
        <DealRegistrations />
      </PortalPage>
    </PartnerOnly>
  );
}
