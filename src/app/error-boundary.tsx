import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { retryFailedLoads } from '@/lib/on-demand';
import { ErrorPage, type ErrorPagePlacement } from './error-page';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** Shown instead of the children once one of them has thrown. */
  fallback: ReactNode;
  /** A new value (the next page) clears the error and tries the children again. */
  resetKey?: string;
  /** Called as the children are tried again, before they render. */
  onReset?: () => void;
}

interface ErrorBoundaryState {
  hasError: boolean;
  resetKey?: string;
}

/**
 * Catches what a page throws while rendering, in an effect (a refused
 * navigation) or while loading its code, so no error unmounts the app and
 * leaves a blank page. The route table is a declarative one, where React
 * Router's `errorElement` does not apply, hence a boundary of our own. React
 * reports each caught error on the console.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { hasError: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<ErrorBoundaryState> {
    return { hasError: true };
  }

  static getDerivedStateFromProps(
    props: ErrorBoundaryProps,
    state: ErrorBoundaryState,
  ): ErrorBoundaryState | null {
    if (props.resetKey === state.resetKey) return null;
    // Idempotent, so safe here: it must happen before the children render again.
    if (state.hasError) props.onReset?.();
    return { hasError: false, resetKey: props.resetKey };
  }

  override render() {
    return this.state.hasError ? this.props.fallback : this.props.children;
  }
}

/**
 * The routes' boundary: the error page until the visitor moves to another
 * page, which is tried afresh (code that failed to load is requested again).
 */
export function RouteErrorBoundary({
  placement,
  children,
}: {
  placement: ErrorPagePlacement;
  children: ReactNode;
}) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary
      resetKey={pathname}
      onReset={retryFailedLoads}
      fallback={<ErrorPage placement={placement} />}
    >
      {children}
    </ErrorBoundary>
  );
}
