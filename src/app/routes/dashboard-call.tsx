import { useLocation, useParams } from 'react-router';
import { CallDetail } from '@/features/calls/components/call-detail';
import { backToCallsHref } from '@/features/calls/model/call-link';

/** /dashboard/calls/:callId; its query string is the calls list's, for the way back. */
export default function DashboardCallPage() {
  const { callId = '' } = useParams();
  const { search } = useLocation();
  return <CallDetail key={callId} callId={callId} backTo={backToCallsHref(search)} />;
}
