import { describe, expect, it } from 'vitest';
import { ADMIN_LISTS } from './admin-lists';
import { adminOverviewSchema, buildOverviewCards } from './overview';

const overview = adminOverviewSchema.parse({
  from: '2026-10-29T00:00:00+00:00',
  leads: { current: 12, previous: 10 },
  bookings: { current: 4, previous: 0, current_cancelled: 1, previous_cancelled: 0 },
  partner_applications: { current: 1, previous: 2, pending: 1 },
  sign_ups: { current: 1200, previous: 1200 },
});

describe('buildOverviewCards', () => {
  const cards = buildOverviewCards(overview, 'the previous 30 days');

  it('gives each count, its change and its list', () => {
    expect(
      cards.map(({ label, value, change, href }) => ({ label, value, kind: change.kind, href })),
    ).toEqual([
      { label: 'New leads', value: '12', kind: 'percent', href: ADMIN_LISTS.leads },
      { label: 'Demo bookings', value: '4', kind: 'new', href: ADMIN_LISTS.bookings },
      { label: 'Partner applications', value: '1', kind: 'percent', href: ADMIN_LISTS.partners },
      { label: 'Sign-ups', value: '1,200', kind: 'percent', href: ADMIN_LISTS.users },
    ]);
  });

  it('says how many bookings were cancelled and how many applications wait', () => {
    expect(cards[1]!.note).toBe('Demos booked; 1 cancelled since');
    expect(cards[2]!.note).toBe('Received; 1 waits for review now');
  });
});
