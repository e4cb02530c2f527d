import { Outlet } from 'react-router';
import { LazySection } from '@/components/layout/lazy-section';
import { SiteHeader } from '@/components/layout/site-header';
import { SectionSkeleton } from '@/components/ui/skeleton';
import { RouteErrorBoundary } from './error-boundary';

export const loadFooter = () => import('@/components/layout/site-footer');
// Created once: the footer stays mounted across navigations (see LazySection).
const footerSkeleton = <SectionSkeleton tone="dark" className="min-h-[560px] lg:min-h-[330px]" />;

/** The public pages: the fixed navigation bar, the page (or what replaces a failed one), the footer. */
export function MarketingLayout() {
  return (
    <>
      <SiteHeader />
      <div id="main" className="flex-1">
        <RouteErrorBoundary placement="under-fixed-header">
          <Outlet />
        </RouteErrorBoundary>
      </div>
      <LazySection name="footer" loader={loadFooter} skeleton={footerSkeleton} />
    </>
  );
}
