import { PortalPage } from '@/components/layout/portal-page';
import { InviteUserForm } from '@/features/admin/components/invite-user-form';
import { UserBrowser } from '@/features/admin/components/user-browser';

/** /admin/users: every account, searchable, and inviting someone new. */
export default function AdminUsersPage() {
  return (
    <PortalPage
      eyebrow="Admin"
      title="Users"
      description={<p>Every account: find someone, change their role, ban, invite or reset.</p>}
    >
      <div className="grid gap-6">
        <InviteUserForm />
        <UserBrowser />
      </div>
    </PortalPage>
  );
}
