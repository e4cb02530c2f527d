import { PortalPage } from '@/components/layout/portal-page';
import { AvailabilityPage } from '@/features/admin/components/availability-page';

/** /admin/availability: when visitors can book a demo. */
export default function AdminAvailabilityPage() {
  return (
    <PortalPage
      eyebrow="Admin"
      title="Demo availability"
      description={<p>When visitors can book a demo on /demo. Changes show there at once.</p>}
    >
      <AvailabilityPage />
    </PortalPage>
  );
}
