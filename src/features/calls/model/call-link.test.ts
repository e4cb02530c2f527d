import { describe, expect, it } from 'vitest';
import { backToCallsHref } from './call-link';

describe('backToCallsHref', () => {
  it('returns to the calls list with the query string the list passed along', () => {
    expect(backToCallsHref('?period=7d&outcome=resolved%2Cmissed&q=renewal')).toBe(
      '/dashboard/calls?period=7d&outcome=resolved%2Cmissed&q=renewal',
    );
  });

  it('goes to the plain list when there is nothing to keep', () => {
    expect(backToCallsHref('')).toBe('/dashboard/calls');
    expect(backToCallsHref('?')).toBe('/dashboard/calls');
  });
});
