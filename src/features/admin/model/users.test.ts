import { describe, expect, it } from 'vitest';
import { banDescription, parseUserFilters, userLabel } from './users';

describe('parseUserFilters', () => {
  it('reads the search and a known role, ignoring anything else', () => {
    expect(parseUserFilters(new URLSearchParams('q=%20ada%20&role=partner'))).toEqual({
      search: 'ada',
      role: 'partner',
    });
    expect(parseUserFilters(new URLSearchParams('role=root'))).toEqual({ search: '', role: null });
    expect(parseUserFilters(new URLSearchParams(`q=${'x'.repeat(300)}`)).search).toHaveLength(200);
  });
});

describe('banDescription', () => {
  const now = Date.parse('2026-11-27T12:00:00Z');
  it('says nothing for no ban or one that has ended', () => {
    expect(banDescription(null, now)).toBeNull();
    expect(banDescription('2026-11-27T11:00:00Z', now)).toBeNull();
  });
  it('names the end of a ban, or says indefinitely for the hundred-year one', () => {
    expect(banDescription('2026-11-28T12:00:00Z', now)).toMatch(/^Banned until /);
    expect(banDescription('2126-11-27T12:00:00Z', now)).toBe('Banned indefinitely');
  });
});

describe('userLabel', () => {
  it('prefers the name, then the email', () => {
    expect(userLabel({ id: '1', full_name: 'Ada', email: 'a@x.com' })).toBe('Ada');
    expect(userLabel({ id: '1', full_name: null, email: 'a@x.com' })).toBe('a@x.com');
  });
});
