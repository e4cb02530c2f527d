import { Suspense, useEffect } from 'react';
import { RouteLoading } from '@/components/ui/route-loading';
import { paths, type SignedInPath } from '@/config/paths';
import { onDemand, type OnDemandComponent } from '@/lib/on-demand';
import { RequireAuth } from './require-auth';

/**
 * The signed-in pages' half of the route table (decision 036): which code each
 * renders, who may see it and what its first view reads. The table in
 * `router.tsx` lists their paths only, so none of this enters the landing
 * page's bundle; it loads with the portal's frame.
 */

export interface PortalPage {
  page: OnDemandComponent;
  role?: 'admin';
  /** What the page's first view reads, started beside its code (prefetchRouteData). */
  data?: (search: string) => Promise<void>;
}

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

const PartnerPortalPage = onDemand(() => import('./routes/partner-portal'));
const PartnerReferralsPage = onDemand(() => import('./routes/partner-portal-referrals'));
const PartnerRegistrationsPage = onDemand(() => import('./routes/partner-portal-registrations'));
const PartnerCommissionsPage = onDemand(() => import('./routes/partner-portal-commissions'));
const PartnerAssetsPage = onDemand(() => import('./routes/partner-portal-assets'));
const DashboardPage = onDemand(() => import('./routes/dashboard'));
const DashboardCallsPage = onDemand(() => import('./routes/dashboard-calls'));
const DashboardCallPage = onDemand(() => import('./routes/dashboard-call'));
const DashboardConnectPage = onDemand(() => import('./routes/dashboard-connect'));
const DashboardAgentPage = onDemand(() => import('./routes/dashboard-agent'));
const DashboardNumbersPage = onDemand(() => import('./routes/dashboard-numbers'));
const DashboardKnowledgePage = onDemand(() => import('./routes/dashboard-knowledge'));
const DashboardTeamPage = onDemand(() => import('./routes/dashboard-team'));
const AccountSettingsPage = onDemand(() => import('./routes/account-settings'));
const AdminPage = onDemand(() => import('./routes/admin'));
export const AdminSecondFactorPage = onDemand(() => import('./routes/admin-second-factor'));
const AdminLeadsPage = onDemand(() => import('./routes/admin-leads'));
const AdminLeadPage = onDemand(() => import('./routes/admin-lead'));
const AdminAuditPage = onDemand(() => import('./routes/admin-audit'));
const AdminPartnersPage = onDemand(() => import('./routes/admin-partners'));
const AdminEmailsPage = onDemand(() => import('./routes/admin-emails'));
const AdminEmailPage = onDemand(() => import('./routes/admin-email'));
const AdminUsersPage = onDemand(() => import('./routes/admin-users'));
const AdminUserPage = onDemand(() => import('./routes/admin-user'));
const AdminBookingsPage = onDemand(() => import('./routes/admin-bookings'));
const AdminBookingPage = onDemand(() => import('./routes/admin-booking'));
const AdminAvailabilityPage = onDemand(() => import('./routes/admin-availability'));
const AdminCommissionsPage = onDemand(() => import('./routes/admin-commissions'));

export const portalPages: Record<SignedInPath, PortalPage> = {
  [paths.dashboard]: { page: DashboardPage, data: callsData('overview') },
  [paths.calls]: { page: DashboardCallsPage, data: callsData('list') },
  [paths.callDetail]: { page: DashboardCallPage },
  [paths.connectPhone]: { page: DashboardConnectPage },
  [paths.agent]: { page: DashboardAgentPage },
  [paths.phoneNumbers]: { page: DashboardNumbersPage },
  [paths.knowledge]: { page: DashboardKnowledgePage },
  [paths.team]: { page: DashboardTeamPage },
  [paths.accountSettings]: { page: AccountSettingsPage },
  [paths.partnerPortal]: { page: PartnerPortalPage, data: partnerSummaryData },
  [paths.partnerReferrals]: { page: PartnerReferralsPage, data: referralsData },
  [paths.partnerRegistrations]: { page: PartnerRegistrationsPage },
  [paths.partnerCommissions]: { page: PartnerCommissionsPage, data: partnerCommissionsData },
  [paths.partnerAssets]: { page: PartnerAssetsPage },
  [paths.admin]: { page: AdminPage, role: 'admin', data: adminOverviewData },
  [paths.adminLeads]: { page: AdminLeadsPage, role: 'admin', data: leadsData },
  [paths.adminLead]: { page: AdminLeadPage, role: 'admin' },
  [paths.adminAudit]: { page: AdminAuditPage, role: 'admin' },
  [paths.adminPartners]: { page: AdminPartnersPage, role: 'admin', data: partnersAdminData },
  [paths.adminEmails]: { page: AdminEmailsPage, role: 'admin', data: emailsData },
  [paths.adminEmail]: { page: AdminEmailPage, role: 'admin' },
  [paths.adminUsers]: { page: AdminUsersPage, role: 'admin', data: usersData },
  [paths.adminUser]: { page: AdminUserPage, role: 'admin' },
  [paths.adminBookings]: { page: AdminBookingsPage, role: 'admin', data: bookingsData },
  [paths.adminBooking]: { page: AdminBookingPage, role: 'admin' },
  [paths.adminAvailability]: { page: AdminAvailabilityPage, role: 'admin' },
  [paths.adminCommissions]: {
    page: AdminCommissionsPage,
    role: 'admin',
    data: commissionsAdminData,
  },
};

function pageElement(Page: OnDemandComponent, key: string) {
  return (
    <Suspense key={key} fallback={<RouteLoading />}>
      <Page />
    </Suspense>
  );
}

/**
 * A signed-in page behind RequireAuth. Its code starts loading while the
 * session is being checked, not after, so the page and its data arrive sooner.
 */
export default function SignedInRoute({ path }: { path: SignedInPath }) {
  const { page, role } = portalPages[path];
  useEffect(() => {
    // A failed load is remembered and shown by the page's boundary when it renders.
    page.preload().catch(() => undefined);
  }, [page]);
  return (
    <RequireAuth
      role={role}
      secondFactorSetup={
        role === 'admin' ? pageElement(AdminSecondFactorPage, 'admin-second-factor') : undefined
      }
    >
      {pageElement(page, path)}
    </RequireAuth>
  );
}
