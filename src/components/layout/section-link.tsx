import { useCallback, type MouseEvent, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';

/** How long after arriving on the landing page from elsewhere the section scroll starts. */
export const ANCHOR_SCROLL_DELAY_MS = 100;

export function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
  );
}

/** How long a section is kept aligned while the sections above it load and settle. */
const SETTLE_MS = 2500;
let stopSettling: (() => void) | undefined;

/**
 * Scrolls to a landing section (smoothly, unless the visitor prefers reduced
 * motion), then keeps it aligned while sections above it load and change
 * height: again when the scroll ends, and on every resize for a moment, until
 * the visitor scrolls on their own.
 */
export function scrollToSection(id: string): boolean {
  const target = document.getElementById(id);
  if (!target) return false;
  stopSettling?.();
  const smooth = !prefersReducedMotion();
  let isScrolling = smooth;
  const align = (behavior: ScrollBehavior) => target.scrollIntoView({ behavior, block: 'start' });
  align(smooth ? 'smooth' : 'auto');
  // Keep the router's history entry; only the visible URL gains the anchor.
  window.history.replaceState(window.history.state, '', `${paths.home}#${id}`);

  const onScrollEnd = () => {
    isScrolling = false;
    align('auto');
  };
  const observer = new ResizeObserver(() => {
    if (!isScrolling) align('auto');
  });
  observer.observe(document.body);
  const stop = () => {
    observer.disconnect();
    window.removeEventListener('scrollend', onScrollEnd);
    for (const event of ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const) {
      window.removeEventListener(event, stop);
    }
    window.clearTimeout(timer);
    if (stopSettling === stop) stopSettling = undefined;
  };
  const timer = window.setTimeout(stop, SETTLE_MS);
  window.addEventListener('scrollend', onScrollEnd, { once: true });
  for (const event of ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const) {
    window.addEventListener(event, stop, { once: true, passive: true });
  }
  stopSettling = stop;
  return true;
}

export function useGoToSection(): (id: string) => void {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return useCallback(
    (id: string) => {
      if (pathname === paths.home) {
        scrollToSection(id);
        return;
      }
      navigate(paths.home);
      // After about 100 ms, as soon as the landing page has rendered the section.
      const giveUpAt = Date.now() + 5000;
      const attempt = () => {
        if (!scrollToSection(id) && Date.now() < giveUpAt) window.requestAnimationFrame(attempt);
      };
      window.setTimeout(attempt, ANCHOR_SCROLL_DELAY_MS);
    },
    [navigate, pathname],
  );
}

function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

export interface NavItemProps {
  /** `#section` for a landing section, or a path. */
  to: string;
  className?: string;
  children: ReactNode;
  onChoose?: () => void;
}

/** A link to a landing section or to a page; either way a real `<a href>`. */
export function NavItem({ to, className, children, onChoose }: NavItemProps) {
  const goToSection = useGoToSection();
  if (!to.startsWith('#')) {
    return (
      <Link to={to} className={className} onClick={() => onChoose?.()}>
        {children}
      </Link>
    );
  }
  const id = to.slice(1);
  return (
    <a
      href={`${paths.home}${to}`}
      className={className}
      onClick={(event) => {
        if (!isPlainClick(event)) return;
        event.preventDefault();
        onChoose?.();
        goToSection(id);
      }}
    >
      {children}
    </a>
  );
}
