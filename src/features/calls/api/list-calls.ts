import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import {
  CALL_LIST_COLUMNS,
  PAGE_SIZE,
  callListRowsSchema,
  pageQuery,
  toPage,
  type CallPage,
  type PageCursor,
} from '../model/call-list';
import type { CallSort, CallsQueryArgs } from '../model/filters';
import { callsKeys } from './query-keys';

/**
 * A keyset page of the filtered calls: the list's columns only, one row more
 * than the page to learn whether another follows.
 */
export async function listCalls(
  args: CallsQueryArgs,
  sort: CallSort,
  cursor: PageCursor | null,
  size = PAGE_SIZE,
): Promise<CallPage> {
  const supabase = await getSupabase();
  const plan = pageQuery(sort, cursor);
  let request = supabase
    .rpc('filtered_calls', args)
    .select(CALL_LIST_COLUMNS)
    .order(plan.column, { ascending: plan.ascending })
    .order('id', { ascending: plan.ascending });
  if (plan.after) request = request.or(plan.after);
  const { data, error } = await request.limit(size + 1);
  if (error) throw error;
  return toPage(callListRowsSchema.parse(data), sort, cursor, size);
}

export const callPageQuery = (
  args: CallsQueryArgs,
  sort: CallSort,
  cursor: PageCursor | null,
  size = PAGE_SIZE,
) =>
  queryOptions({
    queryKey: callsKeys.page(args, sort, cursor, size),
    queryFn: () => listCalls(args, sort, cursor, size),
  });

export function useCallPage(
  args: CallsQueryArgs | null,
  sort: CallSort,
  cursor: PageCursor | null,
  size = PAGE_SIZE,
) {
  return useQuery({
    ...callPageQuery(
      args ?? { p_workspace_id: '', p_from: '', p_to: '', p_filters: {} },
      sort,
      cursor,
      size,
    ),
    enabled: args !== null,
    placeholderData: keepPreviousData,
  });
}
