import { PortalPage } from '@/components/layout/portal-page';
import { useLeadsLive } from '@/features/admin/api/leads-live';
import { LeadBrowser } from '@/features/admin/components/lead-browser';
import { LeadLiveIndicator } from '@/features/admin/components/lead-live-indicator';
import { useAuth } from '@/lib/auth/use-auth';

/** /admin/leads: the sales pipeline, live. */
export default function AdminLeadsPage() {
  const { user } = useAuth();
  const live = useLeadsLive();
  return (
    <PortalPage
      eyebrow="Admin"
      title="Leads"
      description={<p>Every sales inquiry: who owns it, where it stands, what it is worth.</p>}
      actions={<LeadLiveIndicator state={live} />}
    >
      {user ? <LeadBrowser userId={user.id} /> : null}
    </PortalPage>
  );
}
