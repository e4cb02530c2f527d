import { referralCode } from '@/lib/referral';
import { getSupabase } from '@/lib/supabase';
import type { Slot } from '../model/slots';

/** The free demo slots from now until the booking horizon. */
export async function fetchSlots(): Promise<Slot[]> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('get_demo_slots', {}, { get: true });
  if (error) throw error;
  return data.map((row) => ({ startsAt: row.starts_at, endsAt: row.ends_at }));
}

export interface BookingRequest {
  startsAt: string;
  fullName: string;
  email: string;
  company: string;
  teamSize: string;
  notes: string;
  timeZone: string;
  fax: string;
}

/**
 * What book_demo answers. The link to reschedule or cancel is not in it: it
 * travels only in the confirmation email, so only the address's owner has it.
 */
export interface BookingReceipt {
  id: string;
  starts_at: string;
  ends_at: string;
  email: string;
  time_zone: string;
}

/** Books the slot, or fails with 409 when someone else was quicker. */
export async function bookDemo(request: BookingRequest): Promise<BookingReceipt> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('book_demo', {
    starts_at: request.startsAt,
    full_name: request.fullName,
    email: request.email,
    company: request.company,
    team_size: request.teamSize,
    notes: request.notes || undefined,
    time_zone: request.timeZone,
    referral_code: referralCode(),
    fax: request.fax || undefined,
  });
  if (error) throw error;
  return data as unknown as BookingReceipt;
}

export interface ManagedBooking {
  id: string;
  starts_at: string;
  ends_at: string;
  status: 'confirmed' | 'cancelled';
  full_name: string;
  email: string;
  company: string;
  time_zone: string;
  is_past: boolean;
}

export async function fetchBooking(token: string): Promise<ManagedBooking> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('get_demo_booking', { token });
  if (error) throw error;
  return data as unknown as ManagedBooking;
}

export async function rescheduleBooking(
  token: string,
  startsAt: string,
  timeZone: string,
): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('reschedule_demo_booking', {
    token,
    starts_at: startsAt,
    time_zone: timeZone,
  });
  if (error) throw error;
}

export async function cancelBooking(token: string, reason: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('cancel_demo_booking', {
    token,
    reason: reason.trim() || undefined,
  });
  if (error) throw error;
}
