import { act, render, screen } from '@testing-library/react';
import { Component, Suspense, type ComponentType, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { isLoaded, loadComponent, onDemand, retryFailedLoads } from './on-demand';

function deferredModule() {
  let resolve: () => void = () => undefined;
  const loader = () =>
    new Promise<{ default: ComponentType }>((done) => {
      resolve = () => done({ default: () => <h1>The page</h1> });
    });
  return { loader, resolve: () => resolve() };
}

describe('onDemand', () => {
  it('shows the fallback until the code arrives, then the component', async () => {
    const { loader, resolve } = deferredModule();
    const Page = onDemand(loader);
    await act(async () => {
      render(
        <Suspense fallback={<p>Loading...</p>}>
          <Page />
        </Suspense>,
      );
    });
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    await act(async () => resolve());
    expect(await screen.findByRole('heading', { name: 'The page' })).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
  });

  it('renders a preloaded component at once, with no fallback (what prerendering relies on)', async () => {
    const { loader, resolve } = deferredModule();
    const Page = onDemand(loader);
    const loading = Page.preload();
    expect(isLoaded(loader)).toBe(false);
    resolve();
    await loading;
    expect(isLoaded(loader)).toBe(true);
    const html = renderToString(
      <Suspense fallback={<p>Loading...</p>}>
        <Page />
      </Suspense>,
    );
    expect(html).toContain('The page');
    expect(html).not.toContain('Loading...');
  });

  it('loads each module once, and retries a failed load only when asked', async () => {
    let calls = 0;
    let shouldFail = true;
    const loader = () => {
      calls += 1;
      return shouldFail
        ? Promise.reject(new Error('chunk failed'))
        : Promise.resolve({ default: () => <p>ok</p> });
    };
    await expect(loadComponent(loader)).rejects.toThrow('chunk failed');
    shouldFail = false;
    // Until then, the failure stands: React must meet it to show the error boundary.
    await expect(loadComponent(loader)).rejects.toThrow('chunk failed');
    retryFailedLoads();
    await loadComponent(loader);
    await loadComponent(loader);
    expect(calls).toBe(2);
  });

  it('hands a failed load to the nearest error boundary instead of loading forever', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // Fails after a moment, as a request for the code does.
    const Page = onDemand(
      () => new Promise((_, reject) => setTimeout(() => reject(new Error('chunk failed')), 5)),
    );
    class Boundary extends Component<{ children: ReactNode }, { error: string | null }> {
      override state = { error: null };
      static getDerivedStateFromError(error: Error) {
        return { error: error.message };
      }
      override render() {
        return this.state.error ? <p role="alert">{this.state.error}</p> : this.props.children;
      }
    }
    await act(async () => {
      render(
        <Boundary>
          <Suspense fallback={<p>Loading...</p>}>
            <Page />
          </Suspense>
        </Boundary>,
      );
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('chunk failed');
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
    vi.restoreAllMocks();
  });
});
