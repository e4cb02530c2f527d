import { cn } from '@/lib/cn';

export interface SectionHeadingProps {
  id: string;
  eyebrow: string;
  heading: string;
  lead?: string;
  tone?: 'light' | 'dark';
  align?: 'start' | 'center';
}

/** Eyebrow, h2 and lead of a section; the h2's id labels the section. */
export function SectionHeading({
  id,
  eyebrow,
  heading,
  lead,
  tone = 'light',
  align = 'start',
}: SectionHeadingProps) {
  const isDark = tone === 'dark';
  return (
    <div className={cn('max-w-3xl', align === 'center' && 'mx-auto text-center')}>
      <p
        className={cn(
          'text-sm font-semibold tracking-wide uppercase',
          isDark ? 'text-azure-400' : 'text-azure-700',
        )}
      >
        {eyebrow}
      </p>
      <h2
        id={id}
        className={cn(
          'mt-3 text-3xl font-bold tracking-tight text-balance sm:text-4xl',
          isDark ? 'text-white' : 'text-ink-900',
        )}
      >
        {heading}
      </h2>
      {lead ? (
        <p className={cn('mt-4 text-lg text-pretty', isDark ? 'text-ink-100' : 'text-ink-600')}>
          {lead}
        </p>
      ) : null}
    </div>
  );
}
