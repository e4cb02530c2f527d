import { infiniteQueryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import {
  registrationPageSchema,
  type RegistrationFilter,
  type RegistrationPage,
} from '../model/deal-registrations';
import type { PageCursor } from '../model/partners';

export const REGISTRATIONS_PAGE_SIZE = 25;

export const registrationsKeys = {
  all: ['admin', 'deal-registrations'] as const,
  list: (filter: RegistrationFilter) => ['admin', 'deal-registrations', filter] as const,
};

/** Deal registrations, newest first, a keyset page at a time (admin_deal_registrations). */
export const registrationsQuery = (filter: RegistrationFilter) =>
  infiniteQueryOptions({
    queryKey: registrationsKeys.list(filter),
    initialPageParam: null as PageCursor | null,
    queryFn: async ({ pageParam }): Promise<RegistrationPage> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('admin_deal_registrations', {
        ...(filter !== 'all' && { p_status: filter }),
        ...(pageParam && { p_before_created_at: pageParam.created_at, p_before_id: pageParam.id }),
        p_limit: REGISTRATIONS_PAGE_SIZE,
      });
      if (error) throw error;
      return registrationPageSchema.parse(data);
    },
    getNextPageParam: (page) => page.next,
  });

const decidedSchema = z.object({ lead_id: z.string().nullable() });

/** Accepts: the prospect becomes a lead attributed to the partner; returns that lead. */
export async function acceptRegistration(registrationId: string) {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('accept_deal_registration', {
    p_registration_id: registrationId,
  });
  if (error) throw error;
  return decidedSchema.parse(data);
}

/** Rejects with the reason the partner is emailed. */
export async function rejectRegistration(registrationId: string, reason: string) {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('reject_deal_registration', {
    p_registration_id: registrationId,
    p_reason: reason,
  });
  if (error) throw error;
}
