import { getAuthState, startAuth } from '@/lib/auth/auth-store';
import { getQueryClient } from '@/lib/query-client';
import { rememberedWorkspace, workspaceQuery } from '@/lib/workspace/workspace';
import { RECENT_CALLS, parseCursor } from '../model/call-list';
import { browserTimeZone, callsQueryArgs, parseCallFilters } from '../model/filters';
import { callKpisQuery } from './call-kpis';
import { callTrendsQuery } from './call-trends';
import { callPageQuery } from './list-calls';
import { sampleStateQuery } from './sample-calls';

/**
 * Starts the first view's reads of /dashboard or /dashboard/calls while the
 * page's code is still loading (src/main.tsx calls it through the route's
 * `handle`), with the query keys the page's hooks use, so they find them in
 * flight instead of asking only once they render. The workspace comes from
 * this browser's memory when it has it, so nothing waits for it; otherwise it
 * is one read first. Nothing here throws: the page asks again for what failed.
 */
export async function prefetchCallsView(view: 'overview' | 'list', search: string): Promise<void> {
  try {
    await startAuth();
    const userId = getAuthState().user?.id;
    if (!userId) return;
    const client = getQueryClient();
    const fetchingWorkspace = client.fetchQuery(workspaceQuery(userId));
    const workspace = rememberedWorkspace(userId) ?? (await fetchingWorkspace);
    if (!workspace) return;
    const params = new URLSearchParams(search);
    const filters = parseCallFilters(params);
    const args = callsQueryArgs(workspace.id, filters);
    const reads: Promise<unknown>[] = [
      fetchingWorkspace,
      client.prefetchQuery(callKpisQuery(args)),
    ];
    if (view === 'overview') {
      reads.push(
        client.prefetchQuery(sampleStateQuery(workspace.id)),
        client.prefetchQuery(callTrendsQuery(args, browserTimeZone())),
        client.prefetchQuery(callPageQuery(args, 'newest', null, RECENT_CALLS)),
      );
    } else {
      reads.push(
        client.prefetchQuery(callPageQuery(args, filters.sort, parseCursor(params, filters.sort))),
      );
    }
    await Promise.allSettled(reads);
  } catch {
    // The page's own queries report it.
  }
}
