import { PortalPage } from '@/components/layout/portal-page';
import { PartnerAdmin } from '@/features/admin/components/partner-admin';

/** /admin/partners: applications to the partner program, and the partners. */
export default function AdminPartnersPage() {
  return (
    <PortalPage
      eyebrow="Admin"
      title="Partners"
      description={
        <p>
          Review applications to the partner program, and set each partner’s tier, commission and
          status.
        </p>
      }
    >
      <PartnerAdmin />
    </PortalPage>
  );
}
