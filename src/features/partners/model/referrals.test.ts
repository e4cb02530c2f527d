import { describe, expect, it } from 'vitest';
import {
  commissionLabel,
  nextReferralCursor,
  parseReferralKind,
  referralStatusLabel,
  referralTone,
  type ReferralRow,
  withReferralKind,
} from './referrals';

const row = (overrides: Partial<ReferralRow> = {}): ReferralRow => ({
  kind: 'lead',
  id: 'a',
  company: 'Acme',
  status: 'new',
  created_at: '2026-11-27T10:00:00Z',
  starts_at: null,
  contact_name: null,
  contact_email: null,
  commission_status: null,
  ...overrides,
});

describe('referral status words', () => {
  it('names every lead status', () => {
    expect(
      ['new', 'contacted', 'qualified', 'won', 'lost'].map((status) =>
        referralStatusLabel({ kind: 'lead', status }),
      ),
    ).toEqual(['New', 'Contacted', 'Qualified', 'Won', 'Lost']);
  });

  it('names every booking status as a demo', () => {
    expect(
      ['upcoming', 'held', 'cancelled'].map((status) =>
        referralStatusLabel({ kind: 'booking', status }),
      ),
    ).toEqual(['Demo upcoming', 'Demo held', 'Demo cancelled']);
  });

  it('shows a status it does not know rather than nothing', () => {
    expect(referralStatusLabel({ kind: 'lead', status: 'on_hold' })).toBe('On hold');
  });

  it('names the commission only when there is one', () => {
    expect(commissionLabel(null)).toBeNull();
    expect(commissionLabel('approved')).toBe('Commission approved');
  });

  it('tones won and held as good, lost and cancelled as bad', () => {
    expect(referralTone({ status: 'won' })).toBe('good');
    expect(referralTone({ status: 'held' })).toBe('good');
    expect(referralTone({ status: 'cancelled' })).toBe('bad');
    expect(referralTone({ status: 'qualified' })).toBe('neutral');
  });
});

describe('nextReferralCursor', () => {
  it('continues after the last row of a full page', () => {
    const rows = [row({ id: 'a' }), row({ id: 'b', created_at: '2026-11-26T10:00:00Z' })];
    expect(nextReferralCursor(rows, 2)).toEqual({ created_at: '2026-11-26T10:00:00Z', id: 'b' });
  });

  it('stops after a short page', () => {
    expect(nextReferralCursor([row()], 2)).toBeNull();
    expect(nextReferralCursor([], 2)).toBeNull();
  });
});

describe('the referral kind filter', () => {
  it('reads ?kind= and falls back to both', () => {
    expect(parseReferralKind(new URLSearchParams('kind=lead'))).toBe('lead');
    expect(parseReferralKind(new URLSearchParams('kind=booking'))).toBe('booking');
    expect(parseReferralKind(new URLSearchParams('kind=deal'))).toBe('all');
    expect(parseReferralKind(new URLSearchParams())).toBe('all');
  });

  it('writes the filter and leaves the URL clean for both', () => {
    expect(withReferralKind(new URLSearchParams('x=1'), 'lead').toString()).toBe('x=1&kind=lead');
    expect(withReferralKind(new URLSearchParams('kind=lead'), 'all').toString()).toBe('');
  });
});
