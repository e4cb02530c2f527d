/** Weekday numbers as the scheduler stores them (0 = Sunday), in the order a week is shown. */
export const WEEK = [1, 2, 3, 4, 5, 6, 0] as const;

export const WEEKDAY_NAMES: Record<number, string> = {
  0: 'Sunday',
  1: 'Monday',
  2: 'Tuesday',
  3: 'Wednesday',
  4: 'Thursday',
  5: 'Friday',
  6: 'Saturday',
};

/** One opening range of a weekday, times 'HH:MM' in the scheduler's time zone. */
export interface AvailabilityRange {
  /** A stable key for the editor's list. */
  key: string;
  weekday: number;
  startTime: string;
  endTime: string;
}

export function toRanges(
  rules: { id: string; weekday: number; start_time: string; end_time: string }[],
): AvailabilityRange[] {
  return rules.map((rule) => ({
    key: rule.id,
    weekday: rule.weekday,
    startTime: rule.start_time.slice(0, 5),
    endTime: rule.end_time.slice(0, 5),
  }));
}

/** The range and field a refusal names ('p_rules.3.end_time'), or null for the whole week. */
export function rangeErrorTarget(
  details: string | null | undefined,
): { index: number; field: 'weekday' | 'start_time' | 'end_time' } | null {
  const match = /^p_rules\.(\d+)\.(weekday|start_time|end_time)$/.exec(details ?? '');
  if (!match) return null;
  return { index: Number(match[1]), field: match[2] as 'weekday' | 'start_time' | 'end_time' };
}

/** What the settings form may change (admin_update_scheduler_settings' keys). */
export interface SchedulerChanges {
  time_zone?: string;
  slot_minutes?: number;
  buffer_minutes?: number;
  min_notice_minutes?: number;
  horizon_days?: number;
  meeting_url?: string | null;
}

export const SETTINGS_FIELDS = [
  'time_zone',
  'slot_minutes',
  'buffer_minutes',
  'min_notice_minutes',
  'horizon_days',
  'meeting_url',
] as const;
export type SettingsField = (typeof SETTINGS_FIELDS)[number];

/** Today's date ('YYYY-MM-DD') in a time zone. */
export function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
}

/** 'Thursday, December 24, 2026' for a 'YYYY-MM-DD' day. */
export function formatCalendarDay(day: string): string {
  return new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T12:00:00Z`));
}
