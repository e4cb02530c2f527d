import { infiniteQueryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { signedInAs } from '@/lib/auth/signed-in-as';
import { getQueryClient } from '@/lib/query-client';
import { getSupabase } from '@/lib/supabase';
import {
  applicationPageSchema,
  parseApplicationFilter,
  parsePartnerFilters,
  parsePartnersTab,
  partnerPageSchema,
  type ApplicationFilter,
  type ApplicationPage,
  type PageCursor,
  type PartnerChanges,
  type PartnerFilters,
  type PartnerPage,
} from '../model/partners';

export const PARTNERS_PAGE_SIZE = 25;

export const partnersKeys = {
  all: ['admin', 'partners'] as const,
  applications: (filter: ApplicationFilter) =>
    ['admin', 'partners', 'applications', filter] as const,
  partners: (filters: PartnerFilters) => ['admin', 'partners', 'partners', filters] as const,
};

/** Applications, newest first, a keyset page at a time (admin_partner_applications). */
export const applicationsQuery = (filter: ApplicationFilter) =>
  infiniteQueryOptions({
    queryKey: partnersKeys.applications(filter),
    initialPageParam: null as PageCursor | null,
    queryFn: async ({ pageParam }): Promise<ApplicationPage> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('admin_partner_applications', {
        ...(filter !== 'all' && { p_status: filter }),
        ...(pageParam && { p_before_created_at: pageParam.created_at, p_before_id: pageParam.id }),
        p_limit: PARTNERS_PAGE_SIZE,
      });
      if (error) throw error;
      return applicationPageSchema.parse(data);
    },
    getNextPageParam: (page) => page.next,
  });

/** Partners, newest first, filtered, a keyset page at a time (admin_partners). */
export const partnersQuery = (filters: PartnerFilters) =>
  infiniteQueryOptions({
    queryKey: partnersKeys.partners(filters),
    initialPageParam: null as PageCursor | null,
    queryFn: async ({ pageParam }): Promise<PartnerPage> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('admin_partners', {
        ...(filters.search && { p_search: filters.search }),
        ...(filters.status && { p_status: filters.status }),
        ...(pageParam && { p_before_created_at: pageParam.created_at, p_before_id: pageParam.id }),
        p_limit: PARTNERS_PAGE_SIZE,
      });
      if (error) throw error;
      return partnerPageSchema.parse(data);
    },
    getNextPageParam: (page) => page.next,
  });

const approvalSchema = z.object({
  status: z.literal('approved'),
  referral_code: z.string().nullable(),
  has_account: z.boolean(),
});

/** Approves: the applicant's account becomes a partner now, or when it is created. */
export async function approveApplication(applicationId: string) {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('approve_partner_application', {
    p_application_id: applicationId,
  });
  if (error) throw error;
  return approvalSchema.parse(data);
}

/** Rejects with the reason the applicant is emailed. */
export async function rejectApplication(applicationId: string, reason: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('reject_partner_application', {
    p_application_id: applicationId,
    p_reason: reason,
  });
  if (error) throw error;
}

/** Saves a partner's terms from the version the admin saw; PT409 when it moved on. */
export async function updatePartner(
  partnerId: string,
  changes: PartnerChanges,
  expectedVersion: number,
): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('update_partner', {
    p_partner_id: partnerId,
    p_changes: { ...changes },
    p_expected_version: expectedVersion,
  });
  if (error) throw error;
}

/**
 * Starts /admin/partners' first read (the first page of the tab in the URL,
 * applications or partners) while the page's code loads, under the keys its
 * lists use (decision 034). Only for an admin; nothing here throws.
 */
export async function prefetchPartnersView(search: string): Promise<void> {
  try {
    if (!(await signedInAs('admin'))) return;
    const params = new URLSearchParams(search);
    const tab = parsePartnersTab(params);
    const client = getQueryClient();
    if (tab === 'applications') {
      await client.prefetchInfiniteQuery(applicationsQuery(parseApplicationFilter(params)));
    } else if (tab === 'partners') {
      await client.prefetchInfiniteQuery(partnersQuery(parsePartnerFilters(params)));
    }
  } catch {
    // The page's own query reports it.
  }
}
