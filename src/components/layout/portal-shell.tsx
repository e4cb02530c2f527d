import type { User } from '@supabase/supabase-js';
import { Menu, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { Container } from '@/components/ui/container';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { cn } from '@/lib/cn';
import { roleOf, type Role } from '@/lib/auth/roles';
import { PortalAccountMenu } from './account-trigger';
import { Logo } from './logo';

interface PortalLink {
  label: string;
  to: string;
  roles: Role[];
  /** Also current on the pages below it (a call's page is under Calls). */
  hasChildren?: boolean;
}

interface PortalGroup {
  label: string;
  links: PortalLink[];
}

const CUSTOMER: Role[] = ['customer', 'admin'];

/** The signed-in area's one menu, in the order a customer needs it. */
const PORTAL_GROUPS: PortalGroup[] = [
  {
    label: 'Calls',
    links: [
      { label: 'Overview', to: paths.dashboard, roles: CUSTOMER },
      { label: 'Calls', to: paths.calls, roles: CUSTOMER, hasChildren: true },
    ],
  },
  {
    label: 'Workspace',
    links: [
      { label: 'Agent', to: paths.agent, roles: CUSTOMER },
      { label: 'Phone numbers', to: paths.phoneNumbers, roles: CUSTOMER },
      { label: 'Knowledge', to: paths.knowledge, roles: CUSTOMER },
      { label: 'Team', to: paths.team, roles: CUSTOMER },
      { label: 'Connect phone system', to: paths.connectPhone, roles: CUSTOMER },
    ],
  },
  {
    label: 'Admin',
    links: [
      { label: 'Admin overview', to: paths.admin, roles: ['admin'] },
      { label: 'Leads', to: paths.adminLeads, roles: ['admin'], hasChildren: true },
      { label: 'Bookings', to: paths.adminBookings, roles: ['admin'], hasChildren: true },
      { label: 'Availability', to: paths.adminAvailability, roles: ['admin'] },
      { label: 'Partners', to: paths.adminPartners, roles: ['admin'] },
      { label: 'Commissions', to: paths.adminCommissions, roles: ['admin'] },
      { label: 'Users', to: paths.adminUsers, roles: ['admin'], hasChildren: true },
      { label: 'Email log', to: paths.adminEmails, roles: ['admin'], hasChildren: true },
      { label: 'Audit log', to: paths.adminAudit, roles: ['admin'] },
    ],
  },
  {
    label: 'Partners',
    links: [
      { label: 'Partner portal', to: paths.partnerPortal, roles: ['partner', 'admin'] },
      { label: 'Referrals', to: paths.partnerReferrals, roles: ['partner'] },
      { label: 'Deal registration', to: paths.partnerRegistrations, roles: ['partner'] },
      { label: 'Commissions', to: paths.partnerCommissions, roles: ['partner'] },
      { label: 'Marketing assets', to: paths.partnerAssets, roles: ['partner'] },
    ],
  },
  {
    label: 'You',
    links: [
      {
        label: 'Account settings',
        to: paths.accountSettings,
        roles: ['customer', 'partner', 'admin'],
      },
    ],
  },
];

/** The groups and links a role sees (groups left empty are dropped). */
export function portalMenuFor(role: Role): PortalGroup[] {
  return PORTAL_GROUPS.map((group) => ({
    ...group,
    links: group.links.filter((link) => link.roles.includes(role)),
  })).filter((group) => group.links.length > 0);
}

const linkStyles = ({ isActive }: { isActive: boolean }) =>
  cn(
    'flex min-h-11 items-center rounded-lg px-3 text-sm font-medium transition-colors lg:min-h-9',
    isActive ? 'bg-azure-50 text-azure-800' : 'text-ink-700 hover:bg-sand-100 hover:text-ink-900',
  );

/**
 * The frame of the signed-in areas: one menu of every area (a column beside
 * the page from 1024 px, a sheet behind the Menu button below), the account
 * menu, and the footer.
 */
export function PortalShell({ user, children }: { user: User | null; children: ReactNode }) {
  const groups = user ? portalMenuFor(roleOf(user)) : [];
  const [isOpen, setIsOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!isOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setIsOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [isOpen]);

  return (
    <div className="flex min-h-dvh flex-col bg-sand-50">
      <header className="sticky top-0 z-50 border-b border-sand-200 bg-white">
        <Container className="flex h-16 items-center justify-between gap-4">
          <Logo />
          <div className="flex items-center gap-2">
            {groups.length > 0 ? (
              <button
                ref={buttonRef}
                type="button"
                aria-expanded={isOpen}
                aria-controls={menuId}
                onClick={() => setIsOpen((open) => !open)}
                className="inline-flex h-10 items-center gap-2 rounded-lg border border-sand-200 px-3 text-sm font-semibold text-ink-900 hover:bg-sand-100 lg:hidden"
              >
                {isOpen ? (
                  <X aria-hidden="true" className="size-4" />
                ) : (
                  <Menu aria-hidden="true" className="size-4" />
                )}
                Menu
              </button>
            ) : null}
            {user ? <PortalAccountMenu user={user} /> : null}
          </div>
        </Container>
      </header>
      <div className="mx-auto flex w-full max-w-[1600px] flex-1">
        {groups.length > 0 ? (
          <nav
            id={menuId}
            aria-label="Account areas"
            className={cn(
              'fixed inset-x-0 top-16 bottom-0 z-40 overflow-y-auto border-t border-sand-200 bg-white px-5 py-4',
              'lg:sticky lg:top-16 lg:block lg:h-[calc(100dvh-4rem)] lg:w-60 lg:shrink-0 lg:border-t-0 lg:border-r lg:bg-transparent lg:px-4 lg:py-8',
              isOpen ? 'block' : 'hidden',
            )}
          >
            {groups.map((group) => (
              <div key={group.label} className="mb-5 last:mb-0">
                <p className="px-3 pb-1 text-xs font-semibold tracking-wide text-ink-600 uppercase">
                  {group.label}
                </p>
                <ul className="grid gap-0.5">
                  {group.links.map((link) => (
                    <li key={link.to}>
                      <NavLink
                        to={link.to}
                        end={!link.hasChildren}
                        className={linkStyles}
                        onClick={() => setIsOpen(false)}
                      >
                        {link.label}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        ) : null}
        <div id="main" className="min-w-0 flex-1">
          {children}
        </div>
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
