import { Suspense, useEffect } from 'react';
import { matchRoutes, useRoutes, type RouteObject } from 'react-router';
import { RouteLoading } from '@/components/ui/route-loading';
import { paths } from '@/config/paths';
import { onDemand as onDemandComponent, type OnDemandComponent } from '@/lib/on-demand';
import { RouteErrorBoundary } from './error-boundary';
import { startAuth } from '@/lib/auth/auth-store';
import { MarketingLayout } from './marketing-layout';
import { RequireAuth } from './require-auth';
import { RootLayout } from './root-layout';
import { LandingPage } from './routes/landing';

/**
 * The one route table. Every page but the landing page loads on demand and
 * shows 'Loading...' meanwhile; each has its own Suspense boundary, so the
 * fallback also shows when navigating from another page. Page titles and
 * descriptions live in src/config/page-meta.ts, looked up by path.
 */

function onDemand(Page: OnDemandComponent, key: string): RouteObject['element'] {
  return (
    <Suspense key={key} fallback={<RouteLoading />}>
      <Page />
    </Suspense>
  );
}

/**
 * A route's `handle`: the code it renders, for preloadRoute, and optionally
 * what its first view reads, for prefetchRouteData (the reads' code loads on
 * demand too, so none of it enters the landing page's bundle).
 */
interface RouteHandle {
  page?: OnDemandComponent;
  data?: (search: string) => Promise<void>;
}

function pageCode(page: OnDemandComponent, data?: RouteHandle['data']): RouteHandle {
  return data ? { page, data } : { page };
}

/** Every signed-in page needs the session: it is read from storage while the page's code loads. */
const signedInData = async () => {
  await startAuth().catch(() => undefined);
};
const adminOverviewData = async (search: string) => {
  const { prefetchAdminOverview } = await import('@/features/admin/api/prefetch');
  await prefetchAdminOverview(search);
};
const partnerSummaryData = async (search: string) => {
  const { prefetchPartnerSummary } = await import('@/features/partners/api/prefetch');
  await prefetchPartnerSummary(search);
};
const leadsData = async (search: string) => {
  const { prefetchLeadsView } = await import('@/features/admin/api/leads-list');
  await prefetchLeadsView(search);
};
const bookingsData = async (search: string) => {
  const { prefetchBookingsView } = await import('@/features/admin/api/bookings');
  await prefetchBookingsView(search);
};
const partnersAdminData = async (search: string) => {
  const { prefetchPartnersView } = await import('@/features/admin/api/partners');
  await prefetchPartnersView(search);
};
const commissionsAdminData = async (search: string) => {
  const { prefetchCommissionsView } = await import('@/features/admin/api/commissions');
  await prefetchCommissionsView(search);
};
const usersData = async (search: string) => {
  const { prefetchUsersView } = await import('@/features/admin/api/users');
  await prefetchUsersView(search);
};
const emailsData = async (search: string) => {
  const { prefetchEmailsView } = await import('@/features/admin/api/email-log');
  await prefetchEmailsView(search);
};
const referralsData = async (search: string) => {
  const { prefetchReferralsView } = await import('@/features/partners/api/partner-referrals');
  await prefetchReferralsView(search);
};
const partnerCommissionsData = async (search: string) => {
  const { prefetchCommissionsView } = await import('@/features/partners/api/commissions');
  await prefetchCommissionsView(search);
};
const callsData = (view: 'overview' | 'list') => async (search: string) => {
  const { prefetchCallsView } = await import('@/features/calls/api/prefetch');
  await prefetchCallsView(view, search);
};

/**
 * A signed-in page behind RequireAuth. Its code starts loading while the
 * session is being checked, not after, so the page and its data arrive sooner.
 */
function SignedInPage({
  page,
  pageKey,
  role,
}: {
  page: OnDemandComponent;
  pageKey: string;
  role?: 'admin';
}) {
  useEffect(() => {
    // A failed load is remembered and shown by the page's boundary when it renders.
    page.preload().catch(() => undefined);
  }, [page]);
  return (
    <RequireAuth
      role={role}
      secondFactorSetup={
        role === 'admin' ? onDemand(AdminSecondFactorPage, 'admin-second-factor') : undefined
      }
    >
      {onDemand(page, pageKey)}
    </RequireAuth>
  );
}

