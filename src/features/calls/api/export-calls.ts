import { getSupabase } from '@/lib/supabase';
import { CSV_COLUMNS, SORT_ORDER } from '../model/call-list';
import type { CallSort, CallsQueryArgs } from '../model/filters';

/**
 * Every call of the period and filters as CSV, in the table's order: the
 * whole filtered set in one request, not the page on screen.
 */
export async function exportCallsCsv(args: CallsQueryArgs, sort: CallSort): Promise<string> {
  const supabase = await getSupabase();
  const { column, ascending } = SORT_ORDER[sort];
  const { data, error } = await supabase
    .rpc('filtered_calls', args)
    .select(CSV_COLUMNS)
    .order(column, { ascending })
    .order('id', { ascending })
    .csv();
  if (error) throw error;
  return typeof data === 'string' ? data : '';
}
