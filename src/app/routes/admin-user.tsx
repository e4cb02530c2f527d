import { useLocation, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { UserDetail } from '@/features/admin/components/user-detail';

/** /admin/users/:userId; its query string is the users list's, for the way back. */
export default function AdminUserPage() {
  const { userId = '' } = useParams();
  const { search } = useLocation();
  const query = new URLSearchParams(search).toString();
  return (
    <UserDetail
      key={userId}
      userId={userId}
      backTo={query ? `${paths.adminUsers}?${query}` : paths.adminUsers}
    />
  );
}
