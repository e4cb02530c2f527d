import { Suspense } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RouteLoading } from '@/components/ui/route-loading';
import { pageMeta } from '@/config/page-meta';
import { paths } from '@/config/paths';
import { onDemand as onDemandComponent, type OnDemandComponent } from '@/lib/on-demand';
import type { RouteHandle } from './head-tags';
import { RootLayout } from './root-layout';
import { LandingPage } from './routes/landing';

/**
 * The one route table. Every page but the landing page loads on demand and
 * shows 'Loading...' meanwhile; each has its own Suspense boundary, so the
 * fallback also shows when navigating from another page. `handle.meta` is the
 * page's title and description (prerendered and kept in sync); structured data
 * is added at prerender time only (src/entry-server.tsx).
 */

function onDemand(Page: OnDemandComponent, key: string): RouteObject['element'] {
  return (
    <Suspense key={key} fallback={<RouteLoading />}>
      <Page />
    </Suspense>
  );
}

const PartnerPage = onDemandComponent(() => import('./routes/partner'));
const PartnerPortalPage = onDemandComponent(() => import('./routes/partner-portal'));
const AuthPage = onDemandComponent(() => import('./routes/auth'));
const DashboardPage = onDemandComponent(() => import('./routes/dashboard'));
const AdminPage = onDemandComponent(() => import('./routes/admin'));
const DemoPage = onDemandComponent(() => import('./routes/demo'));
const TalkToSalesPage = onDemandComponent(() => import('./routes/talk-to-sales'));
const PrivacyPolicyPage = onDemandComponent(() => import('./routes/privacy-policy'));
const NotFoundPage = onDemandComponent(() => import('./routes/not-found'));

/** Every page loaded on demand, for the prerenderer to load first. */
export const onDemandPages: OnDemandComponent[] = [
  PartnerPage,
  PartnerPortalPage,
  AuthPage,
  DashboardPage,
  AdminPage,
  DemoPage,
  TalkToSalesPage,
  PrivacyPolicyPage,
  NotFoundPage,
];

const handle = (meta: RouteHandle['meta']): RouteHandle => ({ meta });

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: paths.home, element: <LandingPage />, handle: handle(pageMeta.home) },
      {
        path: paths.partner,
        element: onDemand(PartnerPage, paths.partner),
        handle: handle(pageMeta.partner),
      },
      {
        path: paths.partnerPortal,
        element: onDemand(PartnerPortalPage, paths.partnerPortal),
        handle: handle(pageMeta.partnerPortal),
      },
      { path: paths.auth, element: onDemand(AuthPage, paths.auth), handle: handle(pageMeta.auth) },
      {
        path: paths.dashboard,
        element: onDemand(DashboardPage, paths.dashboard),
        handle: handle(pageMeta.dashboard),
      },
      {
        path: paths.admin,
        element: onDemand(AdminPage, paths.admin),
        handle: handle(pageMeta.admin),
      },
      { path: paths.demo, element: onDemand(DemoPage, paths.demo), handle: handle(pageMeta.demo) },
      {
        path: paths.talkToSales,
        element: onDemand(TalkToSalesPage, paths.talkToSales),
        handle: handle(pageMeta.talkToSales),
      },
      {
        path: paths.privacyPolicy,
        element: onDemand(PrivacyPolicyPage, paths.privacyPolicy),
        handle: handle(pageMeta.privacyPolicy),
      },
      { path: '*', element: onDemand(NotFoundPage, '*'), handle: handle(pageMeta.notFound) },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
