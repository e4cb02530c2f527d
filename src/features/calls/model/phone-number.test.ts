import { describe, expect, it } from 'vitest';
import { formatPhoneNumber } from './phone-number';

describe('formatPhoneNumber', () => {
  it('groups North American numbers and leaves others as stored', () => {
    expect(formatPhoneNumber('+14155550100')).toBe('+1 (415) 555-0100');
    expect(formatPhoneNumber('+442071838750')).toBe('+442071838750');
    expect(formatPhoneNumber('+1415555010')).toBe('+1415555010');
  });
});
