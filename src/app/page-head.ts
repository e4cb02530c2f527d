import { metaForPath } from '@/config/page-meta';
import { applyHead } from './head-tags';

/** Sets the head's title, description, canonical and social tags for `pathname`. */
export function applyPageHead(pathname: string, origin: string): void {
  applyHead(metaForPath(pathname), origin);
}
