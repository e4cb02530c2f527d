import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** Room left above the line a transcript scrolls to, in pixels. */
const FOLLOW_MARGIN_PX = 16;

interface Edges {
  top: number;
  bottom: number;
}

/** Whether any of `item` shows in `view`. */
export function isPartlyVisible(item: Edges, view: Edges): boolean {
  return item.bottom > view.top && item.top < view.bottom;
}

/** Whether all of `item` shows in `view` (an item taller than the view: its top does). */
export function isWhollyVisible(item: Edges, view: Edges): boolean {
  const isTaller = item.bottom - item.top > view.bottom - view.top;
  return item.top >= view.top && (isTaller ? item.top < view.bottom : item.bottom <= view.bottom);
}

/**
 * Keeps the active line of a scrolling transcript in view, inside the box
 * only (the page never moves), and only while the reader is not reading
 * elsewhere: scrolling the active line out of sight stops the following,
 * scrolling it back (or `follow()`, say after clicking a line) resumes it.
 * The box's children are the lines, in order.
 */
export function useFollowActive(
  listRef: RefObject<HTMLElement | null>,
  activeIndex: number,
): { isFollowing: boolean; follow: () => void } {
  const [isFollowing, setIsFollowing] = useState(true);
  const active = useRef(activeIndex);

  useEffect(() => {
    active.current = activeIndex;
    const list = listRef.current;
    const line = list?.children[activeIndex];
    if (!isFollowing || !list || !line) return;
    const view = list.getBoundingClientRect();
    const item = line.getBoundingClientRect();
    if (isWhollyVisible(item, view)) return;
    list.scrollTo({ top: Math.max(0, list.scrollTop + item.top - view.top - FOLLOW_MARGIN_PX) });
  }, [activeIndex, isFollowing, listRef]);

  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    // Our own scrolling brings the line into view, so it keeps the following on.
    const handleScroll = () => {
      const line = list.children[active.current];
      if (!line) return;
      setIsFollowing(isPartlyVisible(line.getBoundingClientRect(), list.getBoundingClientRect()));
    };
    list.addEventListener('scroll', handleScroll, { passive: true });
    return () => list.removeEventListener('scroll', handleScroll);
  }, [listRef]);

  const follow = useCallback(() => setIsFollowing(true), []);
  return { isFollowing, follow };
}
