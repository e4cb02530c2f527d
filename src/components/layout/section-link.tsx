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

/** Scrolls to a landing section (smoothly, unless the visitor prefers reduced motion). */
export function scrollToSection(id: string): boolean {
  const target = document.getElementById(id);
  if (!target) return false;
  target.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
  // Keep the router's history entry; only the visible URL gains the anchor.
  window.history.replaceState(window.history.state, '', `${paths.home}#${id}`);
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
      window.setTimeout(() => scrollToSection(id), ANCHOR_SCROLL_DELAY_MS);
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
