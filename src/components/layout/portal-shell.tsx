import type { User } from '@supabase/supabase-js';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { Container } from '@/components/ui/container';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { cn } from '@/lib/cn';
import { roleOf, type Role } from '@/lib/auth/roles';
import { AccountMenu } from './account-menu';
import { Logo } from './logo';

interface PortalLink {
  label: string;
  /** A shorter label for phones, so the menu fits on one line there. */
  shortLabel?: string;
  to: string;
  roles: Role[];
  /** Also current on the pages below it (a call's page is under Calls). */
  hasChildren?: boolean;
}

const PORTAL_LINKS: PortalLink[] = [
  { label: 'Overview', to: paths.dashboard, roles: ['customer', 'admin'] },
  { label: 'Calls', to: paths.calls, roles: ['customer', 'admin'], hasChildren: true },
  {
    label: 'Connect phone system',
    shortLabel: 'Connect',
    to: paths.connectPhone,
    roles: ['customer', 'admin'],
  },
  { label: 'Partner portal', to: paths.partnerPortal, roles: ['partner', 'admin'] },
  { label: 'Admin', to: paths.admin, roles: ['admin'] },
  {
    label: 'Account settings',
    shortLabel: 'Settings',
    to: paths.accountSettings,
    roles: ['customer', 'partner', 'admin'],
  },
];

const linkStyles = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors',
    isActive ? 'bg-azure-50 text-azure-800' : 'text-ink-700 hover:bg-sand-100 hover:text-ink-900',
  );

/** The frame of the signed-in areas: their navigation and the account menu. */
export function PortalShell({ user, children }: { user: User | null; children: ReactNode }) {
  const role = roleOf(user);
  const links = user ? PORTAL_LINKS.filter((link) => link.roles.includes(role)) : [];
  return (
    <div className="flex min-h-dvh flex-col bg-sand-50">
      <header className="sticky top-0 z-50 border-b border-sand-200 bg-white">
        <Container className="flex h-16 items-center justify-between gap-4">
          <Logo />
          {user ? <AccountMenu user={user} /> : null}
        </Container>
        {links.length > 0 ? (
          <Container>
            <nav aria-label="Account areas" className="-mx-2 flex gap-1 overflow-x-auto pb-2">
              {links.map((link) => (
                <NavLink key={link.to} to={link.to} end={!link.hasChildren} className={linkStyles}>
                  {link.shortLabel ? (
                    <>
                      <span className="sm:hidden">{link.shortLabel}</span>
                      <span className="hidden sm:inline">{link.label}</span>
                    </>
                  ) : (
                    link.label
                  )}
                </NavLink>
              ))}
            </nav>
          </Container>
        ) : null}
      </header>
      <div id="main" className="flex-1">
        {children}
      </div>
      <footer className="border-t border-sand-200 bg-white">
        <Container className="flex flex-wrap items-center justify-between gap-3 py-5 text-sm text-ink-600">
          <p>
            © {new Date().getFullYear()} {site.legalName}
          </p>
          <p className="flex gap-4">
            <Link to={paths.home} className="hover:text-ink-900 hover:underline">
              Cervana website
            </Link>
            <Link to={paths.privacyPolicy} className="hover:text-ink-900 hover:underline">
              Privacy policy
            </Link>
            <a href={`mailto:${site.contactEmail}`} className="hover:text-ink-900 hover:underline">
              Help
            </a>
          </p>
        </Container>
      </footer>
    </div>
  );
}
