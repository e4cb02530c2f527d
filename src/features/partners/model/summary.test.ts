import { describe, expect, it } from 'vitest';
import { describeStanding, partnerSummarySchema, tierProgress } from './summary';

const nextTier = (overrides: Partial<{ min_won_deals: number; deals_to_go: number }> = {}) => ({
  tier: 'silver',
  name: 'Silver',
  rate: 0.2,
  min_won_deals: 5,
  min_revenue_cents: null,
  deals_to_go: 3,
  ...overrides,
});

describe('tierProgress', () => {
  it('counts the won deals still needed for the next tier', () => {
    const progress = tierProgress({
      won_deals: 2,
      revenue_cents: 0,
      tier: 'registered',
      next_tier: nextTier(),
    });
    expect(progress).toMatchObject({ kind: 'next', value: 2, max: 5, percent: 40 });
    expect(progress.sentence).toBe('3 more won deals to reach Silver.');
    expect(progress.tier.name).toBe('Registered');
    if (progress.kind === 'next') {
      expect(describeStanding(progress)).toBe('2 of 5 won deals in the last twelve months');
    }
  });

  it('says one deal in the singular', () => {
    const progress = tierProgress({
      won_deals: 4,
      revenue_cents: 0,
      tier: 'registered',
      next_tier: nextTier({ deals_to_go: 1 }),
    });
    expect(progress.sentence).toBe('1 more won deal to reach Silver.');
  });

  it('caps the bar at the threshold when a lowered partner has more', () => {
    const progress = tierProgress({
      won_deals: 9,
      revenue_cents: 0,
      tier: 'registered',
      next_tier: nextTier({ deals_to_go: 0 }),
    });
    expect(progress).toMatchObject({ value: 5, max: 5, percent: 100 });
    expect(progress.sentence).toMatch(/You have the won deals for Silver/);
  });

  it('knows the top tier', () => {
    const progress = tierProgress({
      won_deals: 20,
      revenue_cents: 0,
      tier: 'gold',
      next_tier: null,
    });
    expect(progress).toMatchObject({ kind: 'top', sentence: 'You are at our top tier.' });
    expect(progress.tier.name).toBe('Gold');
  });
});

describe('partnerSummarySchema', () => {
  it('reads empty commission sums as zero', () => {
    const summary = partnerSummarySchema.parse({
      partner: {
        id: 'p',
        company: 'Acme',
        referral_code: 'ACME1234',
        status: 'active',
        tier: 'registered',
        commission_rate: '0.15',
        since: '2026-11-01T00:00:00Z',
      },
      period: { from: 'a', to: 'b', clicks: 3, leads: 1, bookings: 2, won: 0 },
      all_time: { clicks: 3, leads: 1, bookings: 2 },
      commissions: [
        {
          currency: 'USD',
          pending_cents: 1500,
          approved_cents: null,
          paid_cents: null,
          declined_count: 0,
        },
      ],
      standing: { won_deals: 0, revenue_cents: null, tier: 'registered', next_tier: null },
    });
    expect(summary.partner.commission_rate).toBe(0.15);
    expect(summary.commissions[0]).toMatchObject({ pending_cents: 1500, approved_cents: 0 });
  });
});
