import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { excerpt, formatCallTime } from './call-time';

beforeEach(() => {
  vi.stubEnv('TZ', 'Europe/Berlin');
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('formatCallTime', () => {
  const now = new Date('2026-11-24T16:00:00+01:00');

  it('says today and yesterday by the local calendar', () => {
    expect(formatCallTime('2026-11-24T14:05:00Z', now)).toBe('Today, 3:05 PM');
    // 23:30 UTC on the 23rd is already the 24th in Berlin.
    expect(formatCallTime('2026-11-23T23:30:00Z', now)).toBe('Today, 12:30 AM');
    expect(formatCallTime('2026-11-23T08:12:00.123456+00:00', now)).toBe('Yesterday, 9:12 AM');
  });

  it('gives the date, and the year when it is not this one', () => {
    expect(formatCallTime('2026-11-20T15:48:00Z', now)).toBe('Nov 20, 4:48 PM');
    expect(formatCallTime('2025-12-30T15:48:00Z', now)).toBe('Dec 30, 2025, 4:48 PM');
  });
});

describe('excerpt', () => {
  it('keeps short text, and cuts long text at a word', () => {
    expect(excerpt('  Asked  about\nthe invoice. ')).toBe('Asked about the invoice.');
    expect(excerpt('The caller asked to move the renewal date, and to add seats.', 40)).toBe(
      'The caller asked to move the renewal…',
    );
    expect(excerpt(null)).toBe('');
  });
});
