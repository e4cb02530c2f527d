import type { Session } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { homePathFor, needsSecondFactor, roleOf, safeNextPath } from './roles';

function tokenWith(claims: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'ES256' })}.${encode(claims)}.signature`;
}

function session(aal: string, factorStatus?: 'verified' | 'unverified'): Session {
  return {
    access_token: tokenWith({ aal, sub: 'u' }),
    user: { factors: factorStatus ? [{ id: 'f', status: factorStatus, factor_type: 'totp' }] : [] },
  } as unknown as Session;
}

describe('roles', () => {
  it('come from app_metadata.role only; anyone else is a customer', () => {
    expect(roleOf({ app_metadata: { role: 'admin' } })).toBe('admin');
    expect(roleOf({ app_metadata: { role: 'partner' } })).toBe('partner');
    expect(roleOf({ app_metadata: { role: 'superuser' } })).toBe('customer');
    expect(roleOf({ app_metadata: {} })).toBe('customer');
    expect(roleOf(null)).toBe('customer');
    expect([homePathFor('admin'), homePathFor('partner'), homePathFor('customer')]).toEqual([
      '/admin',
      '/partner-portal',
      '/dashboard',
    ]);
  });
});

describe('the second factor', () => {
  it('is owed when a verified factor exists and the token is not aal2', () => {
    expect(needsSecondFactor(session('aal1', 'verified'))).toBe(true);
    expect(needsSecondFactor(session('aal2', 'verified'))).toBe(false);
    expect(needsSecondFactor(session('aal1', 'unverified'))).toBe(false);
    expect(needsSecondFactor(session('aal1'))).toBe(false);
    expect(needsSecondFactor(null)).toBe(false);
  });

  it('is owed when the token cannot be read, rather than skipped', () => {
    const garbled = { ...session('aal2', 'verified'), access_token: 'not.a-token' } as Session;
    expect(needsSecondFactor(garbled)).toBe(true);
  });
});

describe('?next= targets', () => {
  it('stay on this site', () => {
    expect(safeNextPath('/dashboard')).toBe('/dashboard');
    expect(safeNextPath('/partner-portal?tab=payouts')).toBe('/partner-portal?tab=payouts');
    for (const hostile of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '',
      null,
    ]) {
      expect(safeNextPath(hostile)).toBeNull();
    }
  });

  it('never point back at the sign-in page', () => {
    expect(safeNextPath('/auth')).toBeNull();
    expect(safeNextPath('/auth?next=/auth')).toBeNull();
  });
});
