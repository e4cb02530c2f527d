import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import type { AvailabilityRange, SchedulerChanges } from '../model/availability';

export const availabilityKeys = {
  all: ['admin', 'availability'] as const,
  rules: ['admin', 'availability', 'rules'] as const,
  blackouts: ['admin', 'availability', 'blackouts'] as const,
  settings: ['admin', 'availability', 'settings'] as const,
  zones: ['admin', 'availability', 'zones'] as const,
};

const ruleSchema = z.object({
  id: z.string(),
  weekday: z.number(),
  start_time: z.string(),
  end_time: z.string(),
});

export function useAvailabilityRules() {
  return useQuery({
    queryKey: availabilityKeys.rules,
    queryFn: async () => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('availability_rules')
        .select('id, weekday, start_time, end_time')
        .order('weekday')
        .order('start_time');
      if (error) throw error;
      return z.array(ruleSchema).parse(data);
    },
  });
}

/** Saves the week whole; a refusal names `p_rules.<index>.<field>`. */
export async function saveAvailability(ranges: AvailabilityRange[]): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('admin_save_availability', {
    p_rules: ranges.map((range) => ({
      weekday: range.weekday,
      start_time: range.startTime,
      end_time: range.endTime,
    })),
  });
  if (error) throw error;
}

const blackoutSchema = z.object({
  day: z.string(),
  reason: z.string().nullable(),
  created_at: z.string(),
});
export type BlackoutDate = z.infer<typeof blackoutSchema>;

/** Today's and later days without demos, soonest first. */
export function useBlackoutDates(today: string) {
  return useQuery({
    queryKey: [...availabilityKeys.blackouts, today],
    queryFn: async () => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('blackout_dates')
        .select('day, reason, created_at')
        .gte('day', today)
        .order('day')
        .limit(200);
      if (error) throw error;
      return z.array(blackoutSchema).parse(data);
    },
  });
}

export async function addBlackoutDate(
  day: string,
  reason: string,
): Promise<{ bookingsThatDay: number }> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('admin_add_blackout_date', {
    p_day: day,
    p_reason: reason.trim(),
  });
  if (error) throw error;
  return {
    bookingsThatDay: z.object({ bookings_that_day: z.number() }).parse(data).bookings_that_day,
  };
}

export async function removeBlackoutDate(day: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('admin_remove_blackout_date', { p_day: day });
  if (error) throw error;
}

const settingsSchema = z.object({
  time_zone: z.string(),
  slot_minutes: z.number(),
  buffer_minutes: z.number(),
  min_notice_minutes: z.number(),
  horizon_days: z.number(),
  meeting_url: z.string().nullable(),
  updated_at: z.string(),
});
export type SchedulerSettings = z.infer<typeof settingsSchema>;

export function useSchedulerSettings() {
  return useQuery({
    queryKey: availabilityKeys.settings,
    queryFn: async () => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('scheduler_settings')
        .select(
          'time_zone, slot_minutes, buffer_minutes, min_notice_minutes, horizon_days, meeting_url, updated_at',
        )
        .single();
      if (error) throw error;
      return settingsSchema.parse(data);
    },
  });
}

/** Saves from the version the form opened (its updated_at); 409 (PT409) when it moved on. */
export async function updateSchedulerSettings(
  changes: SchedulerChanges,
  expectedUpdatedAt: string,
): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('admin_update_scheduler_settings', {
    p_changes: { ...changes },
    p_expected_updated_at: expectedUpdatedAt,
  });
  if (error) throw error;
}

/** The Area/City zones PostgreSQL knows (time_zone_names()). */
export function useTimeZoneNames() {
  return useQuery({
    queryKey: availabilityKeys.zones,
    queryFn: async () => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('time_zone_names');
      if (error) throw error;
      return z.array(z.string()).parse(data);
    },
    staleTime: Infinity,
  });
}
