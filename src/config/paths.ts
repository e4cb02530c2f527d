/**
 * Every page's path, shared by the app's route table and the server, which
 * answers any other path with a real 404. Keep it free of imports.
 */
export const paths = {
  home: '/',
  partner: '/partner',
  partnerPortal: '/partner-portal',
  auth: '/auth',
  dashboard: '/dashboard',
  accountSettings: '/dashboard/settings',
  admin: '/admin',
  demo: '/demo',
  talkToSales: '/talk-to-sales',
  privacyPolicy: '/privacy-policy',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/** The pages' paths; a trailing `/*` also matches everything below. */
export const appRoutePatterns: readonly string[] = Object.values(paths);

export function isAppRoute(pathname: string): boolean {
  return appRoutePatterns.some((pattern) =>
    pattern.endsWith('/*')
      ? pathname === pattern.slice(0, -2) || pathname.startsWith(pattern.slice(0, -1))
      : pathname === pattern,
  );
}
