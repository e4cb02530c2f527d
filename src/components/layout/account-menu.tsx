import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { LogOut, Settings, LayoutDashboard } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { homePathFor, roleOf } from '@/lib/auth/roles';
import { signOut } from '@/lib/auth/sign-out';
import { displayNameOf } from '@/lib/auth/user-profile';
import type { User } from '@supabase/supabase-js';
import { AccountTriggerLabel, accountTriggerStyles } from './account-trigger-label';

const HOME_LABELS = {
  admin: 'Admin area',
  partner: 'Partner portal',
  customer: 'Dashboard',
} as const;
const itemStyles =
  'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-ink-800 outline-none data-[highlighted]:bg-sand-100 data-[highlighted]:text-ink-900';

/** The signed-in user's menu: their home, account settings, sign out (this device). */
export function AccountMenu({ user, defaultOpen = false }: { user: User; defaultOpen?: boolean }) {
  const navigate = useNavigate();
  const [isSigningOut, setIsSigningOut] = useState(false);
  const name = displayNameOf(user);
  const role = roleOf(user);

  const handleSignOut = async () => {
    setIsSigningOut(true);
    try {
      await signOut('local');
    } finally {
      setIsSigningOut(false);
      void navigate(`${paths.auth}?notice=signed-out`, { replace: true });
    }
  };

  return (
    <DropdownMenu.Root defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger className={accountTriggerStyles}>
        <AccountTriggerLabel name={name} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-[70] min-w-60 rounded-xl border border-sand-200 bg-white p-1.5 shadow-lg"
        >
          <DropdownMenu.Label className="px-3 py-2">
            <p className="truncate text-sm font-semibold text-ink-900">{name}</p>
            <p className="truncate text-xs text-ink-600">{user.email ?? user.phone}</p>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-sand-200" />
          <DropdownMenu.Item
            className={itemStyles}
            onSelect={() => void navigate(homePathFor(role))}
          >
            <LayoutDashboard aria-hidden="true" className="size-4" />
            {HOME_LABELS[role]}
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className={itemStyles}
            onSelect={() => void navigate(paths.accountSettings)}
          >
            <Settings aria-hidden="true" className="size-4" />
            Account settings
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-sand-200" />
          <DropdownMenu.Item
            className={itemStyles}
            disabled={isSigningOut}
            onSelect={() => void handleSignOut()}
          >
            <LogOut aria-hidden="true" className="size-4" />
            {isSigningOut ? 'Signing out...' : 'Sign out'}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
