import type { ReactNode } from 'react';

/** The frame every step of /auth shares: one heading, a short line, the form, links below. */
export function AuthCard({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <main className="px-4 pt-24 pb-16 sm:pt-32">
      <div className="mx-auto w-full max-w-md">
        <div className="rounded-2xl border border-sand-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-bold tracking-tight text-ink-900 sm:text-3xl">{title}</h1>
          {description ? <div className="mt-2 text-base text-ink-600">{description}</div> : null}
          <div className="mt-6">{children}</div>
        </div>
        {footer ? <div className="mt-6 text-center text-sm text-ink-700">{footer}</div> : null}
      </div>
    </main>
  );
}
