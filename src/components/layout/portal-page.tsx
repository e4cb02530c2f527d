import type { ReactNode } from 'react';
import { Container } from '@/components/ui/container';

/** The heading block and body of a page in the signed-in areas. */
export function PortalPage({
  eyebrow,
  title,
  description,
  actions,
  children,
}: {
  eyebrow: string;
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <main>
      <Container className="py-8 sm:py-10">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <p className="text-sm font-semibold tracking-wide text-azure-700 uppercase">
              {eyebrow}
            </p>
            <h1 className="mt-2 text-3xl font-bold tracking-tight text-ink-900">{title}</h1>
            {description ? <div className="mt-2 text-base text-ink-600">{description}</div> : null}
          </div>
          {actions}
        </div>
        {children ? <div className="mt-8">{children}</div> : null}
      </Container>
    </main>
  );
}
