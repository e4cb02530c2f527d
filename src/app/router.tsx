import { Suspense, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RouteLoading } from '@/components/ui/route-loading';
import { paths } from '@/config/paths';
import { RootLayout } from './root-layout';
import { LandingPage } from './routes/landing';

/**
 * The one route table. Every page but the landing page loads on demand and
 * shows 'Loading...' meanwhile; each has its own Suspense boundary, so the
 * fallback also shows when navigating from another page.
 */

function onDemand(page: LazyExoticComponent<ComponentType>, key: string): RouteObject['element'] {
  const Page = page;
  return (
    <Suspense key={key} fallback={<RouteLoading />}>
      <Page />
    </Suspense>
  );
}

const PartnerPage = lazy(() => import('./routes/partner'));
const PartnerPortalPage = lazy(() => import('./routes/partner-portal'));
const AuthPage = lazy(() => import('./routes/auth'));
const DashboardPage = lazy(() => import('./routes/dashboard'));
const AdminPage = lazy(() => import('./routes/admin'));
const DemoPage = lazy(() => import('./routes/demo'));
const TalkToSalesPage = lazy(() => import('./routes/talk-to-sales'));
const PrivacyPolicyPage = lazy(() => import('./routes/privacy-policy'));
const NotFoundPage = lazy(() => import('./routes/not-found'));

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: paths.home, element: <LandingPage /> },
      { path: paths.partner, element: onDemand(PartnerPage, paths.partner) },
      { path: paths.partnerPortal, element: onDemand(PartnerPortalPage, paths.partnerPortal) },
      { path: paths.auth, element: onDemand(AuthPage, paths.auth) },
      { path: paths.dashboard, element: onDemand(DashboardPage, paths.dashboard) },
      { path: paths.admin, element: onDemand(AdminPage, paths.admin) },
      { path: paths.demo, element: onDemand(DemoPage, paths.demo) },
      { path: paths.talkToSales, element: onDemand(TalkToSalesPage, paths.talkToSales) },
      { path: paths.privacyPolicy, element: onDemand(PrivacyPolicyPage, paths.privacyPolicy) },
      { path: '*', element: onDemand(NotFoundPage, '*') },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
