import { Skeleton } from '@/components/ui/skeleton';

/** Rows of grey bars where calls will be, the height of real rows. */
export function CallsListSkeleton({ rows }: { rows: number }) {
  return (
    <div role="status" className="divide-y divide-sand-200">
      <span className="sr-only">Loading calls…</span>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="grid gap-2 px-4 py-3 sm:px-5">
          <div className="flex justify-between gap-4">
            <Skeleton className="h-5 w-36" />
            <Skeleton className="h-5 w-24 rounded-full" />
          </div>
          <Skeleton className="h-4 w-56" />
          <Skeleton className="h-4 w-full max-w-xl" />
        </div>
      ))}
    </div>
  );
}

/** The two trend charts' place while they load. */
export function TrendsSkeleton() {
  return (
    <div role="status" className="grid gap-4 lg:grid-cols-5">
      <span className="sr-only">Loading the trends…</span>
      <Skeleton className="h-80 w-full rounded-2xl lg:col-span-3" />
      <Skeleton className="h-80 w-full rounded-2xl lg:col-span-2" />
    </div>
  );
}
