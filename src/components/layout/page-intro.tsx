import type { ReactNode } from 'react';

export interface PageIntroProps {
  eyebrow?: string;
  title: string;
  children?: ReactNode;
}

/** The heading block that opens a page. */
export function PageIntro({ eyebrow, title, children }: PageIntroProps) {
  return (
    <header className="mx-auto max-w-3xl px-6 pt-32 pb-12 text-center sm:pt-40">
      {eyebrow ? (
        <p className="text-sm font-semibold tracking-wide text-azure-700 uppercase">{eyebrow}</p>
      ) : null}
      <h1 className="mt-3 text-4xl font-bold tracking-tight text-balance text-ink-900 sm:text-5xl">
        {title}
      </h1>
      {children ? <div className="mt-6 text-lg text-pretty text-ink-600">{children}</div> : null}
    </header>
  );
}
