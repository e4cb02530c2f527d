import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { signedInAs } from '@/lib/auth/signed-in-as';
import { getQueryClient } from '@/lib/query-client';
import { getSupabase } from '@/lib/supabase';
import { partnerAccountQuery } from './partner-account';
import {
  COMMISSION_STATES,
  commissionRowSchema,
  monthBounds,
  payoutRowSchema,
  stateFromSearch,
  type CommissionFact,
  type CommissionRow,
  type CommissionState,
  type PayoutRow,
} from '../model/commissions';

/**
 * Row-level security shows a partner only their own commissions and payouts
 * (decision 028); every read also names the partner, so an admin (who may
 * read everyone's) looking at the portal sees no one else's, and the reads
 * start in the tables' (partner_id, …) indexes.
 */

export const COMMISSIONS_PAGE_SIZE = 50;

export const commissionsKeys = {
  all: ['partner-portal', 'commissions'] as const,
  ledger: (partnerId: string, state: CommissionState | null) =>
    ['partner-portal', 'commissions', partnerId, 'ledger', state ?? 'all'] as const,
  facts: (partnerId: string) => ['partner-portal', 'commissions', partnerId, 'facts'] as const,
  payouts: (partnerId: string) => ['partner-portal', 'commissions', partnerId, 'payouts'] as const,
};

const COMMISSION_COLUMNS =
  'id, company, deal_value_cents, currency, rate, amount_cents, status, won_at, period, decline_reason, paid_at, created_at, payout:payouts(reference, paid_on, status)';

interface Cursor {
  wonAt: string;
  id: string;
}

export interface CommissionPage {
  rows: CommissionRow[];
  next: Cursor | null;
}

/** The ledger, newest deal first, one state or all, a keyset page at a time on (won_at, id). */
export const commissionsQuery = (partnerId: string, state: CommissionState | null) =>
  infiniteQueryOptions({
    queryKey: commissionsKeys.ledger(partnerId, state),
    initialPageParam: null as Cursor | null,
    queryFn: async ({ pageParam }): Promise<CommissionPage> => {
      const supabase = await getSupabase();
      let request = supabase
        .from('commissions')
        .select(COMMISSION_COLUMNS)
        .eq('partner_id', partnerId);
      if (state) request = request.eq('status', state);
      if (pageParam) {
        const at = `"${pageParam.wonAt}"`;
        request = request
          .lte('won_at', pageParam.wonAt)
          .or(`won_at.lt.${at},and(won_at.eq.${at},id.lt.${pageParam.id})`);
      }
      const { data, error } = await request
        .order('won_at', { ascending: false })
        .order('id', { ascending: false })
        .limit(COMMISSIONS_PAGE_SIZE + 1);
      if (error) throw error;
      const fetched = z.array(commissionRowSchema).parse(data);
      const rows = fetched.slice(0, COMMISSIONS_PAGE_SIZE);
      const last = rows.at(-1);
      return {
        rows,
        next:
          fetched.length > COMMISSIONS_PAGE_SIZE && last
            ? { wonAt: last.won_at, id: last.id }
            : null,
      };
    },
    getNextPageParam: (page) => page.next,
  });

const factSchema = z.object({
  currency: z.string(),
  status: z.enum(COMMISSION_STATES),
  amount_cents: z.number(),
  won_at: z.string(),
  period: z.string(),
});

/**
 * Every commission's state, amount, date and period (a few columns, all rows):
 * the totals at the top, the standing toward the next tier and the months a
 * statement can cover, whatever the ledger's filter or page.
 */
export const commissionFactsQuery = (partnerId: string) =>
  queryOptions({
    queryKey: commissionsKeys.facts(partnerId),
    queryFn: async (): Promise<(CommissionFact & { period: string })[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('commissions')
        .select('currency, status, amount_cents, won_at, period')
        .eq('partner_id', partnerId);
      if (error) throw error;
      return z.array(factSchema).parse(data);
    },
  });

const PAYOUT_COLUMNS =
  'id, currency, amount_cents, commission_count, status, reference, paid_on, created_at';

/** Every payout, the newest first. */
export const payoutsQuery = (partnerId: string) =>
  queryOptions({
    queryKey: commissionsKeys.payouts(partnerId),
    queryFn: async (): Promise<PayoutRow[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('payouts')
        .select(PAYOUT_COLUMNS)
        .eq('partner_id', partnerId)
        .order('created_at', { ascending: false })
        .order('id', { ascending: false });
      if (error) throw error;
      return z.array(payoutRowSchema).parse(data);
    },
  });

/** A month's statement: the commissions of that period and the payouts paid in it. */
export async function fetchStatement(
  partnerId: string,
  month: string,
): Promise<{ commissions: CommissionRow[]; payouts: PayoutRow[] }> {
  const supabase = await getSupabase();
  const { first, next } = monthBounds(month);
  const [commissions, payouts] = await Promise.all([
    supabase
      .from('commissions')
      .select(COMMISSION_COLUMNS)
      .eq('partner_id', partnerId)
      .eq('period', first)
      .order('won_at', { ascending: true })
      .order('id', { ascending: true }),
    supabase
      .from('payouts')
      .select(PAYOUT_COLUMNS)
      .eq('partner_id', partnerId)
      .eq('status', 'paid')
      .gte('paid_on', first)
      .lt('paid_on', next)
      .order('paid_on', { ascending: true })
      .order('id', { ascending: true }),
  ]);
  if (commissions.error) throw commissions.error;
  if (payouts.error) throw payouts.error;
  return {
    commissions: z.array(commissionRowSchema).parse(commissions.data),
    payouts: z.array(payoutRowSchema).parse(payouts.data),
  };
}

/**
 * Starts the commissions page's first reads while its code loads (decision
 * 034): the partner's own row, then at once the facts behind the totals, the
 * payouts and the ledger's first page of the state in the URL, under the keys
 * the page uses. Only for whom the portal shows it; nothing here throws.
 */
export async function prefetchCommissionsView(search: string): Promise<void> {
  try {
    const userId = await signedInAs('partner', 'admin');
    if (!userId) return;
    const client = getQueryClient();
    const partner = await client.fetchQuery(partnerAccountQuery(userId));
    if (!partner) return;
    const state = stateFromSearch(new URLSearchParams(search));
    await Promise.allSettled([
      client.prefetchQuery(commissionFactsQuery(partner.id)),
      client.prefetchQuery(payoutsQuery(partner.id)),
      client.prefetchInfiniteQuery(commissionsQuery(partner.id, state)),
    ]);
  } catch {
    // The page's own queries report it.
  }
}
