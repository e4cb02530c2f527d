import { act, render, screen } from '@testing-library/react';
import { Suspense, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { isLoaded, loadComponent, onDemand } from './on-demand';

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

  it('loads each module once, and lets a failed load be retried', async () => {
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
    await loadComponent(loader);
    await loadComponent(loader);
    expect(calls).toBe(2);
  });
});
