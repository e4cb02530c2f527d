import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { signedInAs } from '@/lib/auth/signed-in-as';
import { getQueryClient } from '@/lib/query-client';
import { getSupabase } from '@/lib/supabase';
import { auditEntrySchema, type AuditEntry } from '../model/audit-log';
import {
  BOOKING_LIST_COLUMNS,
  BOOKING_PAGE_SIZE,
  BOOKING_STATUSES,
  bookingAfterFilter,
  bookingListRowSchema,
  bookingSearchFilter,
  isUuid,
  parseBookingCursor,
  parseBookingFilters,
  toBookingPage,
  type BookingCursor,
  type BookingFilters,
  type BookingPage,
} from '../model/bookings';

/** Every bookings query starts with ['admin', 'bookings'], so a change refreshes them all. */
export const bookingsKeys = {
  all: ['admin', 'bookings'] as const,
  page: (filters: BookingFilters, cursor: BookingCursor | null) =>
    ['admin', 'bookings', 'page', filters, cursor] as const,
  detail: (id: string) => ['admin', 'bookings', 'detail', id] as const,
  slots: (id: string) => ['admin', 'bookings', 'slots', id] as const,
};

/**
 * A keyset page of the bookings on (starts_at, id): upcoming soonest first,
 * past most recent first (demo_bookings_starts_at_id_idx serves both ways).
 */
export async function listBookings(
  filters: BookingFilters,
  cursor: BookingCursor | null,
  size = BOOKING_PAGE_SIZE,
): Promise<BookingPage> {
  const supabase = await getSupabase();
  const now = new Date().toISOString();
  const ascending = filters.when === 'upcoming';
  let request = supabase.from('demo_bookings').select(BOOKING_LIST_COLUMNS);
  request = ascending ? request.gte('starts_at', now) : request.lt('starts_at', now);
  if (filters.status) request = request.eq('status', filters.status);
  const search = bookingSearchFilter(filters.search);
  if (search) request = request.or(search);
  if (cursor) {
    // The bound on starts_at alone lets the index start at the cursor; the `or` breaks ties by id.
    request = ascending
      ? request.gte('starts_at', cursor.startsAt)
      : request.lte('starts_at', cursor.startsAt);
    request = request.or(bookingAfterFilter(cursor, filters.when));
  }
  const { data, error } = await request
    .order('starts_at', { ascending })
    .order('id', { ascending })
    .limit(size + 1);
  if (error) throw error;
  return toBookingPage(z.array(bookingListRowSchema).parse(data), size);
}

export function useBookingPage(filters: BookingFilters, cursor: BookingCursor | null) {
  return useQuery({
    queryKey: bookingsKeys.page(filters, cursor),
    queryFn: () => listBookings(filters, cursor),
    placeholderData: keepPreviousData,
  });
}

const bookingSchema = z.object({
  id: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  full_name: z.string(),
  email: z.string(),
  company: z.string(),
  team_size: z.string(),
  notes: z.string().nullable(),
  time_zone: z.string(),
  status: z.enum(BOOKING_STATUSES),
  version: z.number(),
  revision: z.number(),
  cancelled_at: z.string().nullable(),
  cancel_reason: z.string().nullable(),
  created_at: z.string(),
  partner: z.object({ company: z.string(), referral_code: z.string() }).nullable(),
});
export type Booking = z.infer<typeof bookingSchema>;

const bookingLeadSchema = z.object({
  id: z.string(),
  company: z.string(),
  status: z.string(),
  created_at: z.string(),
});
export type BookingLead = z.infer<typeof bookingLeadSchema>;

export interface BookingDetail {
  booking: Booking;
  /** The leads sent from the booking's address, newest first. */
  leads: BookingLead[];
  /** The admins' changes to it, newest first. */
  history: AuditEntry[];
}

/** The booking, the leads with its address and its audit history; null when there is none. */
export async function findBooking(bookingId: string): Promise<BookingDetail | null> {
  if (!isUuid(bookingId)) return null;
  const supabase = await getSupabase();
  const { data, error } = await supabase
    .from('demo_bookings')
    .select(
      'id, starts_at, ends_at, full_name, email, company, team_size, notes, time_zone, status, version, revision, cancelled_at, cancel_reason, created_at, partner:partners(company, referral_code)',
    )
    .eq('id', bookingId)
    .maybeSingle();
  if (error) throw error;
  if (!data) return null;
  const booking = bookingSchema.parse(data);
  const [leads, history] = await Promise.all([
    supabase
      .from('leads')
      .select('id, company, status, created_at')
      .eq('email', booking.email)
      .order('created_at', { ascending: false })
      .limit(5),
    supabase
      .from('admin_audit_log')
      .select(
        'id, at, actor_id, actor_email, action, target_table, target_id, before, after, client_ip',
      )
      .eq('target_table', 'demo_bookings')
      .eq('target_id', booking.id)
      .order('id', { ascending: false })
      .limit(20),
  ]);
  if (leads.error) throw leads.error;
  if (history.error) throw history.error;
  return {
    booking,
    leads: z.array(bookingLeadSchema).parse(leads.data),
    history: z.array(auditEntrySchema).parse(history.data),
  };
}

export function useBooking(bookingId: string) {
  return useQuery({
    queryKey: bookingsKeys.detail(bookingId),
    queryFn: () => findBooking(bookingId),
  });
}

const slotsSchema = z.array(z.object({ starts_at: z.string(), ends_at: z.string() }));
export type FreeSlot = z.infer<typeof slotsSchema>[number];

/** The free slots the booking can move to (its own time counted free). */
export function useBookingSlots(bookingId: string, isEnabled: boolean) {
  return useQuery({
    queryKey: bookingsKeys.slots(bookingId),
    queryFn: async () => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('admin_demo_slots', { p_booking_id: bookingId });
      if (error) throw error;
      return slotsSchema.parse(data);
    },
    enabled: isEnabled,
  });
}

export async function rescheduleBooking(
  booking: Booking,
  startsAt: string,
  reason: string,
): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('admin_reschedule_booking', {
    p_booking_id: booking.id,
    p_starts_at: startsAt,
    p_expected_version: booking.version,
    p_reason: reason.trim(),
  });
  if (error) throw error;
}

export async function cancelBooking(booking: Booking, reason: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('admin_cancel_booking', {
    p_booking_id: booking.id,
    p_reason: reason.trim(),
    p_expected_version: booking.version,
  });
  if (error) throw error;
}

/** Adds the booking's lead (its partner kept, the admin as owner); returns the lead's id. */
export async function createLeadFromBooking(
  bookingId: string,
  monthlyCallVolume: string,
): Promise<string> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('admin_lead_from_booking', {
    p_booking_id: bookingId,
    p_monthly_call_volume: monthlyCallVolume,
  });
  if (error) throw error;
  return data.id;
}

/**
 * Starts /admin/bookings' first read (the page of the filters in the URL)
 * while the page's code loads, under the key `useBookingPage` uses (decision
 * 034). Only for an admin; nothing here throws.
 */
export async function prefetchBookingsView(search: string): Promise<void> {
  try {
    if (!(await signedInAs('admin'))) return;
    const params = new URLSearchParams(search);
    const filters = parseBookingFilters(params);
    const cursor = parseBookingCursor(params);
    await getQueryClient().prefetchQuery({
      queryKey: bookingsKeys.page(filters, cursor),
      queryFn: () => listBookings(filters, cursor),
    });
  } catch {
    // The page's own query reports it.
  }
}
