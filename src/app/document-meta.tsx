import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * Keeps title, description, canonical and social tags in step with the current page.
 * Every page's metadata loads on demand (decision 033): a prerendered page's head is
 * already its own, so its first load needs none of it.
 */
export function DocumentMeta() {
  const { pathname } = useLocation();
  const isFirst = useRef(true);
  useEffect(() => {
    const first = isFirst.current;
    isFirst.current = false;
    if (first && document.getElementById('root')?.dataset.prerendered === 'true') return;
    let isCurrent = true;
    void import('./page-head').then(({ applyPageHead }) => {
      if (isCurrent) applyPageHead(pathname, window.location.origin);
    });
    return () => {
      isCurrent = false;
    };
  }, [pathname]);
  return null;
}
