import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { metaForPath } from '@/config/page-meta';
import { applyHead } from './head-tags';

/** Keeps title, description, canonical and social tags in step with the current page. */
export function DocumentMeta() {
  const { pathname } = useLocation();
  useEffect(() => applyHead(metaForPath(pathname), window.location.origin), [pathname]);
  return null;
}
