import { Skeleton } from '@/components/ui/skeleton';

/** Stands in for the list while it loads, row for row. */
export function DocumentsSkeleton({ rows = 3 }: { rows?: number }) {
  return (
    <div role="status" aria-label="Loading documents" className="divide-y divide-sand-200">
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="flex items-center gap-3 px-4 py-4 sm:px-5">
          <Skeleton className="size-9 shrink-0" />
          <div className="grid flex-1 gap-2">
            <Skeleton className="h-4 w-2/3 max-w-sm" />
            <Skeleton className="h-3 w-1/2 max-w-xs" />
          </div>
        </div>
      ))}
    </div>
  );
}
