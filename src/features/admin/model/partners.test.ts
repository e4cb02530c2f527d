import { describe, expect, it } from 'vitest';
import {
  formatCommission,
  parseApplicationFilter,
  parsePartnerFilters,
  parsePartnersTab,
  partnerChanges,
  partnerFormSchema,
  percentToRate,
  rateToPercentInput,
  type PartnerRow,
} from './partners';

const partner: PartnerRow = {
  id: 'p1',
  user_id: 'u1',
  email: 'pia@example.com',
  company: 'Pia Co',
  referral_code: 'PIACO',
  tier: 'registered',
  commission_rate: 0.15,
  status: 'active',
  version: 3,
  created_at: '2026-11-27T10:00:00Z',
  clicks: 0,
  leads: 0,
  sign_ups: 0,
};

describe('the URL', () => {
  it('opens applications waiting for review unless told otherwise', () => {
    expect(parsePartnersTab(new URLSearchParams(''))).toBe('applications');
    expect(parsePartnersTab(new URLSearchParams('tab=partners'))).toBe('partners');
    expect(parseApplicationFilter(new URLSearchParams(''))).toBe('pending');
    expect(parseApplicationFilter(new URLSearchParams('status=all'))).toBe('all');
    expect(parseApplicationFilter(new URLSearchParams('status=rejected'))).toBe('rejected');
    expect(parseApplicationFilter(new URLSearchParams('status=bogus'))).toBe('pending');
    expect(
      parsePartnerFilters(new URLSearchParams(`q=${'a'.repeat(300)}&partner_status=x`)),
    ).toEqual({ search: 'a'.repeat(100), status: null });
  });
});

describe('commission', () => {
  it('reads and writes percentages exactly', () => {
    expect(formatCommission(0.175)).toBe('17.5 %');
    expect(formatCommission(0.15)).toBe('15 %');
    expect(rateToPercentInput(0.175)).toBe('17.5');
    expect(percentToRate('17.5')).toBe(0.175);
    expect(percentToRate('0')).toBe(0);
    expect(percentToRate('50')).toBe(0.5);
    expect(percentToRate('12,3')).toBe(0.123);
  });

  it('refuses what the database would', () => {
    const check = (percent: string) =>
      partnerFormSchema.safeParse({ tier: 'gold', percent, status: 'active' }).success;
    expect(check('20')).toBe(true);
    expect(check('17.5')).toBe(true);
    expect(check('50.1')).toBe(false);
    expect(check('51')).toBe(false);
    expect(check('-1')).toBe(false);
    expect(check('17.55')).toBe(false);
    expect(check('')).toBe(false);
    expect(check('abc')).toBe(false);
  });

  it('sends only what changed', () => {
    expect(
      partnerChanges(partner, { tier: 'registered', percent: '15', status: 'active' }),
    ).toEqual({});
    expect(partnerChanges(partner, { tier: 'gold', percent: '25', status: 'suspended' })).toEqual({
      tier: 'gold',
      commission_rate: 0.25,
      status: 'suspended',
    });
  });
});
