import { cn } from '@/lib/cn';

/**
 * Placeholder for a whole section while its code loads. `className` must give
 * the section's height at each breakpoint, so nothing moves when it arrives.
 */
export function SectionSkeleton({
  className,
  tone = 'light',
}: {
  className: string;
  tone?: 'light' | 'dark';
}) {
  const block = tone === 'dark' ? 'bg-white/10' : 'bg-sand-200/70';
  return (
    <div
      role="status"
      aria-label="Loading section"
      className={cn(tone === 'dark' ? 'bg-ink-900' : 'bg-sand-50', className)}
    >
      <div className="mx-auto flex h-full max-w-7xl flex-col gap-6 px-5 py-20 sm:px-8 sm:py-28 wide:max-w-[1600px]">
        <div className={cn('h-4 w-32 rounded-full', block)} />
        <div className={cn('h-10 w-full max-w-xl rounded-xl', block)} />
        <div className={cn('h-5 w-full max-w-2xl rounded-lg', block)} />
        <div className={cn('mt-4 min-h-48 flex-1 rounded-2xl', block)} />
      </div>
    </div>
  );
}

/**
 * A block standing in for one piece of data while it loads; `className` gives
 * its size. Hidden from assistive technology: the region it sits in says
 * 'Loading…' once (role="status"), not every block.
 */
export function Skeleton({ className }: { className: string }) {
  return (
    <div
      aria-hidden="true"
      className={cn(
        'animate-pulse rounded-lg bg-sand-200/70 motion-reduce:animate-none',
        className,
      )}
    />
  );
}
