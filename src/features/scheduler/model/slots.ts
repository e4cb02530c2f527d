/** Demo slots come from the database as UTC instants; the visitor sees them in their own time zone. */

export interface Slot {
  startsAt: string;
  endsAt: string;
}

export interface SlotDay {
  /** YYYY-MM-DD in the chosen time zone. */
  key: string;
  /** "Mon 23 Nov" */
  label: string;
  /** "Monday 23 November" */
  longLabel: string;
  slots: (Slot & { label: string })[];
}

export const FALLBACK_TIME_ZONE = 'UTC';

/** The browser's time zone (on the server and in old browsers: UTC). */
export function detectTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || FALLBACK_TIME_ZONE;
  } catch {
    return FALLBACK_TIME_ZONE;
  }
}

/** Every IANA zone the browser knows, the detected one first if missing. */
export function timeZones(current: string): string[] {
  let zones: string[];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  return zones.includes(current) ? zones : [current, ...zones];
}

const parts = (date: Date, timeZone: string, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, ...options }).format(date);

export function dayKey(date: Date, timeZone: string): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(date);
}

export function timeLabel(iso: string, timeZone: string): string {
  return parts(new Date(iso), timeZone, { hour: '2-digit', minute: '2-digit', hour12: false });
}

/** "Monday 23 November 2026, 09:00–09:30" in the zone. */
export function describeSlot(slot: Slot, timeZone: string): string {
  const start = new Date(slot.startsAt);
  return `${parts(start, timeZone, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })}, ${timeLabel(slot.startsAt, timeZone)}–${timeLabel(slot.endsAt, timeZone)}`;
}

/** Slots grouped by the day they fall on in the visitor's zone, in order. */
export function groupByDay(slots: Slot[], timeZone: string): SlotDay[] {
  const days = new Map<string, SlotDay>();
  for (const slot of slots) {
    const start = new Date(slot.startsAt);
    const key = dayKey(start, timeZone);
    let day = days.get(key);
    if (!day) {
      day = {
        key,
        label: parts(start, timeZone, { weekday: 'short', day: 'numeric', month: 'short' }),
        longLabel: parts(start, timeZone, { weekday: 'long', day: 'numeric', month: 'long' }),
        slots: [],
      };
      days.set(key, day);
    }
    day.slots.push({ ...slot, label: timeLabel(slot.startsAt, timeZone) });
  }
  return [...days.values()];
}

/** The first free slots after `after` (what a visitor who lost a race is offered). */
export function nextSlots(slots: Slot[], after: string, count = 3): Slot[] {
  const from = new Date(after).getTime();
  const later = slots.filter((slot) => new Date(slot.startsAt).getTime() > from);
  return (later.length > 0 ? later : slots).slice(0, count);
}
