import { describe, expect, it } from 'vitest';
import { formatSize, parseEmailFilters, templateLabel } from './email-log';

describe('parseEmailFilters', () => {
  it('reads the known filters from the URL and ignores the rest', () => {
    expect(
      parseEmailFilters(
        new URLSearchParams('state=failed&channel=sms&kind=auth.magic_link&to= ada '),
      ),
    ).toEqual({ status: 'failed', channel: 'sms', template: 'auth.magic_link', recipient: 'ada' });
    expect(parseEmailFilters(new URLSearchParams('state=bounced&channel=fax&kind=%20'))).toEqual({
      status: null,
      channel: null,
      template: null,
      recipient: '',
    });
  });
});

describe('labels', () => {
  it('names known kinds and shows unknown ones as they are', () => {
    expect(templateLabel('auth.magic_link')).toBe('Sign-in link');
    expect(templateLabel('something.new')).toBe('something.new');
  });
  it('writes sizes people read', () => {
    expect(formatSize(812)).toBe('812 bytes');
    expect(formatSize(4200)).toBe('4.2 KB');
    expect(formatSize(1_300_000)).toBe('1.3 MB');
  });
});