const PartnerPage = onDemandComponent(() => import('./routes/partner'));
const PartnerPortalPage = onDemandComponent(() => import('./routes/partner-portal'));
const PartnerReferralsPage = onDemandComponent(() => import('./routes/partner-portal-referrals'));
const PartnerRegistrationsPage = onDemandComponent(
  () => import('./routes/partner-portal-registrations'),
);
const PartnerCommissionsPage = onDemandComponent(
  () => import('./routes/partner-portal-commissions'),
);
const PartnerAssetsPage = onDemandComponent(() => import('./routes/partner-portal-assets'));
const AuthPage = onDemandComponent(() => import('./routes/auth'));
const DashboardPage = onDemandComponent(() => import('./routes/dashboard'));
const DashboardCallsPage = onDemandComponent(() => import('./routes/dashboard-calls'));
const DashboardCallPage = onDemandComponent(() => import('./routes/dashboard-call'));
const DashboardConnectPage = onDemandComponent(() => import('./routes/dashboard-connect'));
const DashboardAgentPage = onDemandComponent(() => import('./routes/dashboard-agent'));
const DashboardNumbersPage = onDemandComponent(() => import('./routes/dashboard-numbers'));
const DashboardKnowledgePage = onDemandComponent(() => import('./routes/dashboard-knowledge'));
const DashboardTeamPage = onDemandComponent(() => import('./routes/dashboard-team'));
const AccountSettingsPage = onDemandComponent(() => import('./routes/account-settings'));
const AdminPage = onDemandComponent(() => import('./routes/admin'));
const AdminSecondFactorPage = onDemandComponent(() => import('./routes/admin-second-factor'));
const AdminLeadsPage = onDemandComponent(() => import('./routes/admin-leads'));
const AdminLeadPage = onDemandComponent(() => import('./routes/admin-lead'));
const AdminAuditPage = onDemandComponent(() => import('./routes/admin-audit'));
const AdminPartnersPage = onDemandComponent(() => import('./routes/admin-partners'));
const AdminEmailsPage = onDemandComponent(() => import('./routes/admin-emails'));
const AdminEmailPage = onDemandComponent(() => import('./routes/admin-email'));
const AdminUsersPage = onDemandComponent(() => import('./routes/admin-users'));
const AdminUserPage = onDemandComponent(() => import('./routes/admin-user'));
const AdminBookingsPage = onDemandComponent(() => import('./routes/admin-bookings'));
const AdminBookingPage = onDemandComponent(() => import('./routes/admin-booking'));
const AdminAvailabilityPage = onDemandComponent(() => import('./routes/admin-availability'));
const AdminCommissionsPage = onDemandComponent(() => import('./routes/admin-commissions'));
const DemoPage = onDemandComponent(() => import('./routes/demo'));
const TalkToSalesPage = onDemandComponent(() => import('./routes/talk-to-sales'));
const PrivacyPolicyPage = onDemandComponent(() => import('./routes/privacy-policy'));
const NotFoundPage = onDemandComponent(() => import('./routes/not-found'));
// The signed-in areas' frame loads with their first page, not with the landing page.
const PortalLayout = onDemandComponent(() => import('./portal-layout'));

