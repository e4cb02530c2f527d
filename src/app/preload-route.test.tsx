import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { inASignedOutBrowser } from '@/testing/signed-out-browser';
import { AppRoutes, preloadRoute } from './router';

/**
 * preloadRoute: with the code of every level of a page loaded first, the page
 * renders in the first pass, with no fallback to reveal later. A plain
 * render() shows what the first pass shows: it does not wait for a load. The
 * signed-in case runs first, before anything has loaded the portal's code.
 */

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
    </MemoryRouter>,
  );
}

inASignedOutBrowser();

describe('preloadRoute', () => {
  it("loads a signed-in page's frame and the page, which then render at once", async () => {
    await preloadRoute('/dashboard/calls/0f8b9d1e-3c2a-4b5d-9e6f-7a8b9c0d1e2f');
    renderAt('/dashboard/calls/0f8b9d1e-3c2a-4b5d-9e6f-7a8b9c0d1e2f');
    // The portal's frame (its header) is there in the first pass; the page within waits
    // for the session to be known, not for its code.
    expect(screen.getByRole('banner')).toBeInTheDocument();
  });

  it('loads a public page, which then renders at once', async () => {
    await preloadRoute('/privacy-policy');
    renderAt('/privacy-policy');
    expect(screen.getByRole('heading', { level: 1, name: /privacy policy/i })).toBeInTheDocument();
  });

  it('is needed: without it, the first pass of a page shows none of it yet', () => {
    const { unmount } = renderAt('/talk-to-sales');
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
    unmount();
  });

  it('settles for a path that matches no page but the not-found one', async () => {
    await expect(preloadRoute('/no-such-page')).resolves.toBeUndefined();
    renderAt('/no-such-page');
    expect(
      screen.getByRole('heading', { level: 1, name: /could not find that page/i }),
    ).toBeInTheDocument();
  });
});
