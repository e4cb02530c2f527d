import { getSupabase } from '@/lib/supabase';
import { afterFilter, type LeadCursor, type LeadFilters } from '../model/leads';
import {
  LEAD_CSV_COLUMNS,
  leadCsvRowsSchema,
  toLeadsCsv,
  type LeadCsvRow,
} from '../model/leads-csv';
import { narrowLeads } from './leads-list';

const BATCH = 1000;

/**
 * Every lead of the filters (not only the page on screen) as CSV, newest
 * first, read in keyset batches and written here so cells are made safe for
 * spreadsheets.
 */
export async function exportLeadsCsv(filters: LeadFilters, userId: string): Promise<string> {
  const supabase = await getSupabase();
  const rows: LeadCsvRow[] = [];
  let cursor: LeadCursor | null = null;
  for (;;) {
    let request = narrowLeads(supabase.from('leads').select(LEAD_CSV_COLUMNS), filters, userId);
    if (filters.statuses.length > 0) request = request.in('status', filters.statuses);
    if (cursor) request = request.lte('created_at', cursor.createdAt).or(afterFilter(cursor));
    const { data, error } = await request
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(BATCH);
    if (error) throw error;
    const batch = leadCsvRowsSchema.parse(data);
    rows.push(...batch);
    const last = batch.at(-1);
    if (batch.length < BATCH || !last) break;
    cursor = { createdAt: last.created_at, id: last.id };
  }
  return toLeadsCsv(rows);
}
