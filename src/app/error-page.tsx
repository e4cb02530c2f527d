import { RotateCw } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Logo } from '@/components/layout/logo';
import { Button } from '@/components/ui/button';
import { buttonStyles } from '@/components/ui/button-styles';
import { Container } from '@/components/ui/container';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';

export type ErrorPagePlacement = 'under-fixed-header' | 'in-page' | 'standalone';

/**
 * What a page that failed shows instead of itself. `under-fixed-header` clears
 * the marketing pages' fixed bar; `standalone` brings its own (when the layout
 * that holds the header is what failed).
 */
export function ErrorPage({ placement }: { placement: ErrorPagePlacement }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The page the visitor was reading is gone: take them, and a screen reader, to what replaced it.
  useEffect(() => heading.current?.focus(), []);

  const content = (
    <main
      id={placement === 'standalone' ? 'main' : undefined}
      className={cn(
        'mx-auto max-w-xl px-6 pb-24 text-center',
        placement === 'under-fixed-header' ? 'pt-32 sm:pt-40' : 'pt-16 sm:pt-24',
      )}
    >
      <p className="text-sm font-semibold tracking-wide text-azure-700 uppercase">Error</p>
      <h1
        ref={heading}
        tabIndex={-1}
        className="mt-3 text-3xl font-bold tracking-tight text-balance text-ink-900 outline-none sm:text-4xl"
      >
        Something went wrong
      </h1>
      <p className="mt-4 text-lg text-pretty text-ink-600">
        This page could not be shown. Reloading usually fixes it; if not, start again from the home
        page.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button size="lg" onClick={() => window.location.reload()}>
          <RotateCw aria-hidden="true" className="size-4" />
          Reload the page
        </Button>
        {/* A full load, not a client-side one: it fetches the app afresh. */}
        <a href={paths.home} className={buttonStyles({ size: 'lg', variant: 'secondary' })}>
          Go to the home page
        </a>
      </div>
    </main>
  );

  if (placement !== 'standalone') return content;
  return (
    <div className="flex min-h-dvh flex-col bg-sand-50">
      <header className="border-b border-sand-200 bg-white">
        <Container className="flex h-16 items-center">
          <Logo />
        </Container>
      </header>
      {content}
    </div>
  );
}
