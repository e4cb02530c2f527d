import './index.css';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { prefetchRouteData, preloadRoute } from './app/router';

const container = document.getElementById('root');
if (!container) throw new Error('missing #root element');

if (container.dataset.prerendered === 'true') {
  // The page is already readable: hydrate after this module's evaluation, in a
  // transition, so React works in short slices and no long task blocks input.
  const hydrate = () => startTransition(() => void hydrateRoot(container, <App />));
  if (typeof window.requestIdleCallback === 'function')
    window.requestIdleCallback(hydrate, { timeout: 300 });
  else window.setTimeout(hydrate, 0);
} else {
  // The shell (pages that are not prerendered) shows 'Loading...' until the app renders,
  // which it does with the page's code here, so nothing suspends on the way. The page's
  // session and first reads start meanwhile, so its data is not asked for only once it renders.
  void prefetchRouteData(window.location.pathname, window.location.search);
  void preloadRoute(window.location.pathname).then(() => createRoot(container).render(<App />));
}
