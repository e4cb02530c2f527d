import { describe, expect, it } from 'vitest';
import { describeSlot, groupByDay, nextSlots } from './slots';

const slot = (startsAt: string, minutes = 30) => ({
  startsAt,
  endsAt: new Date(new Date(startsAt).getTime() + minutes * 60_000).toISOString(),
});

describe('demo slots in the visitor’s time zone', () => {
  it('groups by the local day, which can differ from the UTC day', () => {
    const slots = [
      slot('2026-11-23T22:00:00Z'),
      slot('2026-11-23T23:30:00Z'),
      slot('2026-11-24T14:00:00Z'),
    ];
    const tokyo = groupByDay(slots, 'Asia/Tokyo');
    expect(tokyo.map((day) => [day.key, day.slots.map((s) => s.label)])).toEqual([
      ['2026-11-24', ['07:00', '08:30', '23:00']],
    ]);
    const newYork = groupByDay(slots, 'America/New_York');
    expect(newYork.map((day) => [day.key, day.slots.map((s) => s.label)])).toEqual([
      ['2026-11-23', ['17:00', '18:30']],
      ['2026-11-24', ['09:00']],
    ]);
  });

  it('keeps 09:00 local across a daylight-saving change', () => {
    const before = slot('2027-03-12T14:00:00Z');
    const after = slot('2027-03-15T13:00:00Z');
    expect(describeSlot(before, 'America/New_York')).toBe('Friday, 12 March 2027, 09:00–09:30');
    expect(describeSlot(after, 'America/New_York')).toBe('Monday, 15 March 2027, 09:00–09:30');
  });

  it('offers the next free slots after the one that was taken', () => {
    const slots = ['10:00', '10:45', '11:30', '12:15'].map((time) =>
      slot(`2026-11-23T${time}:00Z`),
    );
    expect(nextSlots(slots, '2026-11-23T10:00:00Z').map((s) => s.startsAt)).toEqual(
      slots.slice(1).map((s) => s.startsAt),
    );
    expect(nextSlots(slots, '2026-11-24T10:00:00Z', 2)).toEqual(slots.slice(0, 2));
  });
});
