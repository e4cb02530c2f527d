import {
  Suspense,
  use,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import { isLoaded, loadComponent, type ComponentLoader } from '@/lib/on-demand';

/**
 * A page section whose code loads on demand: when it comes near the viewport.
 *
 * - Prerendered at build time: the code is loaded first, so the HTML holds the
 *   whole section.
 * - Hydrating that HTML: the section suspends until it is near the viewport, and
 *   React leaves the server's HTML in place meanwhile (lazy hydration).
 * - Rendered by a client-side navigation: the skeleton shows, reserving the
 *   section's height, until the code arrives.
 */

export type SectionLoader = ComponentLoader;

/** How far below the fold a section starts loading. */
const PRELOAD_MARGIN = '200px 0px';

interface Gate {
  promise: Promise<void>;
  open: () => void;
}

function createGate(): Gate {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

function SectionContent({ component }: { component: Promise<ComponentType> }) {
  const Section = use(component);
  // eslint-disable-next-line react-hooks/static-components -- one module per section: the identity never changes
  return <Section />;
}

export interface LazySectionProps {
  loader: SectionLoader;
  /** Shown while the code loads; must reserve the section's height. */
  skeleton: ReactNode;
  /** Anchor id, on the wrapper so links can target the section before it loads. */
  id?: string;
  className?: string;
}

export function LazySection({ loader, skeleton, id, className }: LazySectionProps) {
  const wrapper = useRef<HTMLDivElement>(null);
  const [gate] = useState(createGate);
  const [component] = useState(() =>
    import.meta.env.SSR || isLoaded(loader)
      ? loadComponent(loader)
      : gate.promise.then(() => loadComponent(loader)),
  );

  useEffect(() => {
    const element = wrapper.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      gate.open();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          gate.open();
          observer.disconnect();
        }
      },
      { rootMargin: PRELOAD_MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [gate]);

  return (
    <div ref={wrapper} id={id} className={className}>
      <Suspense fallback={skeleton}>
        <SectionContent component={component} />
      </Suspense>
    </div>
  );
}
