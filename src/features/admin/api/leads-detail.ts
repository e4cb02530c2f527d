import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { LEAD_STATUSES, type Currency, type LeadStatus } from '../model/leads';
import { leadsKeys } from './leads-keys';

const LEAD_COLUMNS =
  'id, full_name, email, company, job_role, team_size, monthly_call_volume, tools, message, source, partner_id, status, owner_id, deal_value_cents, currency, version, status_changed_at, created_at, owner:profiles(full_name), partner:partners(company, referral_code)';

export const leadSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  email: z.string(),
  company: z.string(),
  job_role: z.string().nullable(),
  team_size: z.string(),
  monthly_call_volume: z.string(),
  tools: z.array(z.string()),
  message: z.string().nullable(),
  source: z.string(),
  partner_id: z.string().nullable(),
  status: z.enum(LEAD_STATUSES),
  owner_id: z.string().nullable(),
  deal_value_cents: z.number().nullable(),
  currency: z.string(),
  version: z.number(),
  status_changed_at: z.string().nullable(),
  created_at: z.string(),
  owner: z.object({ full_name: z.string().nullable() }).nullable(),
  partner: z.object({ company: z.string(), referral_code: z.string() }).nullable(),
});
export type Lead = z.infer<typeof leadSchema>;

/** The lead, or null when there is none with this id (or it is not readable). */
export async function findLead(leadId: string): Promise<Lead | null> {
  const supabase = await getSupabase();
  const { data, error } = await supabase
    .from('leads')
    .select(LEAD_COLUMNS)
    .eq('id', leadId)
    .maybeSingle();
  if (error) throw error;
  return data ? leadSchema.parse(data) : null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function useLead(leadId: string) {
  return useQuery({
    queryKey: leadsKeys.detail(leadId),
    queryFn: () => (UUID.test(leadId) ? findLead(leadId) : Promise.resolve(null)),
  });
}

export const leadNoteSchema = z.object({
  id: z.string(),
  body: z.string(),
  created_at: z.string(),
  author: z.object({ full_name: z.string().nullable() }).nullable(),
});
export type LeadNote = z.infer<typeof leadNoteSchema>;

/** The lead's notes, oldest first: a history. */
export async function listLeadNotes(leadId: string): Promise<LeadNote[]> {
  const supabase = await getSupabase();
  const { data, error } = await supabase
    .from('lead_notes')
    .select('id, body, created_at, author:profiles(full_name)')
    .eq('lead_id', leadId)
    .order('created_at', { ascending: true })
    .order('id', { ascending: true });
  if (error) throw error;
  return z.array(leadNoteSchema).parse(data);
}

export function useLeadNotes(leadId: string) {
  return useQuery({
    queryKey: leadsKeys.notes(leadId),
    queryFn: () => listLeadNotes(leadId),
    enabled: UUID.test(leadId),
  });
}

export interface LeadChanges {
  status?: LeadStatus;
  owner_id?: string | null;
  deal_value_cents?: number | null;
  currency?: Currency;
}

/** Saves the changes from the version the admin saw; 409 (PT409) when it moved on. */
export async function updateLead(
  leadId: string,
  changes: LeadChanges,
  expectedVersion: number,
): Promise<{ version: number }> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('update_lead', {
    p_lead_id: leadId,
    p_changes: { ...changes },
    p_expected_version: expectedVersion,
  });
  if (error) throw error;
  return z.object({ version: z.number() }).parse(data);
}

export async function addLeadNote(leadId: string, body: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('add_lead_note', { p_lead_id: leadId, p_body: body });
  if (error) throw error;
}
