import { PortalPage } from '@/components/layout/portal-page';

/** Partner commissions and payouts in the admin area. */
export default function AdminCommissionsPage() {
  return (
    <PortalPage
      eyebrow="Admin"
      title="Commissions and payouts"
      description={<p>Approve or decline partner commissions, and pay what partners are owed.</p>}
    />
  );
}
