import type { User } from '@supabase/supabase-js';
import { lazy, Suspense, useEffect, useState } from 'react';
import { displayNameOf } from '@/lib/auth/user-profile';
import { AccountTriggerLabel, accountTriggerStyles } from './account-trigger-label';

const loadMenu = () => import('./account-menu');
const AccountMenu = lazy(() => loadMenu().then((module) => ({ default: module.AccountMenu })));

/**
 * The portal header's account menu, whose code (the menu and its positioning,
 * about 14 KB compressed) is not on a signed-in page's first load (decision
 * 034): until it is opened, the same button without the menu. Hovering or
 * focusing it, or two seconds after the page loaded, fetches the
 * menu's code; a click renders the menu, open.
 */
export function PortalAccountMenu({ user }: { user: User }) {
  const [isWanted, setIsWanted] = useState(false);
  useEffect(() => {
    // Two seconds after the page loaded, so it does not share the network with the first reads.
    let timer: number | undefined;
    const preload = () => {
      timer = window.setTimeout(() => void loadMenu().catch(() => undefined), 2000);
    };
    if (document.readyState === 'complete') preload();
    else window.addEventListener('load', preload, { once: true });
    return () => {
      window.removeEventListener('load', preload);
      window.clearTimeout(timer);
    };
  }, []);

  const name = displayNameOf(user);
  const button = (
    <button
      type="button"
      aria-haspopup="menu"
      aria-expanded="false"
      className={accountTriggerStyles}
      onPointerEnter={() => void loadMenu().catch(() => undefined)}
      onFocus={() => void loadMenu().catch(() => undefined)}
      onClick={() => setIsWanted(true)}
    >
      <AccountTriggerLabel name={name} />
    </button>
  );
  if (!isWanted) return button;
  return (
    <Suspense fallback={button}>
      <AccountMenu user={user} defaultOpen />
    </Suspense>
  );
}
