import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatMoney,
  formatRatePrecise,
  markPaidSchema,
  parseCommissionFilters,
  parseCommissionsTab,
  todayInput,
  writeCommissionFilters,
} from './commissions';

const PARTNER = '3f1c6a52-8b1e-4c7a-9d2e-1a2b3c4d5e6f';

describe('commissions tab and filters in the URL', () => {
  it('reads the tab, commissions by default', () => {
    expect(parseCommissionsTab(new URLSearchParams(''))).toBe('commissions');
    expect(parseCommissionsTab(new URLSearchParams('tab=payouts'))).toBe('payouts');
    expect(parseCommissionsTab(new URLSearchParams('tab=nonsense'))).toBe('commissions');
  });

  it('reads pending by default and ignores what it does not know', () => {
    expect(parseCommissionFilters(new URLSearchParams(''))).toEqual({
      status: 'pending',
      partnerId: null,
    });
    expect(parseCommissionFilters(new URLSearchParams('status=bogus&partner=x'))).toEqual({
      status: 'pending',
      partnerId: null,
    });
    expect(
      parseCommissionFilters(new URLSearchParams(`status=all&partner=${PARTNER.toUpperCase()}`)),
    ).toEqual({ status: 'all', partnerId: PARTNER });
    expect(parseCommissionFilters(new URLSearchParams('status=declined')).status).toBe('declined');
  });

  it('writes only what differs from the default, keeping other parameters', () => {
    const params = new URLSearchParams('tab=commissions&status=paid&partner=' + PARTNER);
    writeCommissionFilters(params, { status: 'pending', partnerId: null });
    expect(params.toString()).toBe('tab=commissions');
    writeCommissionFilters(params, { status: 'approved', partnerId: PARTNER });
    expect(parseCommissionFilters(params)).toEqual({ status: 'approved', partnerId: PARTNER });
  });
});

describe('money and rates', () => {
  it('formats integer cents in their currency', () => {
    expect(formatMoney(123456, 'USD')).toBe('$1,234.56');
    expect(formatMoney(5, 'EUR')).toBe('€0.05');
    expect(formatMoney(100000000, 'GBP')).toBe('£1,000,000.00');
    expect(formatMoney(0, 'CAD')).toBe('CA$0.00');
  });

  it('formats a stored rate without float noise', () => {
    expect(formatRatePrecise(0.15)).toBe('15%');
    expect(formatRatePrecise(0.175)).toBe('17.5%');
    expect(formatRatePrecise(0.07)).toBe('7%');
  });

  it('formats a date column without shifting the day', () => {
    expect(formatDate('2026-11-01')).toBe('Nov 1, 2026');
    expect(formatDate('2026-12-31')).toBe('Dec 31, 2026');
  });
});

describe('marking a payout paid', () => {
  const schema = markPaidSchema('2026-11-27');

  it('needs a reference and a date not in the future', () => {
    expect(schema.safeParse({ reference: 'WIRE-123', paidOn: '2026-11-27' }).success).toBe(true);
    expect(schema.safeParse({ reference: 'WIRE-123', paidOn: '2026-11-20' }).success).toBe(true);
    const blank = schema.safeParse({ reference: '   ', paidOn: '2026-11-27' });
    expect(blank.error?.issues[0]?.message).toMatch(/reference/);
    const future = schema.safeParse({ reference: 'WIRE-123', paidOn: '2026-11-28' });
    expect(future.error?.issues[0]?.message).toBe('The payment date cannot be in the future.');
    expect(schema.safeParse({ reference: 'WIRE-123', paidOn: '' }).success).toBe(false);
    expect(schema.safeParse({ reference: 'x'.repeat(121), paidOn: '2026-11-27' }).success).toBe(
      false,
    );
  });

  it('defaults the date to the local calendar day', () => {
    expect(todayInput(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
  });
});
