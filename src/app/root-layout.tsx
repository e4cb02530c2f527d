import { Outlet } from 'react-router';
import { LazySection } from '@/components/layout/lazy-section';
import { ScrollManager } from '@/components/layout/scroll-manager';
import { SiteHeader } from '@/components/layout/site-header';
import { SectionSkeleton } from '@/components/ui/skeleton';
import { DocumentMeta } from './document-meta';

export const loadFooter = () => import('@/components/layout/site-footer');
// Created once: the footer stays mounted across navigations (see LazySection).
const footerSkeleton = <SectionSkeleton tone="dark" className="min-h-[560px] lg:min-h-[330px]" />;

export function RootLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-[60] rounded bg-white px-4 py-2 font-semibold text-ink-900 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <SiteHeader />
      <div id="main" className="flex-1">
        <Outlet />
      </div>
      <LazySection name="footer" loader={loadFooter} skeleton={footerSkeleton} />
      <DocumentMeta />
      <ScrollManager />
    </div>
  );
}
