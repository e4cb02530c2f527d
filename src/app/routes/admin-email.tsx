import { useLocation, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { EmailPreviewPage } from '@/features/admin/components/email-preview';

/** /admin/emails/:messageId; its query string is the log's filters, for the way back. */
export default function AdminEmailPage() {
  const { messageId = '' } = useParams();
  const { search } = useLocation();
  const query = new URLSearchParams(search).toString();
  return (
    <EmailPreviewPage
      key={messageId}
      messageId={messageId}
      backTo={query ? `${paths.adminEmails}?${query}` : paths.adminEmails}
    />
  );
}
