import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { buttonStyles } from '@/components/ui/button-styles';
import { paths } from '@/config/paths';
import { hasStoredSession } from '@/lib/auth/auth-store';
import { useAuth } from '@/lib/auth/use-auth';
import { useHydrated } from '@/lib/use-hydrated';

const AccountMenu = lazy(() =>
  import('./account-menu').then((module) => ({ default: module.AccountMenu })),
);

/**
 * The header's account slot: the account menu for a signed-in visitor, else a
 * sign-in link (also what the prerendered page shows, so anonymous visitors see
 * nothing move). The auth client loads only when this browser holds a session.
 */
export function HeaderAccount() {
  const isHydrated = useHydrated();
  const auth = useAuth({ start: 'if-stored' });
  const signInLink = (
    <Link to={paths.auth} className={buttonStyles({ variant: 'ghost' })}>
      Sign in
    </Link>
  );
  if (auth.user) {
    return (
      <Suspense fallback={<span aria-hidden="true" className="inline-block h-10 w-12" />}>
        <AccountMenu user={auth.user} />
      </Suspense>
    );
  }
  // A stored session is being restored: keep the slot, without a sign-in link that would flash.
  if (isHydrated && auth.loading && hasStoredSession()) {
    return <span aria-hidden="true" className="inline-block h-10 w-12" />;
  }
  return signInLink;
}
