import { describe, expect, it } from 'vitest';
import {
  centsToDecimal,
  formatCommissionRate,
  formatMoney,
  formatMonth,
  formatUtcDay,
  monthBounds,
  payoutStatusLabel,
  stateFromSearch,
  statementMonths,
  totalsByCurrency,
  utcDay,
  wonDealsInLastYear,
} from './commissions';

describe('money', () => {
  it('formats integer cents in their currency', () => {
    expect(formatMoney(123456, 'USD')).toBe('$1,234.56');
    expect(formatMoney(5, 'EUR')).toBe('€0.05');
    expect(formatMoney(0, 'GBP')).toBe('£0.00');
    expect(formatMoney(100000000, 'CAD')).toBe('CA$1,000,000.00');
  });

  it('writes exact decimals for spreadsheets', () => {
    expect(centsToDecimal(123456)).toBe('1234.56');
    expect(centsToDecimal(7)).toBe('0.07');
    expect(centsToDecimal(0)).toBe('0.00');
    expect(centsToDecimal(-250)).toBe('-2.50');
    // Beyond what a float's cents survive: 2^53 - 1 cents.
    expect(centsToDecimal(9007199254740991)).toBe('90071992547409.91');
  });

  it('words rates as percentages', () => {
    expect(formatCommissionRate(0.2)).toBe('20%');
    expect(formatCommissionRate(0.125)).toBe('12.5%');
    expect(formatCommissionRate(0.15)).toBe('15%');
  });
});

describe('state filter', () => {
  it('reads one known state from the URL, else every state', () => {
    expect(stateFromSearch(new URLSearchParams('state=declined'))).toBe('declined');
    expect(stateFromSearch(new URLSearchParams('state=lost'))).toBeNull();
    expect(stateFromSearch(new URLSearchParams())).toBeNull();
  });
});

describe('dates and months', () => {
  it('shows UTC days, so a commission won late on the 30th stays in its month', () => {
    expect(formatUtcDay('2026-11-30T23:30:00Z')).toBe('Nov 30, 2026');
    expect(formatUtcDay('2026-12-01')).toBe('Dec 1, 2026');
    expect(utcDay('2026-11-30T23:30:00+00:00')).toBe('2026-11-30');
    expect(utcDay('2026-12-01')).toBe('2026-12-01');
    expect(formatMonth('2026-11-01')).toBe('November 2026');
  });

  it('lists each month with a commission or a paid payout once, newest first', () => {
    expect(
      statementMonths(
        ['2026-10-01', '2026-11-01', '2026-10-01'],
        ['2026-12-03', null, '2026-11-20'],
      ),
    ).toEqual(['2026-12', '2026-11', '2026-10']);
    expect(statementMonths([], [])).toEqual([]);
  });

  it('bounds a month, across the year', () => {
    expect(monthBounds('2026-11')).toEqual({ first: '2026-11-01', next: '2026-12-01' });
    expect(monthBounds('2026-12')).toEqual({ first: '2026-12-01', next: '2027-01-01' });
  });

  it('words a payout’s status', () => {
    expect(payoutStatusLabel({ status: 'pending', paid_on: null })).toBe('Being prepared');
    expect(payoutStatusLabel({ status: 'paid', paid_on: '2026-11-27' })).toBe(
      'Paid on Nov 27, 2026',
    );
  });
});

describe('totals and standing', () => {
  const facts = [
    { currency: 'USD', status: 'pending', amount_cents: 1000, won_at: '2026-11-01T00:00:00Z' },
    { currency: 'USD', status: 'pending', amount_cents: 2500, won_at: '2026-10-01T00:00:00Z' },
    { currency: 'USD', status: 'paid', amount_cents: 700, won_at: '2025-10-01T00:00:00Z' },
    { currency: 'USD', status: 'declined', amount_cents: 9999, won_at: '2026-11-02T00:00:00Z' },
    { currency: 'EUR', status: 'approved', amount_cents: 400, won_at: '2026-11-03T00:00:00Z' },
  ] as const;

  it('totals each state per currency, counting declined ones instead of adding them', () => {
    expect(totalsByCurrency([...facts])).toEqual([
      { currency: 'EUR', pending: 0, approved: 400, paid: 0, declinedCount: 0 },
      { currency: 'USD', pending: 3500, approved: 0, paid: 700, declinedCount: 1 },
    ]);
  });

  it('counts the won deals of the last twelve months, without declined ones', () => {
    expect(wonDealsInLastYear([...facts], new Date('2026-11-27T00:00:00Z'))).toBe(3);
  });
});
