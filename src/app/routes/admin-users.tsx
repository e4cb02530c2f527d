import { useState } from 'react';
import { PortalPage } from '@/components/layout/portal-page';
import { Button } from '@/components/ui/button';
import { InviteUserForm } from '@/features/admin/components/invite-user-form';
import { UserBrowser } from '@/features/admin/components/user-browser';

/** /admin/users: every account, searchable; the invite form opens from the page's button. */
export default function AdminUsersPage() {
  const [isInviting, setIsInviting] = useState(false);
  return (
    <PortalPage
      eyebrow="Admin"
      title="Users"
      description={<p>Every account: find someone, change their role, ban, invite or reset.</p>}
      actions={
        <Button
          variant={isInviting ? 'secondary' : 'primary'}
          aria-expanded={isInviting}
          aria-controls="invite-user"
          onClick={() => setIsInviting((open) => !open)}
        >
          {isInviting ? 'Close the invitation' : 'Invite someone'}
        </Button>
      }
    >
      <div className="grid gap-6">
        {isInviting ? (
          <div id="invite-user">
            <InviteUserForm />
          </div>
        ) : null}
        <UserBrowser />
      </div>
    </PortalPage>
  );
}
