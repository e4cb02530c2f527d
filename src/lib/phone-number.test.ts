import { describe, expect, it } from 'vitest';
import { formatPhoneNumber, normalizePhoneNumber } from './phone-number';

describe('formatPhoneNumber', () => {
  it('groups North American numbers and leaves others as stored', () => {
    expect(formatPhoneNumber('+14155550100')).toBe('+1 (415) 555-0100');
    expect(formatPhoneNumber('+442071838750')).toBe('+442071838750');
    expect(formatPhoneNumber('+1415555010')).toBe('+1415555010');
  });
});

describe('normalizePhoneNumber', () => {
  it('reads numbers as people type them, as the database does', () => {
    expect(normalizePhoneNumber('+1 (415) 555-0142')).toBe('+14155550142');
    expect(normalizePhoneNumber('0044 20 7946 0958')).toBe('+442079460958');
    expect(normalizePhoneNumber('  ')).toBe('');
  });
});
