import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { pageMeta } from '@/config/page-meta';
import { applyHead, type RouteHandle } from './head-tags';

/** Keeps title, description, canonical and social tags in step with the current page. */
export function DocumentMeta() {
  const matches = useMatches();
  const handle = [...matches]
    .reverse()
    .find((match) => (match.handle as RouteHandle | undefined)?.meta)?.handle as
    RouteHandle | undefined;
  const meta = handle?.meta ?? pageMeta.notFound;
  useEffect(() => applyHead(meta, window.location.origin), [meta]);
  return null;
}
