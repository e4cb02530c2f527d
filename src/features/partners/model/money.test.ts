import { describe, expect, it } from 'vitest';
import { formatMoney } from './money';

describe('formatMoney', () => {
  it('formats integer cents in the currency', () => {
    expect(formatMoney(123450, 'USD', 'en-US')).toBe('$1,234.50');
    expect(formatMoney(0, 'USD', 'en-US')).toBe('$0.00');
    expect(formatMoney(99, 'EUR', 'en-US')).toBe('€0.99');
  });

  it('follows the language for separators', () => {
    expect(formatMoney(123450, 'EUR', 'de-DE')).toBe('1.234,50\u00a0€');
  });

  it('knows currencies without minor units', () => {
    expect(formatMoney(5000, 'JPY', 'en-US')).toBe('¥5,000');
  });

  it('still shows an amount for a code Intl does not know', () => {
    expect(formatMoney(1050, 'X1', 'en-US')).toBe('10.50 X1');
  });
});
