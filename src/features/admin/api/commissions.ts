import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { signedInAs } from '@/lib/auth/signed-in-as';
import { getQueryClient } from '@/lib/query-client';
import { getSupabase } from '@/lib/supabase';
import {
  commissionPageSchema,
  parseCommissionFilters,
  parseCommissionsTab,
  payableBalanceSchema,
  payoutPageSchema,
  type CommissionFilters,
  type CommissionPage,
  type PayoutPage,
  type PayoutStatus,
} from '../model/commissions';
import type { PageCursor } from '../model/partners';

export const COMMISSIONS_PAGE_SIZE = 25;

export const commissionsKeys = {
  all: ['admin', 'commissions'] as const,
  list: (filters: CommissionFilters) => ['admin', 'commissions', 'list', filters] as const,
  balances: ['admin', 'commissions', 'balances'] as const,
  payouts: (status: PayoutStatus) => ['admin', 'commissions', 'payouts', status] as const,
  partners: ['admin', 'commissions', 'partners'] as const,
  lead: (leadId: string) => ['admin', 'commissions', 'lead', leadId] as const,
};

/** Commissions, newest first, filtered, a keyset page at a time (admin_commissions). */
export const commissionsQuery = (filters: CommissionFilters) =>
  infiniteQueryOptions({
    queryKey: commissionsKeys.list(filters),
    initialPageParam: null as PageCursor | null,
    queryFn: async ({ pageParam }): Promise<CommissionPage> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('admin_commissions', {
        ...(filters.status !== 'all' && { p_status: filters.status }),
        ...(filters.partnerId && { p_partner_id: filters.partnerId }),
        ...(pageParam && { p_before_created_at: pageParam.created_at, p_before_id: pageParam.id }),
        p_limit: COMMISSIONS_PAGE_SIZE,
      });
      if (error) throw error;
      return commissionPageSchema.parse(data);
    },
    getNextPageParam: (page) => page.next,
  });

const partnerOptionSchema = z.array(z.object({ id: z.string(), company: z.string() }));

/** Every partner by company, for the partner filter (admins read all partners). */
export const partnerOptionsQuery = () =>
  queryOptions({
    queryKey: commissionsKeys.partners,
    queryFn: async () => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('partners')
        .select('id, company')
        .order('company')
        .limit(1000);
      if (error) throw error;
      return partnerOptionSchema.parse(data);
    },
    staleTime: 60_000,
  });

/** What each partner is owed, per currency: approved commissions not yet in a payout. */
export const payableBalancesQuery = () =>
  queryOptions({
    queryKey: commissionsKeys.balances,
    queryFn: async () => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('admin_payable_balances');
      if (error) throw error;
      return z.array(payableBalanceSchema).parse(data);
    },
  });

/** Payouts of one status, newest first, a keyset page at a time (admin_payouts). */
export const payoutsQuery = (status: PayoutStatus) =>
  infiniteQueryOptions({
    queryKey: commissionsKeys.payouts(status),
    initialPageParam: null as PageCursor | null,
    queryFn: async ({ pageParam }): Promise<PayoutPage> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('admin_payouts', {
        p_status: status,
        ...(pageParam && { p_before_created_at: pageParam.created_at, p_before_id: pageParam.id }),
        p_limit: COMMISSIONS_PAGE_SIZE,
      });
      if (error) throw error;
      return payoutPageSchema.parse(data);
    },
    getNextPageParam: (page) => page.next,
  });

const leadCommissionSchema = z.array(
  z.object({
    id: z.string(),
    status: z.enum(['pending', 'approved', 'paid', 'declined']),
    amount_cents: z.coerce.number(),
    currency: z.string(),
    rate: z.coerce.number(),
    tier: z.string(),
    decline_reason: z.string().nullable(),
    created_at: z.string(),
  }),
);
export type LeadCommission = z.infer<typeof leadCommissionSchema>[number];

/** A lead's commissions, newest first (a declined one stays as history). */
export const leadCommissionsQuery = (leadId: string) =>
  queryOptions({
    queryKey: commissionsKeys.lead(leadId),
    queryFn: async () => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('commissions')
        .select('id, status, amount_cents, currency, rate, tier, decline_reason, created_at')
        .eq('lead_id', leadId)
        .order('created_at', { ascending: false });
      if (error) throw error;
      return leadCommissionSchema.parse(data);
    },
  });

/** Approves from the version the admin saw; PT409 when it moved on or was decided. */
export async function approveCommission(commissionId: string, expectedVersion: number) {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('approve_commission', {
    p_commission_id: commissionId,
    p_expected_version: expectedVersion,
  });
  if (error) throw error;
}

/** Declines with the reason the partner is emailed. */
export async function declineCommission(
  commissionId: string,
  reason: string,
  expectedVersion: number,
) {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('decline_commission', {
    p_commission_id: commissionId,
    p_reason: reason,
    p_expected_version: expectedVersion,
  });
  if (error) throw error;
}

/** Gathers the partner's approved commissions in one currency into a pending payout. */
export async function createPayout(partnerId: string, currency: string) {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('create_payout', {
    p_partner_id: partnerId,
    p_currency: currency,
  });
  if (error) throw error;
}

export async function markPayoutPaid(
  payoutId: string,
  reference: string,
  paidOn: string,
  expectedVersion: number,
) {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('mark_payout_paid', {
    p_payout_id: payoutId,
    p_reference: reference,
    p_paid_on: paidOn,
    p_expected_version: expectedVersion,
  });
  if (error) throw error;
}

/** Cancels a payout not yet paid: its commissions stay approved, owed again. */
export async function cancelPayout(payoutId: string, expectedVersion: number) {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('cancel_payout', {
    p_payout_id: payoutId,
    p_expected_version: expectedVersion,
  });
  if (error) throw error;
}

/** How many commissions wait for an admin's decision (a head count; admins read all). */
export const pendingCommissionCountQuery = () =>
  queryOptions({
    queryKey: [...commissionsKeys.all, 'pending-count'] as const,
    queryFn: async () => {
      const supabase = await getSupabase();
      const { count, error } = await supabase
        .from('commissions')
        .select('id', { count: 'exact', head: true })
        .eq('status', 'pending');
      if (error) throw error;
      return count ?? 0;
    },
  });

/**
 * Starts /admin/commissions' first reads (the pending list for the tab's
 * count, and on the commissions tab its list of the filters in the URL and the
 * partners to filter by) while the page's code loads, under the keys the page
 * uses (decision 034). Only for an admin; nothing here throws.
 */
export async function prefetchCommissionsView(search: string): Promise<void> {
  try {
    if (!(await signedInAs('admin'))) return;
    const params = new URLSearchParams(search);
    const client = getQueryClient();
    const pending: CommissionFilters = { status: 'pending', partnerId: null };
    const reads: Promise<unknown>[] = [client.prefetchInfiniteQuery(commissionsQuery(pending))];
    if (parseCommissionsTab(params) === 'commissions') {
      reads.push(
        client.prefetchInfiniteQuery(commissionsQuery(parseCommissionFilters(params))),
        client.prefetchQuery(partnerOptionsQuery()),
      );
    }
    await Promise.allSettled(reads);
  } catch {
    // The page's own queries report it.
  }
}