/** Every page loaded on demand, for the prerenderer to load first. */
export const onDemandPages: OnDemandComponent[] = [
  PartnerPage,
  PartnerPortalPage,
  PartnerReferralsPage,
  PartnerRegistrationsPage,
  PartnerCommissionsPage,
  PartnerAssetsPage,
  AuthPage,
  DashboardPage,
  DashboardCallsPage,
  DashboardCallPage,
  DashboardConnectPage,
  DashboardAgentPage,
  DashboardNumbersPage,
  DashboardKnowledgePage,
  DashboardTeamPage,
  AccountSettingsPage,
  AdminPage,
  AdminLeadsPage,
  AdminLeadPage,
  AdminAuditPage,
  AdminPartnersPage,
  AdminEmailsPage,
  AdminEmailPage,
  AdminUsersPage,
  AdminUserPage,
  AdminBookingsPage,
  AdminBookingPage,
  AdminAvailabilityPage,
  AdminCommissionsPage,
  AdminSecondFactorPage,
  DemoPage,
  TalkToSalesPage,
  PrivacyPolicyPage,
  NotFoundPage,
  PortalLayout,
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <MarketingLayout />,
        children: [
          { path: paths.home, element: <LandingPage /> },
          {
            path: paths.partner,
            element: onDemand(PartnerPage, paths.partner),
            handle: pageCode(PartnerPage),
          },
          { path: paths.auth, element: onDemand(AuthPage, paths.auth), handle: pageCode(AuthPage) },
          { path: paths.demo, element: onDemand(DemoPage, paths.demo), handle: pageCode(DemoPage) },
          {
            path: paths.talkToSales,
            element: onDemand(TalkToSalesPage, paths.talkToSales),
            handle: pageCode(TalkToSalesPage),
          },
          {
            path: paths.privacyPolicy,
            element: onDemand(PrivacyPolicyPage, paths.privacyPolicy),
            handle: pageCode(PrivacyPolicyPage),
          },
          { path: '*', element: onDemand(NotFoundPage, '*'), handle: pageCode(NotFoundPage) },
        ],
      },
      {
        // The signed-in areas. Who may see each is decided here (RequireAuth, in SignedInPage).
        element: onDemand(PortalLayout, 'portal'),
        handle: pageCode(PortalLayout, signedInData),
        children: [
          {
            path: paths.dashboard,
            element: <SignedInPage page={DashboardPage} pageKey={paths.dashboard} />,
            handle: pageCode(DashboardPage, callsData('overview')),
          },
          {
            path: paths.calls,
            element: <SignedInPage page={DashboardCallsPage} pageKey={paths.calls} />,
            handle: pageCode(DashboardCallsPage, callsData('list')),
          },
          {
            path: paths.callDetail,
            element: <SignedInPage page={DashboardCallPage} pageKey={paths.callDetail} />,
            handle: pageCode(DashboardCallPage),
          },
          {
            path: paths.connectPhone,
            element: <SignedInPage page={DashboardConnectPage} pageKey={paths.connectPhone} />,
            handle: pageCode(DashboardConnectPage),
          },
          {
            path: paths.agent,
            element: <SignedInPage page={DashboardAgentPage} pageKey={paths.agent} />,
            handle: pageCode(DashboardAgentPage),
          },
          {
            path: paths.phoneNumbers,
            element: <SignedInPage page={DashboardNumbersPage} pageKey={paths.phoneNumbers} />,
            handle: pageCode(DashboardNumbersPage),
          },
          {
            path: paths.knowledge,
            element: <SignedInPage page={DashboardKnowledgePage} pageKey={paths.knowledge} />,
            handle: pageCode(DashboardKnowledgePage),
          },
          {
            path: paths.team,
            element: <SignedInPage page={DashboardTeamPage} pageKey={paths.team} />,
            handle: pageCode(DashboardTeamPage),
          },
          {
            path: paths.accountSettings,
            element: <SignedInPage page={AccountSettingsPage} pageKey={paths.accountSettings} />,
            handle: pageCode(AccountSettingsPage),
          },
          {
            // Any signed-in user: partners get the portal, others how to join.
            path: paths.partnerPortal,
            element: <SignedInPage page={PartnerPortalPage} pageKey={paths.partnerPortal} />,
            handle: pageCode(PartnerPortalPage, partnerSummaryData),
          },
          {
            path: paths.partnerReferrals,
            element: <SignedInPage page={PartnerReferralsPage} pageKey={paths.partnerReferrals} />,
            handle: pageCode(PartnerReferralsPage, referralsData),
          },
          {
            path: paths.partnerRegistrations,
            element: (
              <SignedInPage page={PartnerRegistrationsPage} pageKey={paths.partnerRegistrations} />
            ),
            handle: pageCode(PartnerRegistrationsPage),
          },
          {
            path: paths.partnerCommissions,
            element: (
              <SignedInPage page={PartnerCommissionsPage} pageKey={paths.partnerCommissions} />
            ),
            handle: pageCode(PartnerCommissionsPage, partnerCommissionsData),
          },
          {
            path: paths.partnerAssets,
            element: <SignedInPage page={PartnerAssetsPage} pageKey={paths.partnerAssets} />,
            handle: pageCode(PartnerAssetsPage),
          },
          {
            path: paths.admin,
            element: <SignedInPage page={AdminPage} pageKey={paths.admin} role="admin" />,
            handle: pageCode(AdminPage, adminOverviewData),
          },
          {
            path: paths.adminLeads,
            element: <SignedInPage page={AdminLeadsPage} pageKey={paths.adminLeads} role="admin" />,
            handle: pageCode(AdminLeadsPage, leadsData),
          },
          {
            path: paths.adminLead,
            element: <SignedInPage page={AdminLeadPage} pageKey={paths.adminLead} role="admin" />,
            handle: pageCode(AdminLeadPage),
          },
          {
            path: paths.adminAudit,
            element: <SignedInPage page={AdminAuditPage} pageKey={paths.adminAudit} role="admin" />,
            handle: pageCode(AdminAuditPage),
          },
          {
            path: paths.adminPartners,
            element: (
              <SignedInPage page={AdminPartnersPage} pageKey={paths.adminPartners} role="admin" />
            ),
            handle: pageCode(AdminPartnersPage, partnersAdminData),
          },
          {
            path: paths.adminEmails,
            element: (
              <SignedInPage page={AdminEmailsPage} pageKey={paths.adminEmails} role="admin" />
            ),
            handle: pageCode(AdminEmailsPage, emailsData),
          },
          {
            path: paths.adminEmail,
            element: <SignedInPage page={AdminEmailPage} pageKey={paths.adminEmail} role="admin" />,
            handle: pageCode(AdminEmailPage),
          },
          {
            path: paths.adminUsers,
            element: <SignedInPage page={AdminUsersPage} pageKey={paths.adminUsers} role="admin" />,
            handle: pageCode(AdminUsersPage, usersData),
          },
          {
            path: paths.adminUser,
            element: <SignedInPage page={AdminUserPage} pageKey={paths.adminUser} role="admin" />,
            handle: pageCode(AdminUserPage),
          },
          {
            path: paths.adminBookings,
            element: (
              <SignedInPage page={AdminBookingsPage} pageKey={paths.adminBookings} role="admin" />
            ),
            handle: pageCode(AdminBookingsPage, bookingsData),
          },
          {
            path: paths.adminBooking,
            element: (
              <SignedInPage page={AdminBookingPage} pageKey={paths.adminBooking} role="admin" />
            ),
            handle: pageCode(AdminBookingPage),
          },
          {
            path: paths.adminAvailability,
            element: (
              <SignedInPage
                page={AdminAvailabilityPage}
                pageKey={paths.adminAvailability}
                role="admin"
              />
            ),
            handle: pageCode(AdminAvailabilityPage),
          },
          {
            path: paths.adminCommissions,
            element: (
              <SignedInPage
                page={AdminCommissionsPage}
                pageKey={paths.adminCommissions}
                role="admin"
              />
            ),
            handle: pageCode(AdminCommissionsPage, commissionsAdminData),
          },
        ],
      },
    ],
  },
];

