import {
  Suspense,
  memo,
  use,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import { useLocation } from 'react-router';
import { isAppStarted } from '@/lib/app-started';
import { isLoaded, loadComponent, type ComponentLoader } from '@/lib/on-demand';

/**
 * A page section whose code loads on demand: when it comes near the viewport.
 *
 * - Prerendered at build time: the code is loaded first, so the HTML holds the
 *   whole section.
 * - Hydrating that HTML: the section suspends until it is near the viewport (or
 *   its part marked `data-hydrate-from` is), and React leaves the server's HTML
 *   in place meanwhile (lazy hydration).
 * - Rendered by a client-side navigation: its code loads at once, and the
 *   skeleton shows meanwhile, reserving the section's height.
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

function SectionContent({
  component,
  onShown,
}: {
  component: Promise<ComponentType>;
  onShown: () => void;
}) {
  const Section = use(component);
  useEffect(onShown, [onShown]);
  // eslint-disable-next-line react-hooks/static-components -- one module per section: the identity never changes
  return <Section />;
}

export interface LazySectionProps {
  /** Names the section in the DOM (`data-section`). */
  name: string;
  loader: SectionLoader;
  /** Shown while the code loads; must reserve the section's height. */
  skeleton: ReactNode;
  /** Anchor id, on the wrapper so links can target the section before it loads. */
  id?: string;
  className?: string;
}

/**
 * Memoised, and its props must be stable (module-level loaders and skeletons):
 * a still-dehydrated section that receives new props must hydrate before it can
 * update, and it only hydrates once near the viewport.
 */
export const LazySection = memo(function LazySection({
  name,
  loader,
  skeleton,
  id,
  className,
}: LazySectionProps) {
  const wrapper = useRef<HTMLDivElement>(null);
  const [gate] = useState(createGate);
  const [component] = useState(() =>
    import.meta.env.SSR || isLoaded(loader) || isAppStarted()
      ? loadComponent(loader)
      : gate.promise.then(() => loadComponent(loader)),
  );

  // A navigation opens the gate, whether or not the section is in view: React
  // must hydrate a dehydrated section that reads router context (with the props
  // it was hydrating with) before it can finish the navigation. Opening it here,
  // during render, is the only point reached before that commit; it only
  // resolves a promise, so repeating it is harmless.
  const { key } = useLocation();
  const [mountedAt] = useState(key);
  if (key !== mountedAt) gate.open();

  // Marks the section interactive (its code ran and hydrated); tests can wait for it.
  const [markHydrated] = useState(
    () => () => wrapper.current?.setAttribute('data-hydrated', 'true'),
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
    // Hydrating prerendered HTML, what shows above a section's first control needs no code
    // (decision 036): the section hydrates when the element it marks `data-hydrate-from`
    // (its first control, say) comes near the viewport, else when the section itself does.
    observer.observe(element.querySelector('[data-hydrate-from]') ?? element);
    return () => observer.disconnect();
  }, [gate]);

  return (
    <div ref={wrapper} id={id} data-section={name} className={className}>
      <Suspense fallback={skeleton}>
        <SectionContent component={component} onShown={markHydrated} />
      </Suspense>
    </div>
  );
});
