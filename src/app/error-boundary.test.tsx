import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, type ReactNode } from 'react';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary, RouteErrorBoundary } from './error-boundary';
import { ErrorPage } from './error-page';

function ThrowsWhileRendering(): never {
  throw new Error('the page broke');
}

/** Like a <Navigate> the history refuses: the error comes from an effect. */
function ThrowsInEffect() {
  useEffect(() => {
    throw new Error('navigation refused');
  }, []);
  return <p>About to fail</p>;
}

function renderInside(child: ReactNode, resetKey = '/a') {
  return render(
    <MemoryRouter>
      <ErrorBoundary resetKey={resetKey} fallback={<ErrorPage placement="in-page" />}>
        {child}
      </ErrorBoundary>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  // React reports each caught error on the console; the tests look at the page instead.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('the error boundary', () => {
  it('shows "Something went wrong" with a reload button and a way home, never a blank page', async () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    renderInside(<ThrowsWhileRendering />);

    const heading = screen.getByRole('heading', { level: 1, name: 'Something went wrong' });
    expect(heading).toHaveFocus();
    expect(screen.getByRole('main')).toContainElement(heading);
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    await userEvent.click(screen.getByRole('button', { name: 'Reload the page' }));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('catches an error thrown in an effect, as a refused navigation is', () => {
    renderInside(<ThrowsInEffect />);
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.queryByText('About to fail')).not.toBeInTheDocument();
  });

  it('renders its children while nothing fails', () => {
    renderInside(<p>A working page</p>);
    expect(screen.getByText('A working page')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
  });

  it('tries again on the next page, asking for failed code anew first', () => {
    const onReset = vi.fn();
    const { rerender } = render(
      <MemoryRouter>
        <ErrorBoundary
          resetKey="/broken"
          onReset={onReset}
          fallback={<ErrorPage placement="in-page" />}
        >
          <ThrowsWhileRendering />
        </ErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();

    rerender(
      <MemoryRouter>
        <ErrorBoundary
          resetKey="/broken"
          onReset={onReset}
          fallback={<ErrorPage placement="in-page" />}
        >
          <p>Fixed, same page</p>
        </ErrorBoundary>
      </MemoryRouter>,
    );
    // The same page stays on the error until the visitor moves on or reloads.
    expect(screen.queryByText('Fixed, same page')).not.toBeInTheDocument();
    expect(onReset).not.toHaveBeenCalled();

    rerender(
      <MemoryRouter>
        <ErrorBoundary
          resetKey="/next"
          onReset={onReset}
          fallback={<ErrorPage placement="in-page" />}
        >
          <p>The next page</p>
        </ErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByText('The next page')).toBeInTheDocument();
    expect(onReset).toHaveBeenCalled();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
  });

  it('on a route, shows the error page until the visitor follows a link to another page', async () => {
    function Broken(): never {
      throw new Error('the page broke');
    }
    render(
      <MemoryRouter initialEntries={['/broken']}>
        <Link to="/working">Another page</Link>
        <RouteErrorBoundary placement="in-page">
          <Routes>
            <Route path="/broken" element={<Broken />} />
            <Route path="/working" element={<h1>Another page works</h1>} />
          </Routes>
        </RouteErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Another page' }));
    expect(screen.getByRole('heading', { name: 'Another page works' })).toBeInTheDocument();
  });

  it('brings its own header with the way home when the layout itself failed', () => {
    render(
      <MemoryRouter>
        <ErrorBoundary fallback={<ErrorPage placement="standalone" />}>
          <ThrowsWhileRendering />
        </ErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByRole('banner')).toContainElement(
      screen.getByRole('link', { name: /Cervana.*home/ }),
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
  });
});
