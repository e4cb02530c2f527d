import { describe, expect, it } from 'vitest';
import { adminPeriodRange, parseAdminPeriod, withAdminPeriod } from './period';

describe('the admin period', () => {
  it('reads ?period= and falls back to 30 days', () => {
    expect(parseAdminPeriod(new URLSearchParams('period=7d'))).toBe('7d');
    expect(parseAdminPeriod(new URLSearchParams('period=90d'))).toBe('90d');
    expect(parseAdminPeriod(new URLSearchParams('period=365d'))).toBe('30d');
    expect(parseAdminPeriod(new URLSearchParams())).toBe('30d');
  });

  it('writes the period, keeping the rest of the query', () => {
    const next = withAdminPeriod(new URLSearchParams('tab=leads'), '7d');
    expect(next.toString()).toBe('tab=leads&period=7d');
  });

  it('runs from local midnight, today included', () => {
    const now = new Date(2026, 10, 27, 15, 30);
    const range = adminPeriodRange('7d', now);
    expect(range.from).toEqual(new Date(2026, 10, 21));
    expect(range.to).toEqual(new Date(2026, 10, 28));
  });
});
