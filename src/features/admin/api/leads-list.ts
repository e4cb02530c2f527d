import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { signedInAs } from '@/lib/auth/signed-in-as';
import { getQueryClient } from '@/lib/query-client';
import { getSupabase } from '@/lib/supabase';
import {
  LEAD_LIST_COLUMNS,
  LEAD_PAGE_SIZE,
  LEAD_STATUSES,
  afterFilter,
  leadListRowsSchema,
  parseLeadCursor,
  parseLeadFilters,
  parseLeadView,
  searchFilter,
  toLeadPage,
  type LeadCursor,
  type LeadFilters,
  type LeadPage,
  type LeadStatus,
} from '../model/leads';
import { leadsKeys } from './leads-keys';

/**
 * Applies the filters other than status to a leads request: the owner (the
 * signed-in admin, nobody or anyone), partner-attributed only, and the search.
 */
export function narrowLeads<
  Request extends {
    eq(column: string, value: string): Request;
    is(column: string, value: null): Request;
    not(column: string, operator: string, value: null): Request;
    or(filter: string): Request;
  },
>(request: Request, filters: LeadFilters, userId: string): Request {
  let narrowed = request;
  if (filters.owner === 'me') narrowed = narrowed.eq('owner_id', userId);
  if (filters.owner === 'unassigned') narrowed = narrowed.is('owner_id', null);
  if (filters.isPartnerOnly) narrowed = narrowed.not('partner_id', 'is', null);
  const search = searchFilter(filters.search);
  if (search) narrowed = narrowed.or(search);
  return narrowed;
}

/** A keyset page of the filtered leads, newest first. */
export async function listLeads(
  filters: LeadFilters,
  userId: string,
  cursor: LeadCursor | null,
  size = LEAD_PAGE_SIZE,
): Promise<LeadPage> {
  const supabase = await getSupabase();
  let request = narrowLeads(supabase.from('leads').select(LEAD_LIST_COLUMNS), filters, userId);
  if (filters.statuses.length > 0) request = request.in('status', filters.statuses);
  // The `lte` bounds the index range; the `or` breaks ties on the cursor's own time.
  if (cursor) request = request.lte('created_at', cursor.createdAt).or(afterFilter(cursor));
  const { data, error } = await request
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(size + 1);
  if (error) throw error;
  return toLeadPage(leadListRowsSchema.parse(data), size);
}

export function useLeadPage(filters: LeadFilters, userId: string, cursor: LeadCursor | null) {
  return useQuery({
    queryKey: leadsKeys.page(filters, userId, cursor),
    queryFn: () => listLeads(filters, userId, cursor),
    placeholderData: keepPreviousData,
  });
}

/** How many leads of one status match the other filters. */
export async function countLeads(
  filters: LeadFilters,
  userId: string,
  status: LeadStatus,
): Promise<number> {
  const supabase = await getSupabase();
  const { count, error } = await narrowLeads(
    supabase.from('leads').select('id', { count: 'exact', head: true }),
    filters,
    userId,
  ).eq('status', status);
  if (error) throw error;
  return count ?? 0;
}

/** The count of each status under the other filters, one request each, in parallel. */
export function useLeadCounts(filters: LeadFilters, userId: string) {
  return useQueries({
    queries: LEAD_STATUSES.map((status) => ({
      queryKey: leadsKeys.count(filters, userId, status),
      queryFn: () => countLeads(filters, userId, status),
      placeholderData: keepPreviousData,
    })),
  });
}

/** The newest leads of one status (the board's column). */
export async function listLeadColumn(
  filters: LeadFilters,
  userId: string,
  status: LeadStatus,
  size: number,
) {
  const supabase = await getSupabase();
  const { data, error } = await narrowLeads(
    supabase.from('leads').select(LEAD_LIST_COLUMNS),
    filters,
    userId,
  )
    .eq('status', status)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(size);
  if (error) throw error;
  return leadListRowsSchema.parse(data);
}

export const BOARD_COLUMN_SIZE = 20;

/** The board: the newest leads of each status, one request each, in parallel. */
export function useLeadColumns(filters: LeadFilters, userId: string, statuses: LeadStatus[]) {
  return useQueries({
    queries: statuses.map((status) => ({
      queryKey: leadsKeys.column(filters, userId, status),
      queryFn: () => listLeadColumn(filters, userId, status, BOARD_COLUMN_SIZE),
      placeholderData: keepPreviousData,
    })),
  });
}

/**
 * Starts /admin/leads' first reads (the count of each status, and the table's
 * page unless the board is shown) while the page's code loads, under the keys
 * `useLeadCounts` and `useLeadPage` use (decision 034). Only for an admin;
 * nothing here throws: the page asks again for what failed.
 */
export async function prefetchLeadsView(search: string): Promise<void> {
  try {
    const userId = await signedInAs('admin');
    if (!userId) return;
    const params = new URLSearchParams(search);
    const filters = parseLeadFilters(params);
    const client = getQueryClient();
    const reads = LEAD_STATUSES.map((status) =>
      client.prefetchQuery({
        queryKey: leadsKeys.count(filters, userId, status),
        queryFn: () => countLeads(filters, userId, status),
      }),
    );
    if (parseLeadView(params) === 'table') {
      const cursor = parseLeadCursor(params);
      reads.push(
        client.prefetchQuery({
          queryKey: leadsKeys.page(filters, userId, cursor),
          queryFn: () => listLeads(filters, userId, cursor),
        }),
      );
    }
    await Promise.allSettled(reads);
  } catch {
    // The page's own queries report it.
  }
}
