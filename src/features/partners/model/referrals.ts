import { z } from 'zod';

/** One row of `partner_referrals` (decision 028). */
export const referralRowSchema = z.object({
  kind: z.enum(['lead', 'booking']),
  id: z.string(),
  company: z.string(),
  status: z.string(),
  created_at: z.string(),
  starts_at: z.string().nullable(),
  contact_name: z.string().nullable(),
  contact_email: z.string().nullable(),
  commission_status: z.string().nullable(),
});
export type ReferralRow = z.infer<typeof referralRowSchema>;

/** The referrals page's filter, as `?kind=lead|booking` in the URL; absent for both. */
export const REFERRAL_KINDS = ['all', 'lead', 'booking'] as const;
export type ReferralKind = (typeof REFERRAL_KINDS)[number];

export const REFERRAL_KIND_FILTER_LABELS: Record<ReferralKind, string> = {
  all: 'All',
  lead: 'Leads',
  booking: 'Demo bookings',
};

export function parseReferralKind(params: URLSearchParams): ReferralKind {
  const raw = params.get('kind');
  return REFERRAL_KINDS.find((kind) => kind === raw) ?? 'all';
}

/** A copy of `params` with the filter set ('all' leaves the URL clean). */
export function withReferralKind(params: URLSearchParams, kind: ReferralKind): URLSearchParams {
  const next = new URLSearchParams(params);
  if (kind === 'all') next.delete('kind');
  else next.set('kind', kind);
  return next;
}

export interface ReferralCursor {
  created_at: string;
  id: string;
}

export const KIND_LABELS: Record<ReferralRow['kind'], string> = {
  lead: 'Lead',
  booking: 'Demo booking',
};

const LEAD_STATUS: Record<string, string> = {
  new: 'New',
  contacted: 'Contacted',
  qualified: 'Qualified',
  won: 'Won',
  lost: 'Lost',
};
const BOOKING_STATUS: Record<string, string> = {
  upcoming: 'Demo upcoming',
  held: 'Demo held',
  cancelled: 'Demo cancelled',
};
const COMMISSION_STATUS: Record<string, string> = {
  pending: 'Commission pending',
  approved: 'Commission approved',
  paid: 'Commission paid',
  declined: 'Commission declined',
};

/** A status the words do not know yet is shown as the database wrote it, capitalised. */
function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).replaceAll('_', ' ');
}

/** 'Qualified', 'Demo upcoming'. */
export function referralStatusLabel(row: Pick<ReferralRow, 'kind' | 'status'>): string {
  const words = row.kind === 'lead' ? LEAD_STATUS : BOOKING_STATUS;
  return words[row.status] ?? capitalise(row.status);
}

/** 'Commission approved', or null when the row has none. */
export function commissionLabel(status: string | null): string | null {
  if (!status) return null;
  return COMMISSION_STATUS[status] ?? `Commission ${status}`;
}

/** How a status reads at a glance: good, bad or neither. */
export function referralTone(row: Pick<ReferralRow, 'status'>): 'good' | 'bad' | 'neutral' {
  if (row.status === 'won' || row.status === 'held') return 'good';
  if (row.status === 'lost' || row.status === 'cancelled') return 'bad';
  return 'neutral';
}

/** Where the next page starts: after the last row shown, or nowhere when the page was short. */
export function nextReferralCursor(rows: ReferralRow[], limit: number): ReferralCursor | null {
  const last = rows.at(-1);
  return rows.length < limit || !last ? null : { created_at: last.created_at, id: last.id };
}

const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** A day in the browser's zone: 'Nov 27, 2026'. */
export function formatDay(iso: string): string {
  return dayFormat.format(new Date(iso));
}

/** A moment in the browser's zone, which it names: 'Nov 27, 2026, 3:30 PM GMT+1'. */
export function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}
