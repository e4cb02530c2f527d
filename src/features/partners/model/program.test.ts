import { describe, expect, it } from 'vitest';
import { estimateEarnings, tierFor } from './program';

describe('partner earnings estimate', () => {
  it('pays the tier the yearly volume reaches, on each customer’s first year', () => {
    // 2 referrals a month, a quarter close: 6 customers a year → Silver (20 %).
    const estimate = estimateEarnings({
      referralsPerMonth: 2,
      closeRate: 0.25,
      monthlyContract: 1500,
    });
    expect(estimate.customersPerYear).toBe(6);
    expect(estimate.tier.name).toBe('Silver');
    expect(estimate.yearlyCommission).toBe(6 * 1500 * 12 * 0.2);
  });

  it('starts at Registered and reaches Gold at 15 customers a year', () => {
    expect(tierFor(0).name).toBe('Registered');
    expect(tierFor(4).name).toBe('Registered');
    expect(tierFor(15).name).toBe('Gold');
    expect(
      estimateEarnings({ referralsPerMonth: 0, closeRate: 0.5, monthlyContract: 900 })
        .yearlyCommission,
    ).toBe(0);
  });
});
