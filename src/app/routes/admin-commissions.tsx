import { PortalPage } from '@/components/layout/portal-page';
import { CommissionAdmin } from '@/features/admin/components/commission-admin';

/** Partner commissions and payouts in the admin area. */
export default function AdminCommissionsPage() {
  return (
    <PortalPage
      eyebrow="Admin"
      title="Commissions and payouts"
      description={<p>Approve or decline partner commissions, and pay what partners are owed.</p>}
    >
      <CommissionAdmin />
    </PortalPage>
  );
}