/**
 * Loads the code of every layout and page that `pathname` renders. The app
 * renders a page that is not prerendered once they are here (their files are
 * already on the way: the shell lists them), so it shows the page at once
 * instead of suspending on each level in turn, where React holds back every
 * revealed boundary a little to avoid flicker. A failed load settles this all
 * the same: the page's boundary then shows the failure.
 */
export async function preloadRoute(pathname: string): Promise<void> {
  const pages = (matchRoutes(routes, pathname) ?? []).flatMap(({ route }) => {
    const handle = route.handle as RouteHandle | undefined;
    return handle?.page ? [handle.page] : [];
  });
  await Promise.allSettled(pages.map((page) => page.preload()));
}

/**
 * Starts what the levels `pathname` renders read first (the session, then the
 * page's data), beside their code rather than after it: the page's queries
 * then find their reads in flight. Never rejects; a failed read is the page's
 * to report when it asks again.
 */
export async function prefetchRouteData(pathname: string, search: string): Promise<void> {
  const reads = (matchRoutes(routes, pathname) ?? []).flatMap(({ route }) => {
    const handle = route.handle as RouteHandle | undefined;
    return handle?.data ? [handle.data(search)] : [];
  });
  await Promise.allSettled(reads);
}

/**
 * Renders the route table (inside any router: browser, static or memory). Each
 * layout keeps its header when its page fails; this boundary is for a layout
 * that fails itself (say, the portal's code cannot load).
 */
export function AppRoutes() {
  return <RouteErrorBoundary placement="standalone">{useRoutes(routes)}</RouteErrorBoundary>;
}
