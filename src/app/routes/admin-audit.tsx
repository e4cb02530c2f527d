import { PortalPage } from '@/components/layout/portal-page';
import { AuditLog } from '@/features/admin/components/audit-log';

export default function AdminAuditPage() {
  return (
    <PortalPage
      eyebrow="Admin"
      title="Audit log"
      description={
        <p>
          Every change a Cervana admin made, with the values before and after. Entries can never be
          changed or deleted.
        </p>
      }
    >
      <AuditLog />
    </PortalPage>
  );
}
