import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { useCallPage } from '../api/list-calls';
import type { CallsLive } from '../api/use-calls-live';
import type { CallsQueryArgs } from '../model/filters';
import { RECENT_CALLS } from '../model/call-list';
import { CallList } from './call-list';
import { CallsListSkeleton } from './calls-skeletons';
import { QueryError } from '@/components/data/query-error';

export { RECENT_CALLS };

/** The period's five latest calls (new ones arrive live), and the way to all of them. */
export function RecentCalls({
  args,
  live,
  callsLink,
  search,
  onRetry,
}: {
  args: CallsQueryArgs | null;
  live: CallsLive;
  callsLink: string;
  /** The calls list's query string, which a call's page keeps for its way back. */
  search: string;
  /** Loads again whatever failed. */
  onRetry: () => void;
}) {
  const page = useCallPage(args, 'newest', null, RECENT_CALLS);
  return (
    <section
      aria-labelledby="recent-calls-heading"
      className="overflow-hidden rounded-2xl border border-sand-200 bg-white"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-sand-200 px-4 py-4 sm:px-5">
        <h2 id="recent-calls-heading" className="text-lg font-semibold text-ink-900">
          Latest calls
        </h2>
        <Link
          to={callsLink}
          className="inline-flex items-center gap-1 text-sm font-semibold text-azure-700 hover:underline"
        >
          Open the calls table
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
      {page.isError ? (
        <div className="p-4">
          <QueryError what="the latest calls" onRetry={onRetry} isRetrying={page.isFetching} />
        </div>
      ) : !page.data ? (
        <CallsListSkeleton rows={RECENT_CALLS} />
      ) : (
        <CallList rows={page.data.rows} search={search} newCallIds={live.newCallIds} />
      )}
    </section>
  );
}
