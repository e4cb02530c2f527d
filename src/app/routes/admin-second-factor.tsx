import { PortalPage } from '@/components/layout/portal-page';
import { AdminSecondFactorSetup } from '@/features/account/components/admin-second-factor-setup';

/** Shown by RequireAuth in place of any admin page while the admin has no second factor. */
export default function AdminSecondFactorPage() {
  return (
    <PortalPage
      eyebrow="Admin"
      title="Turn on two-factor authentication"
      description={
        <p className="max-w-2xl">
          The admin area holds every lead, booking, partner and user, so it opens only after a
          second step at sign-in. Set up an authenticator app once; the admin area opens as soon as
          it is on.
        </p>
      }
    >
      <AdminSecondFactorSetup />
    </PortalPage>
  );
}
