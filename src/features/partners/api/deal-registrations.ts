import { infiniteQueryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import type { RegistrationOutput } from '../model/registration';

export const REGISTRATIONS_PAGE_SIZE = 25;

export const registrationsKey = ['partner-portal', 'registrations'] as const;
const registrationsKeyOf = (partnerId: string) => [...registrationsKey, partnerId] as const;

const registrationRowSchema = z.object({
  id: z.string(),
  company: z.string(),
  contact_name: z.string(),
  contact_email: z.string(),
  team_size: z.string(),
  monthly_call_volume: z.string(),
  status: z.string(),
  decision_reason: z.string().nullable(),
  created_at: z.string(),
});
export type RegistrationRow = z.infer<typeof registrationRowSchema>;

interface Cursor {
  createdAt: string;
  id: string;
}

export interface RegistrationPage {
  rows: RegistrationRow[];
  next: Cursor | null;
}

/**
 * The partner's registrations (row-level security shows only theirs; the
 * partner is named too, for an admin looking at the portal), newest
 * first, a page at a time after the last row's (created_at, id); one row more
 * than a page tells whether another follows.
 */
export const registrationsQuery = (partnerId: string) =>
  infiniteQueryOptions({
    queryKey: registrationsKeyOf(partnerId),
    initialPageParam: null as Cursor | null,
    queryFn: async ({ pageParam }): Promise<RegistrationPage> => {
      const supabase = await getSupabase();
      let request = supabase
        .from('deal_registrations')
        .select(
          'id, company, contact_name, contact_email, team_size, monthly_call_volume, status, decision_reason, created_at',
        )
        .eq('partner_id', partnerId);
      if (pageParam) {
        const at = `"${pageParam.createdAt}"`;
        request = request
          .lte('created_at', pageParam.createdAt)
          .or(`created_at.lt.${at},and(created_at.eq.${at},id.lt.${pageParam.id})`);
      }
      const { data, error } = await request
        .order('created_at', { ascending: false })
        .order('id', { ascending: false })
        .limit(REGISTRATIONS_PAGE_SIZE + 1);
      if (error) throw error;
      const fetched = z.array(registrationRowSchema).parse(data);
      const rows = fetched.slice(0, REGISTRATIONS_PAGE_SIZE);
      const last = rows.at(-1);
      return {
        rows,
        next:
          fetched.length > REGISTRATIONS_PAGE_SIZE && last
            ? { createdAt: last.created_at, id: last.id }
            : null,
      };
    },
    getNextPageParam: (page) => page.next,
  });

/** Registers a prospect through `register_deal`, which decides (tier, conflicts, limits). */
export async function registerDeal(values: RegistrationOutput): Promise<RegistrationRow> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('register_deal', {
    company: values.company,
    contact_name: values.contactName,
    contact_email: values.contactEmail,
    team_size: values.teamSize,
    monthly_call_volume: values.monthlyCallVolume,
    ...(values.notes && { notes: values.notes }),
  });
  if (error) throw error;
  return registrationRowSchema.parse(data);
}
