import { PortalPage } from '@/components/layout/portal-page';
import { EmailLog } from '@/features/admin/components/email-log';

/** /admin/emails: the outbox, with sign-in links and codes hidden. */
export default function AdminEmailsPage() {
  return (
    <PortalPage
      eyebrow="Admin"
      title="Email log"
      description={
        <p>
          Every email and text message Cervana queued, and how its delivery went. Sign-in links,
          reset links and one-time codes are hidden.
        </p>
      }
    >
      <EmailLog />
    </PortalPage>
  );
}
