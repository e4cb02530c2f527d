import { z } from 'zod';

/** The pipeline's stages, in order. */
export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'won', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  new: 'New',
  contacted: 'Contacted',
  qualified: 'Qualified',
  won: 'Won',
  lost: 'Lost',
};

export const CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const OWNER_FILTERS = ['anyone', 'me', 'unassigned'] as const;
export type OwnerFilter = (typeof OWNER_FILTERS)[number];

export const OWNER_FILTER_LABELS: Record<OwnerFilter, string> = {
  anyone: 'Anyone',
  me: 'Me',
  unassigned: 'Unassigned',
};

/** The list's columns, with the owner's and the partner's names through their keys. */
export const LEAD_LIST_COLUMNS =
  'id, full_name, email, company, status, version, owner_id, deal_value_cents, currency, partner_id, created_at, owner:profiles(full_name), partner:partners(company)';

const nameOf = z
  .union([z.object({ full_name: z.string().nullable() }), z.null()])
  .transform((value) => value?.full_name ?? null);
const companyOf = z
  .union([z.object({ company: z.string() }), z.null()])
  .transform((value) => value?.company ?? null);

export const leadListRowSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  email: z.string(),
  company: z.string(),
  status: z.enum(LEAD_STATUSES),
  version: z.number(),
  owner_id: z.string().nullable(),
  deal_value_cents: z.number().nullable(),
  currency: z.string(),
  partner_id: z.string().nullable(),
  created_at: z.string(),
  owner: nameOf,
  partner: companyOf,
});
export type LeadListRow = z.infer<typeof leadListRowSchema>;
export const leadListRowsSchema = z.array(leadListRowSchema);

/** The list's filters, as the URL holds them. */
export interface LeadFilters {
  statuses: LeadStatus[];
  owner: OwnerFilter;
  isPartnerOnly: boolean;
  search: string;
}

export const emptyLeadFilters: LeadFilters = {
  statuses: [],
  owner: 'anyone',
  isPartnerOnly: false,
  search: '',
};

export type LeadView = 'table' | 'board';

export function parseLeadView(params: URLSearchParams): LeadView {
  return params.get('view') === 'board' ? 'board' : 'table';
}

export function parseLeadFilters(params: URLSearchParams): LeadFilters {
  const statuses = LEAD_STATUSES.filter((status) => params.getAll('status').includes(status));
  const owner = OWNER_FILTERS.find((value) => value === params.get('owner')) ?? 'anyone';
  return {
    statuses,
    owner,
    isPartnerOnly: params.get('partner') === '1',
    search: (params.get('q') ?? '').slice(0, 120),
  };
}

/** The URL parameters of the filters; defaults are left out, other parameters kept. */
export function withLeadFilters(params: URLSearchParams, filters: LeadFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of ['status', 'owner', 'partner', 'q']) next.delete(name);
  for (const status of LEAD_STATUSES) {
    if (filters.statuses.includes(status)) next.append('status', status);
  }
  if (filters.owner !== 'anyone') next.set('owner', filters.owner);
  if (filters.isPartnerOnly) next.set('partner', '1');
  if (filters.search.trim()) next.set('q', filters.search);
  return next;
}

export function hasLeadFilters(filters: LeadFilters): boolean {
  return (
    filters.statuses.length > 0 ||
    filters.owner !== 'anyone' ||
    filters.isPartnerOnly ||
    filters.search.trim() !== ''
  );
}

/**
 * A search term as a quoted PostgREST `ilike` value: LIKE's own wildcards
 * (`%`, `_`) and its escape character are escaped, then the value is quoted,
 * so `,`, `(` and `)` cannot end the `or=` list. `*` is PostgREST's wildcard
 * and has no escape, so it is dropped.
 */
export function ilikeValue(term: string): string {
  const literal = term.replace(/\*/g, '').replace(/[\\%_]/g, (character) => `\\${character}`);
  const quoted = `*${literal}*`.replace(/[\\"]/g, (character) => `\\${character}`);
  return `"${quoted}"`;
}

/** The `or=` filter of a search: company, name or email contains the term. */
export function searchFilter(search: string): string | null {
  const term = search.trim();
  if (!term) return null;
  const value = ilikeValue(term);
  return `company.ilike.${value},full_name.ilike.${value},email.ilike.${value}`;
}

/** A keyset page's edge: the created_at and id of the last row shown. */
export interface LeadCursor {
  createdAt: string;
  id: string;
}

export const LEAD_PAGE_SIZE = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

export function parseLeadCursor(params: URLSearchParams): LeadCursor | null {
  const raw = params.get('after');
  if (!raw) return null;
  const split = raw.lastIndexOf('~');
  const createdAt = raw.slice(0, split);
  const id = raw.slice(split + 1);
  return split > 0 && UUID.test(id) && TIMESTAMP.test(createdAt) ? { createdAt, id } : null;
}

export function withLeadCursor(
  params: URLSearchParams,
  cursor: LeadCursor | null,
): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('after');
  if (cursor) next.set('after', `${cursor.createdAt}~${cursor.id}`);
  return next;
}

/** The `or=` filter that starts after the cursor's row (newest first, the id breaking ties). */
export function afterFilter(cursor: LeadCursor): string {
  const value = `"${cursor.createdAt}"`;
  return `created_at.lt.${value},and(created_at.eq.${value},id.lt.${cursor.id})`;
}

export interface LeadPage {
  rows: LeadListRow[];
  next: LeadCursor | null;
}

/** A page of what was read: one row more than a page tells whether another follows. */
export function toLeadPage(fetched: LeadListRow[], pageSize = LEAD_PAGE_SIZE): LeadPage {
  const rows = fetched.slice(0, pageSize);
  const last = rows.at(-1);
  return {
    rows,
    next: fetched.length > pageSize && last ? { createdAt: last.created_at, id: last.id } : null,
  };
}

/** '$1,250.00' from cents and a currency. */
export function formatDealValue(cents: number | null, currency: string): string {
  if (cents === null) return '—';
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
}

/**
 * An amount as typed ('1,250.5', '1250') in minor units, or null when it is not
 * an amount with at most two decimals.
 */
export function parseAmountToCents(input: string): number | null {
  const cleaned = input.trim().replace(/[,\s]/g, '');
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole = '0', fraction = ''] = cleaned.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Cents as the form shows them: '1250.50', '' for none. */
export function centsToAmount(cents: number | null): string {
  if (cents === null) return '';
  const whole = Math.floor(cents / 100);
  const fraction = cents % 100;
  return fraction === 0 ? String(whole) : `${whole}.${String(fraction).padStart(2, '0')}`;
}

/** 'Nov 27, 2026, 2:14 PM' in the admin's time zone. */
export function formatLeadTime(iso: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );
}
