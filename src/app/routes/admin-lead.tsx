import { useLocation, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { LeadDetail } from '@/features/admin/components/lead-detail';
import { useAuth } from '@/lib/auth/use-auth';
import { displayNameOf } from '@/lib/auth/user-profile';

/** /admin/leads/:leadId; its query string is the leads list's, for the way back. */
export default function AdminLeadPage() {
  const { leadId = '' } = useParams();
  const { search } = useLocation();
  const { user } = useAuth();
  if (!user) return null;
  const query = new URLSearchParams(search).toString();
  return (
    <LeadDetail
      key={leadId}
      leadId={leadId}
      backTo={query ? `${paths.adminLeads}?${query}` : paths.adminLeads}
      me={{ id: user.id, name: displayNameOf(user) }}
    />
  );
}
