import { Outlet } from 'react-router';
import { PortalShell } from '@/components/layout/portal-shell';
import { useAuth } from '@/lib/auth/use-auth';
import { DataProvider } from './data-provider';
import { RouteErrorBoundary } from './error-boundary';

/** The signed-in areas' layout; each route guards itself in the route table. */
export default function PortalLayout() {
  const auth = useAuth();
  return (
    <DataProvider>
      <PortalShell user={auth.user}>
        <RouteErrorBoundary placement="in-page">
          <Outlet />
        </RouteErrorBoundary>
      </PortalShell>
    </DataProvider>
  );
}
