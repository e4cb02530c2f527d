import { describe, expect, it } from 'vitest';
import { rangeErrorTarget } from './availability';
import {
  bookingAfterFilter,
  parseBookingCursor,
  parseBookingFilters,
  toBookingPage,
  withBookingCursor,
  withBookingFilters,
  type BookingListRow,
} from './bookings';

const id = '0b6f3a52-8a4e-4a3b-9d57-3f4b2a1c9e10';

describe('the bookings list in the URL', () => {
  it('reads upcoming, any status and no search by default, and ignores unknown values', () => {
    expect(parseBookingFilters(new URLSearchParams('when=later&status=maybe'))).toEqual({
      when: 'upcoming',
      status: null,
      search: '',
    });
    expect(parseBookingFilters(new URLSearchParams('when=past&status=cancelled&q=acme'))).toEqual({
      when: 'past',
      status: 'cancelled',
      search: 'acme',
    });
  });

  it('writes only what differs from the defaults and starts from the first page', () => {
    const params = withBookingFilters(new URLSearchParams(`after=x&keep=1`), {
      when: 'past',
      status: null,
      search: ' ',
    });
    expect(params.toString()).toBe('keep=1&when=past');
  });

  it('round-trips a cursor and refuses a forged one', () => {
    const cursor = { startsAt: '2026-12-01T14:00:00+00:00', id };
    expect(parseBookingCursor(withBookingCursor(new URLSearchParams(), cursor))).toEqual(cursor);
    expect(parseBookingCursor(new URLSearchParams('after=1),or(id.eq.x~y'))).toBeNull();
  });

  it('pages upcoming demos forward in time and past ones backward', () => {
    const cursor = { startsAt: '2026-12-01T14:00:00+00:00', id };
    expect(bookingAfterFilter(cursor, 'upcoming')).toBe(
      `starts_at.gt."2026-12-01T14:00:00+00:00",and(starts_at.eq."2026-12-01T14:00:00+00:00",id.gt.${id})`,
    );
    expect(bookingAfterFilter(cursor, 'past')).toContain('starts_at.lt.');
  });

  it('tells from one row more than a page whether another page follows', () => {
    const row = (n: number) => ({ id: `${n}`, starts_at: `t${n}` }) as BookingListRow;
    expect(toBookingPage([row(1), row(2), row(3)], 2)).toEqual({
      rows: [row(1), row(2)],
      next: { startsAt: 't2', id: '2' },
    });
    expect(toBookingPage([row(1)], 2).next).toBeNull();
  });
});

describe('an availability refusal', () => {
  it('names its range and field', () => {
    expect(rangeErrorTarget('p_rules.3.end_time')).toEqual({ index: 3, field: 'end_time' });
    expect(rangeErrorTarget('p_rules')).toBeNull();
  });
});
