import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/**
 * Scroll position across navigations: a new page starts at the top (or at its
 * `#anchor`); going back or forward returns to where the visitor was.
 */
const positions = new Map<string, number>();

/** How long to wait for an `#anchor` on a page whose code is still loading. */
const ANCHOR_WAIT_MS = 5000;

/**
 * Scrolls to the element with `id` once it exists: after a navigation the page
 * may still be loading its code. Returns a function that stops waiting.
 */
function scrollWhenPresent(id: string): () => void {
  const target = document.getElementById(id);
  if (target) {
    target.scrollIntoView();
    return () => undefined;
  }
  window.scrollTo(0, 0);
  const observer = new MutationObserver(() => {
    const found = document.getElementById(id);
    if (!found) return;
    stop();
    found.scrollIntoView();
  });
  const timer = window.setTimeout(() => stop(), ANCHOR_WAIT_MS);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  return stop;
}

export function ScrollManager() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const current = useRef(location.key);

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    const remember = () => positions.set(current.current, window.scrollY);
    window.addEventListener('scroll', remember, { passive: true });
    return () => window.removeEventListener('scroll', remember);
  }, []);

  useLayoutEffect(() => {
    if (current.current === location.key) return; // first render: the browser placed the page
    current.current = location.key;
    if (navigationType === 'POP') {
      window.scrollTo(0, positions.get(location.key) ?? 0);
    } else if (location.hash) {
      return scrollWhenPresent(decodeURIComponent(location.hash.slice(1)));
    } else {
      window.scrollTo(0, 0);
    }
  }, [location.key, location.hash, navigationType]);

  return null;
}
