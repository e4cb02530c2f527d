import { PortalPage } from '@/components/layout/portal-page';
import { AdminOverview } from '@/features/admin/components/admin-overview';

export default function AdminPage() {
  return (
    <PortalPage
      eyebrow="Admin"
      title="Cervana admin"
      description={
        <p>
          Leads, bookings, partners and users: the tools the Cervana team runs the business with.
        </p>
      }
    >
      <AdminOverview />
    </PortalPage>
  );
}
