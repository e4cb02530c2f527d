import { Skeleton } from '@/components/ui/skeleton';

/** The call page's shape while the call loads (the same grid), so nothing jumps when it arrives. */
export function CallDetailSkeleton() {
  return (
    <div
      role="status"
      className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,23rem)] lg:grid-rows-[auto_1fr]"
    >
      <span className="sr-only">Loading the call…</span>
      <Skeleton className="h-48 rounded-2xl lg:col-start-2 lg:row-start-1" />
      <div className="grid content-start gap-6 lg:col-start-1 lg:row-span-2 lg:row-start-1">
        <Skeleton className="h-48 rounded-2xl" />
        <Skeleton className="h-96 rounded-2xl" />
      </div>
      <Skeleton className="h-96 rounded-2xl lg:col-start-2 lg:row-start-2" />
    </div>
  );
}
