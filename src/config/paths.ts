/**
 * Every page's path, shared by the app's route table and the server, which
 * answers any other path with a real 404. Keep it free of imports.
 */
export const paths = {
  home: '/',
  partner: '/partner',
  partnerPortal: '/partner-portal',
  partnerReferrals: '/partner-portal/referrals',
  partnerRegistrations: '/partner-portal/registrations',
  partnerCommissions: '/partner-portal/commissions',
  partnerAssets: '/partner-portal/assets',
  auth: '/auth',
  dashboard: '/dashboard',
  calls: '/dashboard/calls',
  callDetail: '/dashboard/calls/:callId',
  connectPhone: '/dashboard/connect',
  agent: '/dashboard/agent',
  phoneNumbers: '/dashboard/numbers',
  knowledge: '/dashboard/knowledge',
  team: '/dashboard/team',
  accountSettings: '/dashboard/settings',
  admin: '/admin',
  adminLeads: '/admin/leads',
  adminLead: '/admin/leads/:leadId',
  adminAudit: '/admin/audit',
  adminPartners: '/admin/partners',
  adminEmails: '/admin/emails',
  adminEmail: '/admin/emails/:messageId',
  adminUsers: '/admin/users',
  adminUser: '/admin/users/:userId',
  adminBookings: '/admin/bookings',
  adminBooking: '/admin/bookings/:bookingId',
  adminAvailability: '/admin/availability',
  adminCommissions: '/admin/commissions',
  demo: '/demo',
  talkToSales: '/talk-to-sales',
  privacyPolicy: '/privacy-policy',
  /** Where the OAuth server sends a user to allow or deny a third-party app (OAUTH_SERVER_AUTHORIZATION_PATH). */
  oauthConsent: '/oauth/consent',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/** The signed-in areas' pages (the dashboard, the partner portal, the admin area), behind sign-in. */
export const signedInPaths = [
  paths.dashboard,
  paths.calls,
  paths.callDetail,
  paths.connectPhone,
  paths.agent,
  paths.phoneNumbers,
  paths.knowledge,
  paths.team,
  paths.accountSettings,
  paths.partnerPortal,
  paths.partnerReferrals,
  paths.partnerRegistrations,
  paths.partnerCommissions,
  paths.partnerAssets,
  paths.admin,
  paths.adminLeads,
  paths.adminLead,
  paths.adminAudit,
  paths.adminPartners,
  paths.adminEmails,
  paths.adminEmail,
  paths.adminUsers,
  paths.adminUser,
  paths.adminBookings,
  paths.adminBooking,
  paths.adminAvailability,
  paths.adminCommissions,
] as const;

export type SignedInPath = (typeof signedInPaths)[number];

/**
 * The pages' paths. A `:name` segment matches any one non-empty segment; a
 * trailing `/*` also matches everything below.
 */
export const appRoutePatterns: readonly string[] = Object.values(paths);

function matchesPattern(pattern: string, pathname: string): boolean {
  if (pattern.endsWith('/*')) {
    return pathname === pattern.slice(0, -2) || pathname.startsWith(pattern.slice(0, -1));
  }
  if (!pattern.includes('/:')) return pathname === pattern;
  const expected = pattern.split('/');
  const actual = pathname.split('/');
  return (
    expected.length === actual.length &&
    expected.every((segment, index) => {
      const given = actual[index] ?? '';
      return segment.startsWith(':') ? given !== '' : segment === given;
    })
  );
}

export function isAppRoute(pathname: string): boolean {
  return appRoutePatterns.some((pattern) => matchesPattern(pattern, pathname));
}

/**
 * A call's detail page. `search` is the calls list's query string ('?…'): the
 * detail page keeps it, so its way back returns to the same filters and page.
 */
export function callPath(callId: string, search = ''): string {
  return `${paths.calls}/${encodeURIComponent(callId)}${search}`;
}

/** A person's page in the admin area; `search` keeps the list's filters for the way back. */
export function adminUserPath(userId: string, search = ''): string {
  return `${paths.adminUsers}/${encodeURIComponent(userId)}${search}`;
}

/** A lead's page in the admin area; `search` keeps the list's filters for the way back. */
export function adminLeadPath(leadId: string, search = ''): string {
  return `${paths.adminLeads}/${encodeURIComponent(leadId)}${search}`;
}

/** A message's preview in the admin email log; `search` keeps the log's filters for the way back. */
export function adminEmailPath(messageId: string, search = ''): string {
  return `${paths.adminEmails}/${encodeURIComponent(messageId)}${search}`;
}

/** A demo booking's page in the admin area; `search` keeps the list's filters for the way back. */
export function adminBookingPath(bookingId: string, search = ''): string {
  return `${paths.adminBookings}/${encodeURIComponent(bookingId)}${search}`;
}
