import { z } from 'zod';
import { ilikeValue } from './leads';

/** The statuses a demo booking has (demo_bookings.status). */
export const BOOKING_STATUSES = ['confirmed', 'cancelled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  confirmed: 'Booked',
  cancelled: 'Cancelled',
};

/** Upcoming demos soonest first; past ones most recent first. */
export const BOOKING_WHEN = ['upcoming', 'past'] as const;
export type BookingWhen = (typeof BOOKING_WHEN)[number];

export const BOOKING_LIST_COLUMNS =
  'id, starts_at, ends_at, full_name, email, company, team_size, time_zone, status, partner_id, created_at, partner:partners(company)';

export const bookingListRowSchema = z.object({
  id: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  full_name: z.string(),
  email: z.string(),
  company: z.string(),
  team_size: z.string(),
  time_zone: z.string(),
  status: z.enum(BOOKING_STATUSES),
  partner_id: z.string().nullable(),
  created_at: z.string(),
  partner: z
    .union([z.object({ company: z.string() }), z.null()])
    .transform((value) => value?.company ?? null),
});
export type BookingListRow = z.infer<typeof bookingListRowSchema>;

export interface BookingFilters {
  when: BookingWhen;
  status: BookingStatus | null;
  search: string;
}

export const emptyBookingFilters: BookingFilters = { when: 'upcoming', status: null, search: '' };

export function parseBookingFilters(params: URLSearchParams): BookingFilters {
  const status = params.get('status');
  return {
    when: params.get('when') === 'past' ? 'past' : 'upcoming',
    status: BOOKING_STATUSES.find((known) => known === status) ?? null,
    search: (params.get('q') ?? '').slice(0, 120),
  };
}

/** The URL parameters of the filters; defaults are left out, the page cursor dropped. */
export function withBookingFilters(
  params: URLSearchParams,
  filters: BookingFilters,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of ['when', 'status', 'q', 'after']) next.delete(name);
  if (filters.when === 'past') next.set('when', 'past');
  if (filters.status) next.set('status', filters.status);
  if (filters.search.trim()) next.set('q', filters.search);
  return next;
}

export function hasBookingFilters(filters: BookingFilters): boolean {
  return filters.status !== null || filters.search.trim() !== '';
}

/** The `or=` filter of a search: company, name or email contains the term. */
export function bookingSearchFilter(search: string): string | null {
  const term = search.trim();
  if (!term) return null;
  const value = ilikeValue(term);
  return `company.ilike.${value},full_name.ilike.${value},email.ilike.${value}`;
}

/** A keyset page's edge: the starts_at and id of the last row shown. */
export interface BookingCursor {
  startsAt: string;
  id: string;
}

export const BOOKING_PAGE_SIZE = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export function parseBookingCursor(params: URLSearchParams): BookingCursor | null {
  const raw = params.get('after');
  if (!raw) return null;
  const split = raw.lastIndexOf('~');
  const startsAt = raw.slice(0, split);
  const id = raw.slice(split + 1);
  return split > 0 && UUID.test(id) && TIMESTAMP.test(startsAt) ? { startsAt, id } : null;
}

export function withBookingCursor(
  params: URLSearchParams,
  cursor: BookingCursor | null,
): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('after');
  if (cursor) next.set('after', `${cursor.startsAt}~${cursor.id}`);
  return next;
}

/**
 * The `or=` filter that starts after the cursor's row: later for upcoming
 * demos (soonest first), earlier for past ones (most recent first), the id
 * breaking ties the same way.
 */
export function bookingAfterFilter(cursor: BookingCursor, when: BookingWhen): string {
  const value = `"${cursor.startsAt}"`;
  const operator = when === 'upcoming' ? 'gt' : 'lt';
  return `starts_at.${operator}.${value},and(starts_at.eq.${value},id.${operator}.${cursor.id})`;
}

export interface BookingPage {
  rows: BookingListRow[];
  next: BookingCursor | null;
}

export function toBookingPage(
  fetched: BookingListRow[],
  pageSize = BOOKING_PAGE_SIZE,
): BookingPage {
  const rows = fetched.slice(0, pageSize);
  const last = rows.at(-1);
  return {
    rows,
    next: fetched.length > pageSize && last ? { startsAt: last.starts_at, id: last.id } : null,
  };
}

/** 'Fri, Nov 27, 2026' in a time zone (the admin's when none is given). */
export function formatDay(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** '2:00 PM' in a time zone (the admin's when none is given). */
export function formatClock(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-US', {
    hour: 'numeric',
    minute: '2-digit',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** 'Fri, Nov 27, 2026, 2:00 – 2:30 PM' in the admin's zone. */
export function formatSlot(startsAt: string, endsAt: string, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(timeZone ? { timeZone } : {}),
  }).formatRange(new Date(startsAt), new Date(endsAt));
}

/** The admin's own time zone, as the browser knows it. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The demo's time on the visitor's clock: '8:00 PM (Europe/Paris)', with the day when it differs from the admin's. */
export function visitorClock(startsAt: string, visitorZone: string): string {
  const sameDay = formatDay(startsAt, visitorZone) === formatDay(startsAt, browserTimeZone());
  const day = sameDay ? '' : ` on ${formatDay(startsAt, visitorZone)}`;
  return `${formatClock(startsAt, visitorZone)}${day} (${visitorZone})`;
}

/** The local day ('YYYY-MM-DD') of an instant in a time zone. */
export function localDay(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(iso));
}
