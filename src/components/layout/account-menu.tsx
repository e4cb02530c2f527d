import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { ChevronDown, LogOut, Settings, LayoutDashboard } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { homePathFor, roleOf } from '@/lib/auth/roles';
import { signOut } from '@/lib/auth/sign-out';
import { displayNameOf } from '@/lib/auth/user-profile';
import type { User } from '@supabase/supabase-js';

const HOME_LABELS = {
  admin: 'Admin area',
  partner: 'Partner portal',
  customer: 'Dashboard',
} as const;
const itemStyles =
  'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-ink-800 outline-none data-[highlighted]:bg-sand-100 data-[highlighted]:text-ink-900';

function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase());
  return letters.join('') || '?';
}

/** The signed-in user's menu: their home, account settings, sign out (this device). */
export function AccountMenu({ user }: { user: User }) {
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
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="inline-flex h-10 items-center gap-2 rounded-lg px-2 text-sm font-semibold text-ink-900 hover:bg-sand-100">
        <span
          aria-hidden="true"
          className="flex size-8 items-center justify-center rounded-full bg-azure-700 text-xs font-bold text-white"
        >
          {initials(name)}
        </span>
        <span className="hidden max-w-40 truncate sm:inline">{name}</span>
        <span className="sr-only sm:hidden">Account menu for {name}</span>
        <ChevronDown aria-hidden="true" className="size-4 text-ink-600" />
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
