import type { LeadCursor, LeadFilters, LeadStatus } from '../model/leads';

/**
 * The leads queries' keys: everything starts with ['leads'], so a live change
 * invalidates the list, the counts, the board and the open lead at once.
 */
export const leadsKeys = {
  all: ['leads'] as const,
  page: (filters: LeadFilters, userId: string, cursor: LeadCursor | null) =>
    ['leads', 'page', filters, userId, cursor] as const,
  count: (filters: LeadFilters, userId: string, status: LeadStatus) =>
    ['leads', 'count', filters, userId, status] as const,
  column: (filters: LeadFilters, userId: string, status: LeadStatus) =>
    ['leads', 'column', filters, userId, status] as const,
  detail: (leadId: string) => ['leads', 'detail', leadId] as const,
  notes: (leadId: string) => ['leads', 'notes', leadId] as const,
  owners: (ids: readonly string[]) => ['leads', 'owners', ids] as const,
};
