import type { ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { buttonStyles } from '@/components/ui/button-styles';
import { RouteLoading } from '@/components/ui/route-loading';
import { paths } from '@/config/paths';
import {
  homePathFor,
  mustEnrolSecondFactor,
  needsSecondFactor,
  roleOf,
  type Role,
} from '@/lib/auth/roles';
import { startAuth } from '@/lib/auth/auth-store';
import { useAuth } from '@/lib/auth/use-auth';

/**
 * Guards a route of the table: 'Loading...' until the session is known (never
 * a flash of the page), then /auth?next=… for a signed-out visitor or one who
 * still owes the second factor, a "no access" page for the wrong role, and
 * for an admin without a second factor, the set-up of one (`secondFactorSetup`).
 */
export function RequireAuth({
  role,
  secondFactorSetup,
  children,
}: {
  role?: Exclude<Role, 'customer'>;
  /** Shown instead of an admin page to an admin who has no second factor yet. */
  secondFactorSetup?: ReactNode;
  children: ReactNode;
}) {
  const auth = useAuth();
  const location = useLocation();
  if (auth.loading) return <RouteLoading />;
  if (auth.error && !auth.user) return <Unreachable />;
  const next = encodeURIComponent(`${location.pathname}${location.search}`);
  if (!auth.user) return <Navigate to={`${paths.auth}?next=${next}`} replace />;
  if (needsSecondFactor(auth.session))
    return <Navigate to={`${paths.auth}?next=${next}`} replace />;
  if (role && roleOf(auth.user) !== role) return <NoAccess role={roleOf(auth.user)} />;
  if (role === 'admin' && mustEnrolSecondFactor(auth.session)) return secondFactorSetup ?? null;
  return children;
}

const HOME_LABELS: Record<Role, string> = {
  admin: 'Go to the admin area',
  partner: 'Go to the partner portal',
  customer: 'Go to your dashboard',
};

function NoAccess({ role }: { role: Role }) {
  return (
    <main className="mx-auto max-w-xl px-6 py-24 text-center">
      <p className="text-sm font-semibold tracking-wide text-azure-700 uppercase">No access</p>
      <h1 className="mt-3 text-3xl font-bold tracking-tight text-ink-900">
        This area is for the Cervana team
      </h1>
      <p className="mt-4 text-lg text-ink-600">
        Your account does not have access here. If you think it should, ask a Cervana administrator.
      </p>
      <Link to={homePathFor(role)} className={buttonStyles({ size: 'lg', className: 'mt-8' })}>
        {HOME_LABELS[role]}
      </Link>
    </main>
  );
}

/** The backend could not be reached to learn who is signed in: say so, and offer to retry. */
function Unreachable() {
  return (
    <main className="mx-auto max-w-xl px-6 py-24 text-center">
      <h1 className="text-3xl font-bold tracking-tight text-ink-900">We could not reach Cervana</h1>
      <p className="mt-4 text-lg text-ink-600">
        Check your connection. Your data is safe; this page will load once we are back in touch.
      </p>
      <Button size="lg" className="mt-8" onClick={() => void startAuth().catch(() => undefined)}>
        Try again
      </Button>
    </main>
  );
}
