import { infiniteQueryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import {
  auditEntrySchema,
  likePattern,
  type AuditEntry,
  type AuditFilters,
} from '../model/audit-log';

export const AUDIT_PAGE_SIZE = 50;

/**
 * The log, newest first, a page at a time by key: entries are only ever
 * appended, so the id orders them, and the next page is "ids below the last".
 */
export const auditLogQuery = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'audit-log', filters],
    initialPageParam: null as number | null,
    queryFn: async ({ pageParam }): Promise<{ entries: AuditEntry[]; next: number | null }> => {
      const supabase = await getSupabase();
      let query = supabase
        .from('admin_audit_log')
        .select(
          'id, at, actor_id, actor_email, action, target_table, target_id, before, after, client_ip',
        )
        .order('id', { ascending: false })
        .limit(AUDIT_PAGE_SIZE + 1);
      if (pageParam !== null) query = query.lt('id', pageParam);
      if (filters.table) query = query.eq('target_table', filters.table);
      if (filters.action) query = query.eq('action', filters.action);
      if (filters.actor) query = query.ilike('actor_email', likePattern(filters.actor));
      if (filters.target) query = query.eq('target_id', filters.target);
      const { data, error } = await query;
      if (error) throw error;
      const rows = z.array(auditEntrySchema).parse(data);
      const entries = rows.slice(0, AUDIT_PAGE_SIZE);
      return {
        entries,
        next: rows.length > AUDIT_PAGE_SIZE ? (entries.at(-1)?.id ?? null) : null,
      };
    },
    getNextPageParam: (page) => page.next,
  });
