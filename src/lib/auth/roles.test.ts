import type { Session } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import {
  homePathFor,
  mustEnrolSecondFactor,
  needsSecondFactor,
  roleOf,
  safeNextPath,
} from './roles';

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

describe('the admin area', () => {
  const as = (role: string | undefined, base: Session) =>
    ({ ...base, user: { ...base.user, app_metadata: role ? { role } : {} } }) as Session;

  it('asks an admin with no verified factor to enrol one, and no one else', () => {
    expect(mustEnrolSecondFactor(as('admin', session('aal1')))).toBe(true);
    expect(mustEnrolSecondFactor(as('admin', session('aal1', 'unverified')))).toBe(true);
    expect(mustEnrolSecondFactor(as('admin', session('aal1', 'verified')))).toBe(false);
    expect(mustEnrolSecondFactor(as('admin', session('aal2', 'verified')))).toBe(false);
    expect(mustEnrolSecondFactor(as('partner', session('aal1')))).toBe(false);
    expect(mustEnrolSecondFactor(as(undefined, session('aal1')))).toBe(false);
    expect(mustEnrolSecondFactor(null)).toBe(false);
  });
});

describe('?next= targets', () => {
  const origin = 'https://cervana.test';

  it('stay on this site, as the path that was checked', () => {
    expect(safeNextPath('/dashboard', origin)).toBe('/dashboard');
    expect(safeNextPath('/partner-portal?tab=payouts', origin)).toBe('/partner-portal?tab=payouts');
    expect(safeNextPath('/dashboard?x=1#y', origin)).toBe('/dashboard?x=1#y');
    expect(safeNextPath('/admin?tab=leads&q=a%20b%2Fc', origin)).toBe(
      '/admin?tab=leads&q=a%20b%2Fc',
    );
    expect(safeNextPath('/', origin)).toBe('/');
    // Normalised as the browser would: what is followed is what was checked.
    expect(safeNextPath('/dashboard/../admin', origin)).toBe('/admin');
    expect(safeNextPath('/dashboard?q="x"', origin)).toBe('/dashboard?q=%22x%22');
  });

  it.each([
    ['a URL elsewhere', 'https://evil.example'],
    ['a URL on this origin', `${origin}/dashboard`],
    ['a protocol-relative URL', '//evil.example'],
    ['a script', 'javascript:alert(1)'],
    ['a relative path', 'dashboard'],
    ['a backslash after the slash', '/\\evil.example'],
    ['two backslashes', '\\\\evil.example'],
    ['a backslash later on', '/x/\\evil.example'],
    ['a tab (from /%09/host)', '/\t/evil.example'],
    ['a newline (from /%0A/host)', '/\n/evil.example'],
    ['a carriage return', '/\r/evil.example'],
    ['a NUL', '/\u0000/evil.example'],
    ['DEL', '/\u007f/evil.example'],
    ['a C1 control', '/\u0085/evil.example'],
    ['a space', '/ /evil.example'],
    ['a no-break space', '/\u00a0/evil.example'],
    ['a line separator', '/\u2028/evil.example'],
    ['a trailing tab', '/dashboard\t'],
    ['an encoded tab', '/%09/evil.example'],
    ['an encoded newline', '/%0A/evil.example'],
    ['an encoded backslash', '/%5C/evil.example'],
    ['an encoded slash', '/%2F/evil.example'],
    ['dot segments that leave //host', '/.//evil.example'],
    ['encoded dot segments that leave //host', '/x/%2e%2e//evil.example'],
    ['a broken escape', '/dashboard%'],
    ['empty', ''],
    ['nothing', null],
  ])('refuse %s', (_, hostile) => {
    expect(safeNextPath(hostile, origin)).toBeNull();
  });

  it('use the page’s origin when none is given', () => {
    expect(safeNextPath('/dashboard')).toBe('/dashboard');
    expect(safeNextPath('/\t/evil.example')).toBeNull();
  });

  it('never point back at the sign-in page', () => {
    expect(safeNextPath('/auth', origin)).toBeNull();
    expect(safeNextPath('/auth/', origin)).toBeNull();
    expect(safeNextPath('/auth#x', origin)).toBeNull();
    expect(safeNextPath('/auth?next=/auth', origin)).toBeNull();
    expect(safeNextPath('/dashboard/../auth', origin)).toBeNull();
  });
});
