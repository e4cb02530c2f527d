import type { ReactNode } from 'react';
import { PortalPage } from '@/components/layout/portal-page';
import { roleOf } from '@/lib/auth/roles';
import { useAuth } from '@/lib/auth/use-auth';
import { ApplicationStatus } from './application-status';

/**
 * The partner portal's pages are for partners (and admins, who may look); anyone
 * else signed in sees their application's status or the way to apply instead.
 */
export function PartnerOnly({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const role = roleOf(user);
  if (role === 'partner' || role === 'admin') return <>{children}</>;
  return (
    <PortalPage
      eyebrow="Partner portal"
      title="Join the Cervana partner program"
      description={
        <p>
          The portal is for approved partners. Refer customer success teams to Cervana and earn a
          commission on every customer you bring.
        </p>
      }
    >
      <ApplicationStatus />
    </PortalPage>
  );
}
