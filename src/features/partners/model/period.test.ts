import { describe, expect, it } from 'vitest';
import {
  describePortalPeriod,
  parsePortalPeriod,
  portalPeriodRange,
  withPortalPeriod,
} from './period';

describe('the portal period', () => {
  it('reads ?period= and falls back to 30 days', () => {
    expect(parsePortalPeriod(new URLSearchParams('period=90'))).toBe(90);
    expect(parsePortalPeriod(new URLSearchParams('period=365'))).toBe(365);
    expect(parsePortalPeriod(new URLSearchParams('period=7'))).toBe(30);
    expect(parsePortalPeriod(new URLSearchParams('period=abc'))).toBe(30);
    expect(parsePortalPeriod(new URLSearchParams())).toBe(30);
  });

  it('writes the period, keeping the rest of the query, and drops the default', () => {
    expect(withPortalPeriod(new URLSearchParams('x=1'), 90).toString()).toBe('x=1&period=90');
    expect(withPortalPeriod(new URLSearchParams('period=90'), 30).toString()).toBe('');
  });

  it('runs from local midnight, today included', () => {
    const now = new Date(2026, 10, 27, 15, 30);
    const range = portalPeriodRange(30, now);
    expect(range.from).toEqual(new Date(2026, 9, 29));
    expect(range.to).toEqual(new Date(2026, 10, 28));
  });

  it('spans a year across the turn of the year', () => {
    const range = portalPeriodRange(365, new Date(2027, 0, 2, 0, 5));
    expect(range.from).toEqual(new Date(2026, 0, 3));
    expect(range.to).toEqual(new Date(2027, 0, 3));
  });

  it('says the period in words', () => {
    expect(describePortalPeriod(90)).toBe('the last 90 days');
    expect(describePortalPeriod(365)).toBe('the last 12 months');
  });
});
