import { Suspense, use, type ComponentType } from 'react';
import { matchRoutes, useRoutes, type RouteObject } from 'react-router';
import { RouteLoading } from '@/components/ui/route-loading';
import { paths, signedInPaths, type SignedInPath } from '@/config/paths';
import {
  loadComponent,
  onDemand as onDemandComponent,
  type ComponentLoader,
  type OnDemandComponent,
} from '@/lib/on-demand';
import { RouteErrorBoundary } from './error-boundary';
import { startAuth } from '@/lib/auth/auth-store';
import { MarketingLayout } from './marketing-layout';
import { RootLayout } from './root-layout';
import { LandingPage } from './routes/landing';

/**
 * The one route table. Every page but the landing page loads on demand and
 * shows 'Loading...' meanwhile; each has its own Suspense boundary, so the
 * fallback also shows when navigating from another page. Page titles and
 * descriptions live in src/config/page-meta.ts, looked up by path.
 *
 * The signed-in pages are listed here by path only: what each renders, who may
 * see it and what it reads first are in `portal-pages.tsx`, which loads with the
 * portal's frame, so that half of the table stays out of the landing page's
 * bundle (decision 036).
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
  /** A signed-in page: its code and first reads are in the portal's table. */
  portal?: SignedInPath;
}

function pageCode(page: OnDemandComponent, data?: RouteHandle['data']): RouteHandle {
  return data ? { page, data } : { page };
}

/** Every signed-in page needs the session: it is read from storage while the page's code loads. */
const signedInData = async () => {
  await startAuth().catch(() => undefined);
};

const PartnerPage = onDemandComponent(() => import('./routes/partner'));
const AuthPage = onDemandComponent(() => import('./routes/auth'));
const DemoPage = onDemandComponent(() => import('./routes/demo'));
const TalkToSalesPage = onDemandComponent(() => import('./routes/talk-to-sales'));
const PrivacyPolicyPage = onDemandComponent(() => import('./routes/privacy-policy'));
const NotFoundPage = onDemandComponent(() => import('./routes/not-found'));
const OAuthConsentPage = onDemandComponent(() => import('./routes/oauth-consent'));
// The signed-in areas' frame loads with their first page, not with the landing page.
const PortalLayout = onDemandComponent(() => import('./portal-layout'));

const loadPortalPages = () => import('./portal-pages');
const portalPages = () =>
  loadComponent(loadPortalPages as unknown as ComponentLoader).then(() => loadPortalPages());

/** A signed-in page, rendered from the portal's table once it has loaded. */
function PortalRoute({ path }: { path: SignedInPath }) {
  const SignedInRoute = use(
    loadComponent(loadPortalPages as unknown as ComponentLoader) as Promise<ComponentType>,
  ) as ComponentType<{ path: SignedInPath }>;
  return <SignedInRoute path={path} />;
}

/** Every page's code (and the layouts'), loaded first by the prerenderer. */
export async function preloadEveryPage(): Promise<void> {
  const { portalPages: table, AdminSecondFactorPage } = await portalPages();
  await Promise.all(
    [
      PartnerPage,
      AuthPage,
      DemoPage,
      TalkToSalesPage,
      PrivacyPolicyPage,
      NotFoundPage,
      OAuthConsentPage,
      PortalLayout,
      AdminSecondFactorPage,
      ...Object.values(table).map(({ page }) => page),
    ].map((page) => page.preload()),
  );
}

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
          {
            path: paths.oauthConsent,
            element: onDemand(OAuthConsentPage, paths.oauthConsent),
            handle: pageCode(OAuthConsentPage),
          },
          { path: '*', element: onDemand(NotFoundPage, '*'), handle: pageCode(NotFoundPage) },
        ],
      },
      {
        // The signed-in areas. Who may see each is decided in the portal's table (RequireAuth).
        element: onDemand(PortalLayout, 'portal'),
        handle: pageCode(PortalLayout, signedInData),
        children: signedInPaths.map((path): RouteObject => ({
          path,
          element: (
            <Suspense key={path} fallback={<RouteLoading />}>
              <PortalRoute path={path} />
            </Suspense>
          ),
          handle: { portal: path } satisfies RouteHandle,
        })),
      },
    ],
  },
];

function handlesAt(pathname: string): RouteHandle[] {
  return (matchRoutes(routes, pathname) ?? []).flatMap(({ route }) =>
    route.handle ? [route.handle as RouteHandle] : [],
  );
}

/**
 * Loads the code of every layout and page that `pathname` renders. The app
 * renders a page that is not prerendered once they are here (their files are
 * already on the way: the shell lists them), so it shows the page at once
 * instead of suspending on each level in turn, where React holds back every
 * revealed boundary a little to avoid flicker. A failed load settles this all
 * the same: the page's boundary then shows the failure.
 */
export async function preloadRoute(pathname: string): Promise<void> {
  await Promise.allSettled(
    handlesAt(pathname).map(async ({ page, portal }) => {
      if (page) await page.preload();
      if (portal) await (await portalPages()).portalPages[portal].page.preload();
    }),
  );
}

/**
 * Starts what the levels `pathname` renders read first (the session, then the
 * page's data), beside their code rather than after it: the page's queries
 * then find their reads in flight. Never rejects; a failed read is the page's
 * to report when it asks again.
 */
export async function prefetchRouteData(pathname: string, search: string): Promise<void> {
  await Promise.allSettled(
    handlesAt(pathname).map(async ({ data, portal }) => {
      if (data) await data(search);
      if (portal) await (await portalPages()).portalPages[portal].data?.(search);
    }),
  );
}

/**
 * Renders the route table (inside any router: browser, static or memory). Each
 * layout keeps its header when its page fails; this boundary is for a layout
 * that fails itself (say, the portal's code cannot load).
 */
export function AppRoutes() {
  return <RouteErrorBoundary placement="standalone">{useRoutes(routes)}</RouteErrorBoundary>;
}
