import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** A titled panel; its heading level fits under the page's h1. */
export function Card({
  id,
  title,
  description,
  children,
  className,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className={cn(
        'scroll-mt-36 rounded-2xl border border-sand-200 bg-white p-6 sm:p-8',
        className,
      )}
    >
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-ink-900">
        {title}
      </h2>
      {description ? <div className="mt-1 text-sm text-ink-600">{description}</div> : null}
      <div className="mt-6">{children}</div>
    </section>
  );
}
