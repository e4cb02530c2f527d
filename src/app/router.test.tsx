import { screen } from '@testing-library/react';
import { MemoryRouter, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { appRoutePatterns, isAppRoute, paths, signedInPaths } from '@/config/paths';
import { renderAsync } from '@/testing/render';
import { inASignedOutBrowser } from '@/testing/signed-out-browser';
import { AppRoutes, routes } from './router';

function renderAt(path: string) {
  return renderAsync(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
    </MemoryRouter>,
  );
}

function routePaths(table: RouteObject[]): string[] {
  return table.flatMap((route) => [
    ...(route.path ? [route.path] : []),
    ...routePaths(route.children ?? []),
  ]);
}

const publicPageHeadings: Record<string, RegExp> = {
  [paths.home]: /AI phone system for customer success/i,
  [paths.partner]: /partner program/i,
  [paths.auth]: /sign in to cervana/i,
  [paths.demo]: /see cervana answer/i,
  [paths.talkToSales]: /talk to our sales team/i,
  [paths.privacyPolicy]: /privacy policy/i,
};
// The portal's pages, and the OAuth consent page (signed in, outside the portal's frame).
const signedInPages = [...signedInPaths, paths.oauthConsent];

inASignedOutBrowser();

describe('the route table', () => {
  it('holds every page of the spec plus the not-found page, and nothing else', () => {
    expect(routePaths(routes).sort()).toEqual([...appRoutePatterns, '*'].sort());
    expect([...Object.keys(publicPageHeadings), ...signedInPages].sort()).toEqual(
      [...appRoutePatterns].sort(),
    );
  });

  it.each(Object.entries(publicPageHeadings))(
    'renders its own page at %s',
    async (path, heading) => {
      await renderAt(path);
      // The first page also loads the app's modules: allow for a busy machine.
      expect(
        await screen.findByRole('heading', { level: 1, name: heading }, { timeout: 5000 }),
      ).toBeInTheDocument();
    },
  );

  it.each(signedInPages)(
    'sends a signed-out visitor of %s to sign in, and back after',
    async (path) => {
      await renderAt(path);
      expect(
        await screen.findByRole('heading', { level: 1, name: /sign in to cervana/i }),
      ).toBeInTheDocument();
      expect(screen.getByRole('link', { name: /create an account/i })).toHaveAttribute(
        'href',
        `/auth?mode=sign-up&next=${encodeURIComponent(path)}`,
      );
    },
  );

  it('renders the not-found page for any other path', async () => {
    await renderAt('/no-such-page');
    expect(
      await screen.findByRole('heading', { level: 1, name: /could not find that page/i }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /go to the home page/i })).toHaveAttribute('href', '/');
  });

  it('renders every landing section in the spec order, the footer last', async () => {
    await renderAt(paths.home);
    const headings = await screen.findAllByRole('heading', { level: 2 });
    const ids = headings.map((heading) => heading.id).filter(Boolean);
    expect(ids).toEqual([
      'cost-savings-heading',
      'how-it-works-heading',
      'industries-heading',
      'audio-demo-heading',
      'use-cases-heading',
      'why-cervana-heading',
      'partner-cta-heading',
      'social-proof-heading',
    ]);
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });
});

describe('isAppRoute', () => {
  it('matches the pages and nothing else', () => {
    for (const path of appRoutePatterns) expect(isAppRoute(path)).toBe(true);
    for (const path of [
      '/nope',
      '/partner/x',
      '/dashboard/',
      '/dashboard/nope',
      '/Partner',
      '',
      '/dashboard/calls/',
      '/dashboard/calls/a/b',
      '/dashboard/connect/x',
    ]) {
      expect(isAppRoute(path)).toBe(false);
    }
    // A call's page: any one segment after /dashboard/calls/.
    expect(isAppRoute('/dashboard/calls/0f8b9d1e-3c2a-4b5d-9e6f-7a8b9c0d1e2f')).toBe(true);
  });
});
