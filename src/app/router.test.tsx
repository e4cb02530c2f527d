import { render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { appRoutePatterns, isAppRoute, paths } from '@/config/paths';
import { routes } from './router';

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

function routePaths(table: RouteObject[]): string[] {
  return table.flatMap((route) => [
    ...(route.path ? [route.path] : []),
    ...routePaths(route.children ?? []),
  ]);
}

const pageHeadings: Record<string, RegExp> = {
  [paths.home]: /AI phone system for customer success/i,
  [paths.partner]: /partner program/i,
  [paths.partnerPortal]: /referrals, commissions/i,
  [paths.auth]: /sign in to cervana/i,
  [paths.dashboard]: /your phone agent at a glance/i,
  [paths.admin]: /cervana admin/i,
  [paths.demo]: /see cervana answer/i,
  [paths.talkToSales]: /talk to our sales team/i,
  [paths.privacyPolicy]: /privacy policy/i,
};

describe('the route table', () => {
  it('holds every page of the spec plus the not-found page, and nothing else', () => {
    expect(routePaths(routes).sort()).toEqual([...appRoutePatterns, '*'].sort());
    expect(Object.keys(pageHeadings).sort()).toEqual([...appRoutePatterns].sort());
  });

  it.each(Object.entries(pageHeadings))('renders its own page at %s', async (path, heading) => {
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });

  it('renders the not-found page for any other path', async () => {
    renderAt('/no-such-page');
    expect(
      await screen.findByRole('heading', { level: 1, name: /could not find that page/i }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /go to the home page/i })).toHaveAttribute('href', '/');
  });

  it("shows 'Loading...' while a page's code loads, then the page", async () => {
    vi.resetModules(); // a fresh route table, whose pages have not loaded yet
    const fresh = await import('./router');
    render(
      <RouterProvider
        router={createMemoryRouter(fresh.routes, { initialEntries: [paths.demo] })}
      />,
    );
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
  });

  it('renders the landing page at once, without loading code on demand', () => {
    renderAt(paths.home);
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
  });
});

describe('isAppRoute', () => {
  it('matches the pages and nothing else', () => {
    for (const path of appRoutePatterns) expect(isAppRoute(path)).toBe(true);
    for (const path of ['/nope', '/partner/x', '/dashboard/', '/Partner', '']) {
      expect(isAppRoute(path)).toBe(false);
    }
  });
});
