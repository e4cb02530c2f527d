import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppShell } from './app/app';
import { renderHead } from './app/head-tags';
import { loadFooter } from './app/marketing-layout';
import { AppRoutes, preloadEveryPage } from './app/router';
import { landingSections } from './app/routes/landing';
import { SITE_URL_PLACEHOLDER, metaForPath, pageMeta } from './config/page-meta';
import { paths } from './config/paths';
import { landingStructuredData } from './features/marketing/seo';
import { loadComponent } from './lib/on-demand';

/**
 * Build-time rendering of the public pages (scripts/prerender.mjs). React
 * waits for every on-demand section, so the HTML holds the whole page; the
 * browser then hydrates it, section by section as they come into view.
 */

const structuredData: Record<string, (siteUrl: string) => object[]> = {
  [paths.home]: landingStructuredData,
};

export interface RenderedPage {
  /** The app's markup, for inside #root. */
  body: string;
  /** Title, meta, canonical and JSON-LD, with the site URL as a placeholder. */
  head: string;
}

// Everything loaded before rendering, so nothing suspends and the HTML comes out in order.
const everythingLoaded = Promise.all([
  preloadEveryPage(),
  ...landingSections.map((section) => loadComponent(section.loader)),
  loadComponent(loadFooter),
]);

export async function renderPage(pathname: string): Promise<RenderedPage> {
  await everythingLoaded;
  const { prelude } = await prerender(
    <AppShell>
      <StaticRouter location={pathname}>
        <AppRoutes />
      </StaticRouter>
    </AppShell>,
    // Never outline a large boundary into a segment that an inline script moves:
    // the page must read in order without JavaScript, and the CSP forbids inline scripts.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const body = await new Response(prelude).text();
  return {
    body,
    head: renderHead(
      metaForPath(pathname),
      SITE_URL_PLACEHOLDER,
      structuredData[pathname]?.(SITE_URL_PLACEHOLDER),
    ),
  };
}

export { pageMeta, SITE_URL_PLACEHOLDER };
